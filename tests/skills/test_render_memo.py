"""The per-node render memo: a run that renders from it writes, byte for byte, what a run
without any cache writes; only the nodes whose inputs changed are rendered again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygen.cli import main
from pygen.extract import cache, cachefile
from pygen.skills import render, render_memo

NODES_TS = """\
export interface SourceData {
  /** The text it sends. */
  text: string;
}
export interface MiddleData {
  /** How strong. */
  strength: number;
}
export interface SinkData {
  /** Where it goes. */
  target: string;
}
export interface NoteData {
  /** What it says. */
  body: string;
}
export const NODE_DEFINITIONS = [
  { type: "source", label: "Source", inputs: [], outputs: ["text"],
    defaultData: { text: "hello" } },
  { type: "middle", label: "Middle", inputs: ["text"], outputs: ["image"],
    defaultData: { strength: 3 } },
  { type: "sink", label: "Sink", inputs: ["image"], outputs: [],
    defaultData: { target: "out" } },
  { type: "note", label: "Note", inputs: [], outputs: [], defaultData: { body: "" } },
];
"""
# Edits of the definitions, each as (old, new).
ONE_FIELD = ("  strength: number;\n", "  strength: number;\n  /** Added. */\n  glow?: boolean;\n")
NEIGHBOUR_DATA = ('defaultData: { target: "out" }', 'defaultData: { target: "elsewhere" }')
# A node listed first whose output is named like the source's: the middle node's upstream
# neighbour (the first in catalog order) is now this one.
NEW_HANDLE = ("export const NODE_DEFINITIONS = [\n",
              'export const NODE_DEFINITIONS = [\n  { type: "lens", label: "Lens", inputs: [], '
              'outputs: ["texts"], defaultData: {} },\n')
EDITS = (ONE_FIELD, NEIGHBOUR_DATA, NEW_HANDLE)


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def project(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS)
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return root


def skills(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted((root / "skills").rglob("*")) if p.is_file()}


def edit(root: Path, *edits: tuple[str, str]) -> None:
    path = root / "src" / "nodes.ts"
    text = path.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text)


def gen_both(cached: Path, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """`gen` from the memo in one project and `gen --no-cache` in its twin: the same bytes.
    Returns the files the memo run changed."""
    before = skills(cached)
    assert run(cached, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert run(fresh, "gen", "-q", "--no-cache", monkeypatch=monkeypatch).exit_code == 0
    after = skills(cached)
    assert after == skills(fresh)
    return {name for name in after if before.get(name) != after[name]}


class Pristine:
    """One generated project and its cacheless twin, made once per module; `restore` puts
    both back as gen left them, in place. The cache's entries are signed with a key bound to
    its key file's inode and change time (extract/cachefile.py), so a copy starts cold: the
    key file stays where gen wrote it, and every other file is put back."""

    def __init__(self, base: Path) -> None:
        self.base = base
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("HOME", str(base / "home"))
            patch.setenv("XDG_CACHE_HOME", str(base / "home" / ".cache"))
            cached = project(base / "cached", patch)
        shutil.copytree(cached, base / "fresh")
        shutil.rmtree(base / "fresh" / ".pygen-cache")
        for name in ("cached", "fresh"):
            shutil.copytree(base / name, base / f"{name}.pristine",
                            ignore=shutil.ignore_patterns(cachefile.KEY_FILE))

    def restore(self) -> tuple[Path, Path]:
        twins = self.base / "cached", self.base / "fresh"
        for root in twins:
            key = root / cache.DIR / cachefile.KEY_FILE
            for path in sorted(root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
                if path.is_dir() and not path.is_symlink():
                    if path != key.parent:
                        path.rmdir()
                elif path != key:
                    path.unlink()
            shutil.copytree(root.with_name(f"{root.name}.pristine"), root, dirs_exist_ok=True)
        return twins


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    return Pristine(tmp_path_factory.mktemp("twins"))


@pytest.fixture
def twins(pristine: Pristine) -> tuple[Path, Path]:
    return pristine.restore()


@pytest.mark.slow
def test_a_data_type_change_rewrites_exactly_that_nodes_skill(
        twins: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    cached, fresh = twins
    for root in twins:
        edit(root, ONE_FIELD)
    changed = gen_both(cached, fresh, monkeypatch)
    assert changed == {"skills/nodes/middle.md", "skills/schemas/nodes.schema.json",
                       "skills/schemas/nodes.index.json"}


def test_a_neighbours_data_change_is_not_served_stale(
        twins: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The sink's default data shows in the middle node's worked example."""
    cached, fresh = twins
    for root in twins:
        edit(root, NEIGHBOUR_DATA)
    changed = gen_both(cached, fresh, monkeypatch)
    assert {"skills/nodes/middle.md", "skills/nodes/sink.md"} <= changed
    assert "elsewhere" in (cached / "skills" / "nodes" / "middle.md").read_text()


def test_a_new_handle_that_changes_a_neighbour_is_not_served_stale(
        twins: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    cached, fresh = twins
    for root in twins:
        edit(root, NEW_HANDLE)
    changed = gen_both(cached, fresh, monkeypatch)
    assert "skills/nodes/middle.md" in changed
    assert '"type": "lens"' in (cached / "skills" / "nodes" / "middle.md").read_text()


def test_the_check_after_an_edit_finds_the_drift_the_memo_run_would(
        twins: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    cached, fresh = twins
    for root in twins:
        edit(root, NEIGHBOUR_DATA)
    memo_run = run(cached, "check", monkeypatch=monkeypatch)
    fresh_run = run(fresh, "check", "--no-cache", monkeypatch=monkeypatch)
    assert memo_run.exit_code == fresh_run.exit_code == 1
    assert memo_run.output == fresh_run.output and "middle.md" in memo_run.output


def test_a_node_whose_inputs_did_not_change_is_not_rendered_again(
        twins: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    cached, _ = twins
    edit(cached, ONE_FIELD)
    rendered: list[str] = []
    real = render.node_blocks

    def counting(node: object, *args: object, **kwargs: object) -> dict[str, str]:
        rendered.append(node.key)  # type: ignore[attr-defined]
        return real(node, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(render, "node_blocks", counting)
    assert run(cached, "check", "-q", monkeypatch=monkeypatch).exit_code == 1
    # The middle node, and its neighbours whose worked examples show it; not the note.
    assert "middle" in rendered and "note" not in rendered


@pytest.mark.slow
def test_a_damaged_memo_is_ignored(twins: tuple[Path, Path],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    cached, fresh = twins
    for name in (render_memo.FILE, "examples.json"):
        (cached / ".pygen-cache" / name).write_text('{"format": 1, "payload": {"key": [')
    for root in twins:
        edit(root, ONE_FIELD)
    gen_both(cached, fresh, monkeypatch)
    assert run(cached, "check", "-q", monkeypatch=monkeypatch).exit_code == 0


@pytest.mark.slow
@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.sampled_from(range(len(EDITS))), min_size=1, max_size=3, unique=True))
def test_any_sequence_of_edits_gives_the_bytes_of_a_run_without_cache(
        pristine: Pristine, monkeypatch: pytest.MonkeyPatch, steps: list[int]) -> None:
    cached, fresh = pristine.restore()
    for step in steps:
        for twin in (cached, fresh):
            edit(twin, EDITS[step])
        gen_both(cached, fresh, monkeypatch)
