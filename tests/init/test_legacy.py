"""`pygen init` keeps an adopted skill file of a type the catalog no longer declares, as
`legacy_types`, only where the code shows the editor migrating that type on load."""

from __future__ import annotations

import contextlib
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.init import legacy

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "adoption"
# A loader rebuilding the legacy node under its current type, as an editor's load step does.
LOADER = """\
export function migrate(nodes: { type: string; data: object }[]) {
  return nodes.map((n) => {
    if (n.type !== "old-image") return n
    const data = { ...n.data }
    return { ...n, type: "generate-image", data }
  })
}
"""


def test_a_comparison_then_a_current_type_written_is_a_migration(tmp_path: Path) -> None:
    texts = {tmp_path / "src" / "load.ts": LOADER,
             tmp_path / "src" / "label.ts": 'const names = { "old-sound": "Old Sound" }\n'}
    found = legacy.migrations(texts, tmp_path, ["old-image", "old-sound"],
                              ["generate-image", "text-prompt"])
    assert found == [legacy.Migration("old-image", "generate-image", "src/load.ts:3")]


def test_a_type_written_far_from_the_comparison_or_not_in_the_catalog_is_none(
        tmp_path: Path) -> None:
    far = LOADER.replace("    const data", "\n" * legacy.WINDOW + "    const data")
    assert legacy.migrations({tmp_path / "a.ts": far}, tmp_path, ["old-image"],
                             ["generate-image"]) == []
    assert legacy.migrations({tmp_path / "a.ts": LOADER}, tmp_path, ["old-image"],
                             ["text-prompt"]) == []
    tests = {tmp_path / "__tests__" / "load.ts": LOADER}
    assert legacy.migrations(tests, tmp_path, ["old-image"], ["generate-image"]) == []


def run(root: Path, *args: str) -> Result:
    with contextlib.chdir(root):
        return CliRunner().invoke(main, list(args))


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    """The adoption fixture with no config yet, and a skill file of a type it dropped."""
    root = tmp_path / "adoption"
    shutil.copytree(FIXTURE, root)
    (root / "pygen.toml").unlink()
    nodes = root / "skills" / "nodes"
    (nodes / "old-image.md").write_text((nodes / "generate-image.md").read_text())
    return root


def test_init_keeps_a_migrated_type_and_gen_and_check_pass(adopted: Path) -> None:
    (adopted / "web" / "src" / "editor" / "load.ts").write_text(LOADER)
    init = run(adopted, "init")
    assert init.exit_code == 0, init.output
    assert "legacy type old-image: the code migrates it to generate-image" in init.output
    config = tomllib.loads((adopted / "pygen.toml").read_text())
    assert config["legacy_types"] == ["old-image"]
    for command in ("gen", "check"):
        done = run(adopted, command)
        assert done.exit_code == 0, done.output


def test_without_the_migration_in_the_code_the_file_stays_an_orphan(adopted: Path) -> None:
    assert run(adopted, "init").exit_code == 0
    assert "legacy_types" not in tomllib.loads((adopted / "pygen.toml").read_text())
    assert run(adopted, "gen").exit_code == 0
    assert run(adopted, "check").exit_code == 1


SPLITTER = """\
export function migrate(nodes: { type: string; data: object }[]) {
  return nodes.map((node) => {
    if (node.type === "old-edit") {
      const engine = (node.data as Record<string, unknown>).engine as string | undefined
      if (engine === "paint") {
        return { ...node, type: "generate-image" }
      } else if (engine === "speak") {
        return { ...node, type: "text-prompt" }
      } else {
        return { ...node, type: "upscale" }
      }
    }
    if (node.type === "older") return { ...node, type: "generate-image" }
    return node
  })
}
"""


def test_a_branch_on_a_data_value_is_read_as_the_types_it_picks(tmp_path: Path) -> None:
    """The new type chosen by a data value: every branch's type, not only the first one."""
    types = ["generate-image", "text-prompt", "upscale"]
    found = legacy.migrations({tmp_path / "m.ts": SPLITTER}, tmp_path, ["old-edit", "older"],
                              types)
    assert found[0].branches == legacy.Branches(
        "engine", (("paint", "generate-image"), ("speak", "text-prompt")), "upscale")
    assert found[1] == legacy.Migration("older", "generate-image", "m.ts:13")
    assert "generate-image or text-prompt or upscale by its data's `engine`" in found[0].line()
    # One branch alone, or branches on two values, are no such map.
    one = SPLITTER.replace('} else if (engine === "speak") {\n        return { ...node, type: '
                           '"text-prompt" }\n      } else {\n        return { ...node, type: '
                           '"upscale" }\n      }', "}")
    assert legacy.migrations({tmp_path / "m.ts": one}, tmp_path, ["old-edit"],
                             types)[0].branches is None


def test_init_proposes_the_branches_for_a_saved_legacy_type(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "app"
    shutil.copytree(Path(__file__).resolve().parent.parent / "fixtures" / "ts" / "load-step",
                    root, ignore=shutil.ignore_patterns("expected.*", "pygen.toml"))
    init = run(root, "init")
    assert init.exit_code == 0, init.output
    assert ('node_types_by_data = { "photo-tool" = { key = "tool", values = { "restyle" = '
            '"modify-image", "caption" = "prompt" } } }') in init.output, init.output


FALL_THROUGH = """\
export function normalize(node: { type: string; data?: object }) {
  if (node.type === "old-edit") {
    const engine = (node.data as Record<string, unknown> | undefined)?.engine as string
    if (engine === "paint") return { ...node, type: "generate-image" }
    if (engine === "speak") return { ...node, type: "text-prompt" }
    return { ...node, type: "upscale" }
  }
  return { ...node, type: "text-prompt" }
}
"""


def test_the_type_after_the_last_branch_is_the_fall_through(tmp_path: Path) -> None:
    """One-line branches then a plain return inside the legacy type's block: that return is
    the `otherwise`; a type written after the block closes is not (second case)."""
    types = ["generate-image", "text-prompt", "upscale"]
    found = legacy.migrations({tmp_path / "n.ts": FALL_THROUGH}, tmp_path, ["old-edit"], types)
    assert found[0].branches == legacy.Branches(
        "engine", (("paint", "generate-image"), ("speak", "text-prompt")), "upscale")
    outside = FALL_THROUGH.replace('    return { ...node, type: "upscale" }\n', "")
    found = legacy.migrations({tmp_path / "n.ts": outside}, tmp_path, ["old-edit"], types)
    assert found[0].branches == legacy.Branches(
        "engine", (("paint", "generate-image"), ("speak", "text-prompt")), None)
