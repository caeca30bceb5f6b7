"""The real-code benchmark's runner (bench/corpus.py): its manifest, its table, its updates,
and one run through the real CLI on a small checkout written here by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import corpus, corpus_init
from bench.corpus import Entry, ManifestError, Result, parse_manifest

COMMIT = "0123456789abcdef0123456789abcdef01234567"
OTHER = "fedcba9876543210fedcba9876543210fedcba98"

ENTRY = f"""
[[repo]]
repo = "acme/flowpad"
commit = "{COMMIT}"
shape = "literal array"
config = {{ nodes_file = "web/nodes.ts", definitions = "NODE_CATALOG" }}
true_nodes = 2
expected = {{ nodes = 2, gen = 0, check = 0 }}
notes = "hand-made"
"""

SECOND = f"""
[[repo]]
repo = "acme/other"
commit = "{OTHER}"
shape = "classes"
config = {{ nodes_file = "a.ts" }}
true_nodes = 5
expected = {{ nodes = 0, gen = 0, check = 1 }}
"""


def test_manifest_entries_are_read_in_order() -> None:
    entries = parse_manifest(ENTRY + SECOND)
    assert [e.repo for e in entries] == ["acme/flowpad", "acme/other"]
    first = entries[0]
    assert first.config == {"nodes_file": "web/nodes.ts", "definitions": "NODE_CATALOG"}
    assert first.expected == {"nodes": 2, "gen": 0, "check": 0}
    assert first.folder == "acme+flowpad"
    assert entries[1].notes == ""
    assert first.matches("flowpad") and first.matches("acme/flowpad")
    assert not first.matches("other")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace(COMMIT, "abc123"), "is not 40 hex digits"),
    (lambda t: t.replace("true_nodes = 2\n", ""), "missing key 'true_nodes'"),
    (lambda t: t.replace("notes =", "note ="), "unknown key 'note'"),
    (lambda t: t.replace('"acme/flowpad"', '"flowpad"'), "is not owner/name"),
    (lambda t: t.replace("gen = 0, check = 0 }", "gen = 0 }", 1), "expected must be"),
    (lambda t: t.replace('nodes_file = "web/nodes.ts", ', ""), "at least nodes_file"),
    (lambda t: t + t, "listed twice"),
    (lambda t: t + "[[repo]\n", "corpus.toml"),
])
def test_a_bad_entry_is_one_error_naming_it(edit: object, message: str) -> None:
    assert callable(edit)
    with pytest.raises(ManifestError, match=message) as caught:
        parse_manifest(edit(ENTRY))
    assert "\n" not in str(caught.value)


def test_the_repository_manifest_parses() -> None:
    entries = parse_manifest(corpus.MANIFEST.read_text(encoding="utf-8"))
    assert len(entries) >= 6
    # A repository whose catalog is not in its code counts 0 and says so in its shape.
    assert all(e.true_nodes > 0 or e.shape.startswith("no catalog in code") for e in entries)


def test_config_is_written_as_toml_pygen_reads(tmp_path: Path) -> None:
    from pygen.config import load_config
    config = {"nodes_file": "a.ts", "definitions": ["A", "b.ts:B"],
              "entry_fields": {"type": "name", "inputs": False}, "extract_timeout": 60}
    path = tmp_path / "pygen.toml"
    path.write_text(corpus.config_text(config))
    loaded = load_config(path)
    assert loaded.definitions == ("A", "b.ts:B")
    assert loaded.settings.entry_fields.type == "name"
    assert loaded.settings.extract_timeout == 60


def _entry(**changes: object) -> Entry:
    return parse_manifest(ENTRY)[0] if not changes else Entry(**{
        **parse_manifest(ENTRY)[0].__dict__, **changes})


def test_table_shows_counts_shares_and_what_drifted() -> None:
    ok = Result(_entry(), nodes=2, typed=1, warnings=3, gen=0, check=0, seconds=1.25,
                peak_kb=204800)
    drifted = Result(_entry(repo="acme/second"), nodes=1, typed=0, gen=0, check=1,
                     errors=["check exit 1: drift"])
    skipped = Result(_entry(repo="acme/third"), skipped="no checkout at /x")
    text = corpus.table([ok, drifted, skipped])
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["repo", "shape", "nodes/true"]
    assert lines[1].split() == ["acme/flowpad", "literal", "array", "2/2", "50%", "3", "0",
                                "0", "1.2", "200"]
    assert "1/2" in lines[2] and "0%" in lines[2]
    assert "acme/third: skipped: no checkout at /x" in lines
    assert "acme/second: check exit 1: drift" in lines
    assert any(line.startswith("acme/second: expected") for line in lines)
    assert not ok.drifted() and drifted.drifted() and not skipped.drifted()


def test_update_rewrites_only_the_measured_entries() -> None:
    text = ENTRY + SECOND
    measured = Result(_entry(), nodes=None, gen=2, check=2)
    updated = corpus.update_text(text, [measured, Result(parse_manifest(text)[1],
                                                         skipped="no checkout")])
    entries = parse_manifest(updated)
    assert entries[0].expected == {"nodes": -1, "gen": 2, "check": 2}
    assert entries[1].expected == {"nodes": 0, "gen": 0, "check": 1}
    # A failed extraction recorded as -1 is what the next failing run gives: no drift.
    assert not Result(entries[0], nodes=None, gen=2, check=2).drifted()
    assert updated.replace("nodes = -1, gen = 2, check = 2", "nodes = 2, gen = 0, check = 0"
                           ) == text


def _fake_checkout(root: Path, commit: str) -> Path:
    """A two-node editor in the shape of a small React Flow app."""
    checkout = root / "acme+flowpad"
    (checkout / "web").mkdir(parents=True)
    (checkout / "tsconfig.json").write_text(json.dumps(
        {"compilerOptions": {"strict": True}, "include": ["web"]}))
    (checkout / "web" / "nodes.ts").write_text(
        "export interface ShoutData {\n  /** Words to repeat. */\n  words: string;\n}\n"
        "export const NODE_CATALOG = [\n"
        "  { type: 'shout', label: 'Shout', inputs: ['words'], outputs: ['loud'],\n"
        "    defaultData: { words: '' } as ShoutData },\n"
        "  { type: 'pause', label: 'Pause', inputs: ['go'], outputs: ['done'],\n"
        "    defaultData: { seconds: 1 } },\n"
        "];\n")
    (checkout / ".commit").write_text(commit + "\n")
    # The project's own config: the run must not write through to it.
    (checkout / "pygen.toml").write_text('nodes_file = "elsewhere.ts"\n')
    return checkout


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_runs_pygen_on_a_checkout_without_writing_into_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkouts = tmp_path / "checkouts"
    checkout = _fake_checkout(checkouts, COMMIT)
    before = _tree(checkout)
    manifest = tmp_path / "corpus.toml"
    manifest.write_text(ENTRY + SECOND)
    code = corpus.main(["--checkouts", str(checkouts), "--manifest", str(manifest)])
    out = capsys.readouterr().out
    assert code == 0, out
    row = next(line for line in out.splitlines() if line.startswith("acme/flowpad "))
    assert row.split()[3:8] == ["2/2", "50%", "1", "0", "0"]
    assert "acme/other: skipped: no checkout at" in out
    assert _tree(checkout) == before
    assert sorted(p.name for p in checkouts.iterdir()) == ["acme+flowpad"]


def test_a_checkout_at_another_commit_is_skipped_and_update_keeps_it(tmp_path: Path) -> None:
    checkouts = tmp_path / "checkouts"
    _fake_checkout(checkouts, OTHER)
    manifest = tmp_path / "corpus.toml"
    manifest.write_text(ENTRY)
    result = corpus.run_entry(parse_manifest(ENTRY)[0], checkouts)
    assert result.skipped is not None and OTHER in result.skipped
    assert corpus.main(["--checkouts", str(checkouts), "--manifest", str(manifest),
                        "--update"]) == 0
    assert manifest.read_text() == ENTRY


def test_without_checkouts_nothing_runs(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("PYGEN_CORPUS", raising=False)
    assert corpus.main([]) == 0
    assert "nothing to run" in capsys.readouterr().out


def test_an_unknown_only_name_is_an_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "corpus.toml"
    manifest.write_text(ENTRY)
    assert corpus.main(["--checkouts", str(tmp_path), "--manifest", str(manifest),
                        "--only", "nope"]) == 2
    assert "nope is not in" in capsys.readouterr().err


@pytest.mark.slow
def test_init_mode_runs_init_with_no_flags_and_records_what_it_chose(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkouts = tmp_path / "checkouts"
    checkout = _fake_checkout(checkouts, COMMIT)
    before = _tree(checkout)
    manifest = tmp_path / "corpus.toml"
    manifest.write_text(ENTRY + SECOND)
    args = ["--checkouts", str(checkouts), "--manifest", str(manifest), "--init"]
    assert corpus.main([*args, "--update"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("acme/flowpad "))
    # The project's own pygen.toml is left out of the copy: init writes a fresh one.
    assert row.split()[1:7] == ["2/2", "100%", "50%", "0", "0", "0"]
    assert "false catalogs (exit 0): 0" in out and "right (>= 90%" in out, out
    assert row.split()[-1] == "NODE_CATALOG"
    entries = parse_manifest(manifest.read_text())
    assert entries[0].init_expected == {"nodes": 2, "init": 0, "gen": 0, "check": 0,
                                        "source": "NODE_CATALOG"}
    assert entries[1].init_expected is None  # skipped: nothing recorded
    assert corpus.main(args) == 0  # the recorded result is what the next run gives
    assert _tree(checkout) == before


def _init_result(shape: str, true: int, nodes: int | None, codes: tuple[int, int, int],
                 typed: int = 0) -> corpus_init.InitResult:
    entry = Entry("a/b", COMMIT, shape, {}, true, {})
    return corpus_init.InitResult(entry, nodes=nodes, init=codes[0], gen=codes[1],
                                  check=codes[2], source="X" if codes[0] == 0 else "-",
                                  typed=typed)


def test_init_summary_counts_false_catalogs_right_and_typed_per_family() -> None:
    results = [
        _init_result("registry literal keyed by id", 10, 10, (0, 0, 0), typed=8),
        _init_result("X6 `Graph.registerNode` calls", 36, 1, (0, 0, 0)),  # false: 1 of 36
        _init_result("no catalog in code: served", 0, None, (1, -1, -1)),  # right: says none
        _init_result("component registry: nodeTypes", 7, None, (1, -1, -1)),
    ]
    lines = corpus_init.summary(results)
    assert lines[0] == "false catalogs (exit 0): 1"
    assert "2/4 (50%)" in lines[1] and lines[2].endswith("1/3")
    assert "  registration or builder calls: right 0/1, typed 0, false 1" in lines
    assert "  no catalog in code: right 1/1, typed 0, false 0" in lines
    assert corpus_init.family("classes: rete nodes") == "classes"
