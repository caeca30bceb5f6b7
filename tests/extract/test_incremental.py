"""Incremental extraction: a changed file re-reads only the nodes it affects, and the reply
is exactly the one a full run gives (nodes, warnings and their order, places, files read)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.config import Config, load_config
from pygen.extract import cache
from pygen.extract.runner import run_extractor

TYPES_TS = "export interface BlockBase {\n  /** Heading. */\n  title: string;\n}\n"
SIZES_TS = 'export type Size = "sm" | "md" | "lg";\n'


def block(i: int, extra: str = "", data: str | None = None) -> str:
    """One node per file; block 2 reads a type from sizes.ts, block 3 a field of an unknown
    type (a warning of the type phase), block 4 a computed default (of the entry phase)."""
    size = 'import type { Size } from "../sizes";\n' if i == 2 else ""
    name = data or f"Block{i}Data"
    extra = extra or ("\n  odd: Missing;" if i == 3 else "")
    weight = "Date.now() % 9" if i == 4 else str(i)
    return f"""import type {{ BlockBase }} from "../types";
{size}
/** Data of block {i}. */
export interface {name} extends BlockBase {{
  /** Size on the canvas. */
  size: {"Size" if i == 2 else '"sm" | "lg"'};
  weight: number;{extra}
}}

export const block{i} = {{
  type: "block-{i}",
  label: "Block {i}",
  inputs: ["in"],
  outputs: ["out"],
  defaultData: {{ title: "Block {i}", size: "sm", weight: {weight} }},
}};
"""


def registry(indexes: list[int]) -> str:
    imports = "".join(f'import {{ block{i} }} from "./blocks/block{i}";\n' for i in indexes)
    return imports + "\nexport const BLOCKS = [" + ", ".join(f"block{i}" for i in indexes) + "];\n"


def write_project(root: Path, count: int = 8) -> None:
    (root / "src" / "blocks").mkdir(parents=True)
    (root / "src" / "types.ts").write_text(TYPES_TS)
    (root / "src" / "sizes.ts").write_text(SIZES_TS)
    for i in range(count):
        (root / "src" / "blocks" / f"block{i}.ts").write_text(block(i))
    (root / "src" / "registry.ts").write_text(registry(list(range(count))))
    (root / "pygen.toml").write_text('nodes_file = "src/registry.ts"\ndefinitions = "BLOCKS"\n'
                                     'skills_dir = "skills"\n')


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    write_project(root)
    return root


def incremental_vs_cold(root: Path) -> list[str]:
    """Extract through the cache (after a first run filled it), compare with a full run;
    returns what the cache said it did."""
    config = load_config(root / "pygen.toml")
    notes: list[str] = []
    cache.extract(config, notes.append)
    stored = cache.read_entry(cache.cache_dir(config) / "extract.json",
                              cache.extraction_key(config))
    assert stored is not None
    cold = run_extractor(config)
    for key, value in cold.items():  # the part that differs first, then the exact text
        assert stored["reply"].get(key) == value, key
    assert json.dumps(stored["reply"]) == json.dumps(cold)
    return notes


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.slow
def test_each_change_gives_the_reply_of_a_full_run(project: Path) -> None:
    blocks = project / "src" / "blocks"
    assert incremental_vs_cold(project) == []  # the first run fills the cache
    assert incremental_vs_cold(project) == []  # nothing changed: nothing said, nothing read
    # A comment: the node is read again, and comes out the same.
    (blocks / "block5.ts").write_text(block(5) + "// touched\n")
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    # Its data type gains a field, documented.
    (blocks / "block5.ts").write_text(block(5, "\n  /** Shown last. */\n  note?: string;"))
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    # A file only block 2 imports.
    edit(project / "src" / "sizes.ts", '"lg"', '"lg" | "xl"')
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    # Block 3's warning (an unknown type) goes; block 4's computed default becomes static.
    (blocks / "block3.ts").write_text(block(3, "\n  odd: string;"))
    edit(blocks / "block4.ts", "Date.now() % 9", "4")
    assert incremental_vs_cold(project) == ["re-read 2 of 8 nodes (2 changed file(s))"]
    # ...and come back, in their places among the other warnings.
    (blocks / "block3.ts").write_text(block(3))
    (blocks / "block4.ts").write_text(block(4))
    assert incremental_vs_cold(project) == ["re-read 2 of 8 nodes (2 changed file(s))"]
    # Block 3's type is now found by structure, among all types: it is read with any change,
    # and so is block 0, whose type it shares.
    (blocks / "block3.ts").write_text(block(3, data="Unrelated3"))
    incremental_vs_cold(project)
    (blocks / "block5.ts").write_text(block(5))
    assert incremental_vs_cold(project) == ["re-read 3 of 8 nodes (1 changed file(s))"]
    # A changed file declares a type named like another node's: that node's lookup may now
    # find it, so everything is read.
    (blocks / "block5.ts").write_text(block(5) + "export interface Block6Data { x: number }\n")
    assert "reading every node" in incremental_vs_cold(project)[0]


@pytest.mark.slow
def test_catalog_changes_read_every_node(project: Path) -> None:
    incremental_vs_cold(project)
    whole = "reach the whole catalog: reading every node"
    # A node added, then one removed: the registry lists the entries.
    (project / "src" / "blocks" / "block8.ts").write_text(block(8))
    (project / "src" / "registry.ts").write_text(registry(list(range(9))))
    assert whole in incremental_vs_cold(project)[0]
    (project / "src" / "registry.ts").write_text(registry([0, 1, 2, 3, 4, 5, 7, 8]))
    assert whole in incremental_vs_cold(project)[0]
    # A file every node imports.
    edit(project / "src" / "types.ts", "title: string;", "title: string;\n  hint?: string;")
    assert whole in incremental_vs_cold(project)[0]
    # A node's type renamed: its entry no longer names the type the catalog had.
    edit(project / "src" / "blocks" / "block1.ts", '"block-1"', '"block-one"')
    assert whole in incremental_vs_cold(project)[0]
    # Two nodes of one type: duplicates are decided across the catalog.
    edit(project / "src" / "blocks" / "block7.ts", '"block-7"', '"block-8"')
    assert whole in incremental_vs_cold(project)[0]
    edit(project / "src" / "blocks" / "block7.ts", "weight: number;", "weight: number;\n  w?: 1;")
    assert whole in incremental_vs_cold(project)[0]


def cli(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(root)
    done = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return done.exit_code, done.output


def test_cli_gen_check_after_one_node_changes(project: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cli(project, monkeypatch, "gen", "-q")[0] == 0
    assert cli(project, monkeypatch, "check", "-q")[0] == 0
    (project / "src" / "blocks" / "block6.ts").write_text(
        block(6, "\n  /** How loud. */\n  volume?: number;"))
    code, out = cli(project, monkeypatch, "check", "-v")
    assert code == 1
    assert "re-read 1 of 8 nodes" in out and "volume" in out and "block-6.md" in out
    code, out = cli(project, monkeypatch, "gen", "-v")
    assert code == 0 and "re-read" not in out  # check cached the spliced reply
    assert cli(project, monkeypatch, "check", "-q")[0] == 0
    # Byte for byte what a cold run writes from the same sources.
    cold = tmp_path / "cold"
    shutil.copytree(project / "src", cold / "src")
    shutil.copy(project / "pygen.toml", cold / "pygen.toml")
    assert cli(cold, monkeypatch, "gen", "-q", "--no-cache")[0] == 0
    made = sorted(p.relative_to(project / "skills") for p in (project / "skills").rglob("*")
                  if p.is_file())
    assert made == sorted(p.relative_to(cold / "skills") for p in (cold / "skills").rglob("*")
                          if p.is_file())
    for name in made:
        assert (project / "skills" / name).read_bytes() == (cold / "skills" / name).read_bytes()
    assert os.environ["SOURCE_DATE_EPOCH"] == "1700000000"


@pytest.mark.slow
def test_nodes_sharing_a_data_type_are_read_together(project: Path) -> None:
    # Blocks 6 and 7 are configured to one type, with a field of an unknown type: its warning
    # is written once, by the first node that reads the type (block 6).
    (project / "src" / "shared.ts").write_text(
        'import type { BlockBase } from "./types";\n\nexport interface Shared extends BlockBase '
        '{\n  size: "sm" | "lg";\n  weight: number;\n  odd: Missing;\n}\n')
    with (project / "pygen.toml").open("a") as config:
        config.write('\n[data_types]\n"block-6" = "Shared"\n"block-7" = "Shared"\n')
    with (project / "src" / "registry.ts").open("a") as nodes:
        nodes.write('export type { Shared } from "./shared";\n')
    incremental_vs_cold(project)
    (project / "src" / "blocks" / "block7.ts").write_text(block(7) + "// touched\n")
    assert incremental_vs_cold(project) == ["re-read 2 of 8 nodes (1 changed file(s))"]


@pytest.mark.slow
def test_the_benchmark_measures_a_partial_run(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from bench import incremental

    results = incremental.measure(tmp_path / "bench", 6)
    assert "touched check: re-read 1 of 6 nodes" in capsys.readouterr().err
    lines = incremental.report(6, results)
    assert any(line.startswith("touched check / cold check: ") for line in lines)
    assert results["touched check"][1] is not None  # the extraction's share was read


@pytest.mark.slow
def test_a_partial_run_leaves_the_other_nodes_files_out(project: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The partial run's program holds the touched node's files, not the catalog's; the
    spliced reply (its list of files read included) is still a full run's."""
    incremental_vs_cold(project)
    seen = spy(monkeypatch)
    blocks = project / "src" / "blocks"
    (blocks / "block5.ts").write_text(block(5, "\n  /** Shown last. */\n  note?: string;"))
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    [(extra, fresh)] = seen
    assert "src/blocks/block0.ts" in extra["skipFiles"]
    assert "src/blocks/block5.ts" not in extra["skipFiles"]
    read = {s["path"] for s in fresh["sources"]}
    assert "src/blocks/block5.ts" in read and "src/types.ts" in read
    assert not read & {f"src/blocks/block{i}.ts" for i in (0, 1, 2, 3, 4, 6, 7)}
    # Block 2's own import (sizes.ts) is read when block 2 is; it was left out above.
    assert "src/sizes.ts" not in read
    seen.clear()
    edit(project / "src" / "sizes.ts", '"lg"', '"lg" | "xl"')
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    [(extra, fresh)] = seen
    assert {"src/blocks/block2.ts", "src/sizes.ts"} <= {s["path"] for s in fresh["sources"]}


def spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The partial runs' requests and replies, as the cache makes them (the real extractor)."""
    seen: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def spying(config: Config, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = run_extractor(config, extra)
        seen.append((extra or {}, reply))
        return reply

    monkeypatch.setattr(cache, "run_extractor", spying)
    return seen


@pytest.mark.slow
def test_a_lookup_that_now_weighs_every_type_reads_the_whole_program(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Block 5's type is renamed: found by structure among all types, which the run that left
    # files out did not load, so its answer is not used; read with the whole program, block 5
    # now shares block 0's type, so every node is read (and the result is a full run's).
    incremental_vs_cold(project)
    seen = spy(monkeypatch)
    (project / "src" / "blocks" / "block5.ts").write_text(block(5, data="Unrelated5"))
    assert "reading every node" in incremental_vs_cold(project)[0]
    # Left out, then the whole program for block 5, then the full run.
    assert [("skipFiles" in extra, "only" in extra) for extra, _ in seen] == [
        (True, True), (False, True), (False, False)]
    assert seen[0][1]["nodes"][0]["data_type"]["via"] == "structural"


@pytest.mark.slow
def test_nodes_listed_through_an_index_file(project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # The nodes file imports the nodes from an index that re-exports each: the index's
    # imports of the other nodes' files are left out too.
    count = 8
    (project / "src" / "blocks" / "index.ts").write_text("".join(
        f'export {{ block{i} }} from "./block{i}";\n' for i in range(count)))
    (project / "src" / "registry.ts").write_text(
        f'import {{ {", ".join(f"block{i}" for i in range(count))} }} from "./blocks";\n\n'
        f'export const BLOCKS = [{", ".join(f"block{i}" for i in range(count))}];\n')
    incremental_vs_cold(project)
    seen = spy(monkeypatch)
    (project / "src" / "blocks" / "block5.ts").write_text(block(5) + "// touched\n")
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    [(extra, fresh)] = seen
    read = {s["path"] for s in fresh["sources"]}
    assert "skipFiles" in extra and "src/blocks/index.ts" in read
    assert "src/blocks/block0.ts" not in read


@pytest.mark.slow
def test_a_workflow_type_keeps_the_whole_program(project: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The workflow type names a node's data from a file the run would leave out.
    (project / "src" / "workflow.ts").write_text(
        'import type { Block0Data } from "./blocks/block0";\n\n'
        "export interface Saved {\n  first: Block0Data;\n  nodes: unknown[];\n}\n")
    with (project / "pygen.toml").open("a") as config:
        config.write('workflow_type = "src/workflow.ts:Saved"\n')
    incremental_vs_cold(project)
    seen = spy(monkeypatch)
    (project / "src" / "blocks" / "block5.ts").write_text(block(5) + "// touched\n")
    assert incremental_vs_cold(project) == ["re-read 1 of 8 nodes (1 changed file(s))"]
    assert "skipFiles" not in seen[0][0] and seen[0][1]["workflow"]["name"] == "Saved"


def test_nodes_of_one_file_share_its_whole_closure(tmp_path: Path) -> None:
    """Two nodes declared in one file, their data types in two files it imports: the run walks
    that file's imports once, and each node's files are all of them."""
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    for name in ("Alpha", "Beta"):
        (root / "src" / f"{name.lower()}.ts").write_text(
            f"export interface {name}Data {{\n  /** Weight. */\n  weight: number;\n}}\n")
    (root / "src" / "nodes.ts").write_text(
        'import type { AlphaData } from "./alpha";\nimport type { BetaData } from "./beta";\n'
        "export type AnyData = AlphaData | BetaData;\n"
        'export const NODES = [\n  { type: "alpha", label: "Alpha", defaultData: { weight: 1 } },\n'
        '  { type: "beta", label: "Beta", defaultData: { weight: 2 } },\n];\n')
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\ndefinitions = "NODES"\n'
                                     'skills_dir = "skills"\n')
    facts = run_extractor(load_config(root / "pygen.toml"))["incremental"]["facts"]
    files = {fact["type"]: fact["files"] for fact in facts}
    assert files["alpha"] == files["beta"] == ["src/alpha.ts", "src/beta.ts", "src/nodes.ts"]
