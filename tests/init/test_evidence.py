"""What init's evidence reads from a project: the role a file plays, whether the running code
reaches a module, and what node types say of a candidate."""

from __future__ import annotations

from pathlib import Path

from pygen.init import evidence
from pygen.init.literals import Candidate


def test_tests_generated_and_theme_files_are_not_the_app(tmp_path: Path) -> None:
    assert evidence.role(tmp_path / "src/routes/test-canvas.tsx", tmp_path) == "test"
    assert evidence.role(tmp_path / "src/api/generated/client.ts", tmp_path) == "generated"
    assert evidence.role(tmp_path / "src/theme/nodeColors.ts", tmp_path) == "theme or style"
    assert evidence.role(tmp_path / "src/api/schemas.ts", tmp_path,
                         "// This file is auto-generated. Do not edit.\n") == "generated"
    assert evidence.role(tmp_path / "src/palette/nodes.ts", tmp_path) is None
    assert evidence.role(tmp_path / "packages/latest/src/nodes.ts", tmp_path) is None


def test_a_module_is_reached_through_a_barrel_and_an_alias(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "catalog").mkdir(parents=True)
    (src / "catalog" / "nodes.ts").write_text("export const NODES = [];\n")
    (src / "catalog" / "index.ts").write_text('export { NODES } from "./nodes";\n')
    (src / "old.ts").write_text("export const NODES = [];\n")
    (src / "Palette.tsx").write_text('import { NODES } from "@/catalog";\n')
    graph = evidence.graph(tmp_path)
    assert graph.reached(src / "catalog" / "nodes.ts")
    assert not graph.reached(src / "old.ts")


def test_node_types_that_are_descriptor_keys_or_one_lone_type_are_lacks() -> None:
    one = Candidate("WEBHOOK_TRIGGER", Path("t.ts"), 1, "array", 1, "type")
    named = Candidate("NODE_DEFINITIONS", Path("n.ts"), 1, "array", 1, "type")
    assert evidence.type_lacks(["inputs", "outputs"], named) == [
        "its types are descriptor keys (inputs, outputs)"]
    assert evidence.type_lacks(["webhook"], one)[0].startswith("only 1 distinct node type")
    assert evidence.type_lacks(["note"], named) == []
    assert evidence.type_lacks(["input", "output", "math"], one) == []


def test_one_type_counts_only_under_a_name_saying_it_lists_nodes() -> None:
    for name in ("NODE_DEFINITIONS", "CORE_NODES", "nodeRegistry", "BLOCK_CATALOG", "nodeTypes"):
        said = Candidate(name, Path("n.ts"), 1, "object", 1, "type")
        assert evidence.type_lacks(["note"], said) == [], name
    for name in ("CardNodeConfig", "NODE_CONFIG", "defaultNode", "initialValues"):
        said = Candidate(name, Path("n.ts"), 1, "object", 1, "type")
        assert evidence.type_lacks(["card"], said)[0].startswith("only 1 distinct"), name
    # a class is a package of one node: its one type is a catalog
    one_class = Candidate("class:description", Path("n.ts"), 1, "class", 1, "name")
    assert evidence.type_lacks(["github"], one_class) == []
