"""The rename phase's journal: a run killed at any step is finished or undone by the next.

A kill is simulated by copying the whole tree at each step of `files.write_all` (the product's
`files._at` hook marks the steps): every copy is what a `kill -9` at that moment leaves. The
recovery then runs on each copy, as the next writing run does before anything else.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pygen import files, journal
from pygen.errors import PygenError

OLD = {"skills/a.md": "old a\n", "skills/nodes/b.md": "old b\n", "skills/c.md": "old c\n",
       "pkg/x.md": "old x\n"}
NEW = {"skills/a.md": "new a\n", "skills/nodes/b.md": "new b\n", "skills/d.md": "new d\n",
       "pkg/x.md": "new x\n", "pkg/refs/y.md": "new y\n"}


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _old_tree(root: Path) -> None:
    for name, text in OLD.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _expected(old: bool) -> dict[str, str]:
    return dict(OLD) if old else {**OLD, **NEW}


def _recover(root: Path) -> str | None:
    said = journal.recover(root / "skills", lambda path: path.is_relative_to(root))
    for folder in ("skills", "pkg"):
        for temp in files.stale_temps(root / folder):
            temp.unlink()
    return said


def _write(root: Path) -> None:
    files.write_all([(root / name, text) for name, text in NEW.items()], root / "skills",
                    root / "skills" / files.JOURNAL)


def test_a_kill_at_every_step_of_the_rename_phase_is_finished_or_undone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "p"
    _old_tree(root)
    snapshots: list[tuple[str, Path]] = []

    def crash_here(step: str) -> None:
        copy = tmp_path / f"kill{len(snapshots)}"
        shutil.copytree(root, copy, symlinks=True)
        snapshots.append((step, copy))

    monkeypatch.setattr(files, "_at", crash_here)
    _write(root)
    steps = [step for step, _ in snapshots]
    assert steps == ["staged"] * 5 + ["journal"] + ["renamed"] * 5 + ["discarded"] * 3 \
        + ["done"]
    assert _tree(root) == _expected(old=False)
    for step, copy in snapshots:
        in_flight = _tree(copy)
        left = [n for n in in_flight if n.endswith((files.TEMP_SUFFIX, files.JOURNAL))]
        assert bool(left) == (step != "done"), step
        said = _recover(copy)
        # Before the journal is on disk nothing was replaced: the old set stays.
        assert _tree(copy) == _expected(old=step == "staged"), step
        assert (said is None) == (step in ("staged", "done")), step
        assert _recover(copy) is None  # nothing is left for a second run


def test_a_damaged_staged_file_rolls_the_set_back(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "p"
    _old_tree(root)
    kills: list[Path] = []

    def crash_after_two_renames(step: str) -> None:
        if step == "renamed" and not kills:
            kills.append(tmp_path / "k")
        elif step == "renamed" and len(kills) == 1:
            shutil.copytree(root, kills[0], symlinks=True)
            kills.append(kills[0])

    monkeypatch.setattr(files, "_at", crash_after_two_renames)
    _write(root)
    copy = kills[0]
    pending = [p for p in (copy / "pkg").rglob(f"*{files.TEMP_SUFFIX}")
               if p.read_text() == NEW["pkg/x.md"]]
    pending[0].write_text("torn\n")
    said = _recover(copy)
    assert said is not None and "put back" in said
    assert _tree(copy) == _expected(old=True)


@pytest.mark.parametrize("entry", [
    {"path": "../../outside.md", "temp": "../../.outside.md.0badf00d.pygen-tmp"},
    {"path": "a.md", "temp": "../elsewhere.md"},
    {"path": "a.md", "temp": ".b.md.0badf00d.pygen-tmp"},
])
def test_a_journal_naming_foreign_paths_is_refused_and_nothing_moves(
        tmp_path: Path, entry: dict[str, str]) -> None:
    root = tmp_path / "p"
    _old_tree(root)
    (tmp_path / "outside.md").write_text("victim\n")
    (root / "skills" / files.JOURNAL).write_text(json.dumps(
        {"format": 1, "files": [{**entry, "digest": "0" * 64, "old": None}]}))
    before = _tree(tmp_path)
    with pytest.raises(journal.JournalError, match="pygen acts on no file it names"):
        journal.recover(root / "skills", lambda path: path.is_relative_to(root / "skills"))
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format": 2, "files": []}',
                                  '{"format": 1, "files": [7]}'])
def test_a_malformed_journal_is_one_line_naming_it(tmp_path: Path, text: str) -> None:
    (tmp_path / files.JOURNAL).write_text(text)
    with pytest.raises(PygenError) as raised:
        journal.recover(tmp_path, lambda path: True)
    assert str(raised.value).startswith(str(tmp_path / files.JOURNAL))
    assert "\n" not in str(raised.value)


def test_a_journal_that_is_a_fifo_does_not_block(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / files.JOURNAL)
    with pytest.raises(journal.JournalError, match="named pipe"):
        journal.recover(tmp_path, lambda path: True)
    assert journal.pending(tmp_path) == tmp_path / files.JOURNAL


def test_a_failed_rename_leaves_no_journal(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "p"
    _old_tree(root)
    calls: list[str] = []

    def rename(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        shutil.move(src, dst)

    monkeypatch.setattr(files, "_rename", rename)
    with pytest.raises(PygenError, match="cannot replace"):
        _write(root)
    assert _tree(root) == _expected(old=True)
    assert journal.pending(root / "skills") is None


def test_serve_warns_of_an_unfinished_set(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from pygen.commands.serve import announce
    from pygen.server.store import load_store

    skills = tmp_path / "skills"
    shutil.copytree(Path(__file__).resolve().parents[1] / "skills", skills)
    (skills / files.JOURNAL).write_text('{"format": 1, "files": []}\n')
    announce(load_store(skills))
    assert "left a set of files half replaced; run `pygen gen`" in capsys.readouterr().err
