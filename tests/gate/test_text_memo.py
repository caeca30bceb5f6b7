"""The gate's per-text memo: a skill file's blocks and prose names are read once per text,
and a check through it says exactly what a check without it says."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import TWO_NODES_TS, generated, run

from pygen.config import load_config
from pygen.gate import text_memo

FOREIGN = "\n<!-- AUTO-GEN:START other-tool -->\nkept\n<!-- AUTO-GEN:END other-tool -->\n"
PROSE = "\nSet `strength` to 5 for a bold result.\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    generated(tmp_path, monkeypatch)
    note = tmp_path / "skills" / "nodes" / "note.md"
    note.write_text(note.read_text() + FOREIGN)
    middle = tmp_path / "skills" / "nodes" / "middle.md"
    middle.write_text(middle.read_text() + PROSE)
    assert run(tmp_path, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    return tmp_path


@pytest.mark.slow
def test_a_check_through_the_memo_says_what_a_check_without_it_says(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = project / "src" / "nodes.ts"
    nodes.write_text(TWO_NODES_TS.replace("strength", "power"))
    memo_run = run(project, "check", monkeypatch=monkeypatch)
    fresh = run(project, "check", "--no-cache", monkeypatch=monkeypatch)
    assert memo_run.exit_code == fresh.exit_code == 1
    assert memo_run.output == fresh.output
    assert "other-tool" in memo_run.output  # the foreign block, from the memo
    assert "stale name '`strength`'" in memo_run.output  # the prose, from the memo


def test_unchanged_texts_are_not_parsed_again(project: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real_blocks, real_names = text_memo.read_blocks, text_memo.read_names

    def blocks(text: str, path: str) -> text_memo.Blocks:
        read.append(Path(path).name)
        return real_blocks(text, path)

    def names(text: str, path: str) -> text_memo.Names:
        read.append(Path(path).name)
        return real_names(text, path)

    monkeypatch.setattr(text_memo, "read_blocks", blocks)
    monkeypatch.setattr(text_memo, "read_names", names)
    note = project / "skills" / "nodes" / "note.md"
    note.write_text(note.read_text().replace("other-tool", "third-tool"))
    result = run(project, "check", monkeypatch=monkeypatch)
    assert set(read) == {"note.md"}  # the one changed text, read for both
    assert "third-tool" in result.output and "other-tool" not in result.output


def test_a_damaged_memo_is_read_again_from_the_texts(project: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(project / "pygen.toml")
    stored = project / ".pygen-cache" / text_memo.FILE
    assert stored.is_file()
    memo = text_memo.load(config)
    note = (project / "skills" / "nodes" / "note.md").read_text()
    assert memo.blocks(note, "note.md") == text_memo.read_blocks(note, "note.md")
    assert ("other-tool", False) in (memo.blocks(note, "note.md") or ())
    middle = (project / "skills" / "nodes" / "middle.md").read_text()
    assert (memo.names(middle, "middle.md") == text_memo.read_names(middle, "middle.md"))
    stored.write_text(stored.read_text().replace('"other-tool"', '"forged"'))
    assert text_memo.load(config).texts.read == {}  # its checksum no longer matches
    nodes = project / "src" / "nodes.ts"
    nodes.write_text(TWO_NODES_TS.replace("3 }", "4 }"))
    assert "other-tool" in run(project, "check", monkeypatch=monkeypatch).output
