"""The cache file format: what is not a regular file is ignored (one warning) and rebuilt,
an entry not signed by this checkout's key is never trusted, and a run that saw an input
change stores nothing."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pygen.extract import cachefile


@pytest.fixture(autouse=True)
def fresh_run() -> Iterator[None]:
    cachefile.begin_run()
    cachefile._said.clear()
    yield
    cachefile.begin_run()


def test_an_entry_reads_back_under_its_key(tmp_path: Path) -> None:
    path = tmp_path / ".pygen-cache" / "m.json"
    cachefile.write_entry(path, {"key": "k", "value": 1})
    assert cachefile.read_entry(path, "k") == {"key": "k", "value": 1}
    assert cachefile.read_entry(path, "other") is None


@pytest.mark.parametrize("kind", ["fifo", "zero", "folder"])
def test_what_is_not_a_file_is_ignored_with_one_warning_and_rebuilt(
        tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / ".pygen-cache" / "m.json"
    cachefile.write_entry(path, {"key": "k"})
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)  # a blocking open would hang here
    elif kind == "zero":
        path.symlink_to("/dev/zero")  # a read to the end would never end
    else:
        path.mkdir()
    assert cachefile.read_entry(path, "k") is None
    assert cachefile.read_entry(path, "k") is None
    assert capsys.readouterr().err.count("warning:") == 1
    cachefile.write_entry(path, {"key": "k"})
    assert path.is_file() and not path.is_symlink()
    assert cachefile.read_entry(path, "k") == {"key": "k"}


def test_a_copied_cache_is_not_trusted(tmp_path: Path) -> None:
    """The key is bound to its file's inode and change time: a copy (committed, restored,
    another checkout's) signs nothing."""
    folder = tmp_path / "a" / ".pygen-cache"
    cachefile.write_entry(folder / "m.json", {"key": "k"})
    copy = tmp_path / "b" / ".pygen-cache"
    shutil.copytree(folder, copy)
    assert cachefile.read_entry(copy / "m.json", "k") is None
    cachefile.write_entry(copy / "m.json", {"key": "k"})  # rebuilt there, under its key
    assert cachefile.read_entry(copy / "m.json", "k") == {"key": "k"}


def test_an_entry_edited_by_hand_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / ".pygen-cache" / "m.json"
    cachefile.write_entry(path, {"key": "k", "ok": False})
    path.write_text(path.read_text().replace('"ok":false', '"ok":true'))
    assert cachefile.read_entry(path, "k") is None


def test_a_run_that_saw_a_change_stores_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "a.ts"
    source.write_text("one")
    recorded = [[str(source), cachefile.sha256_of(source)]]
    source.write_text("two")
    cachefile.input_changed(cachefile.changed_since(recorded, [str(tmp_path / "b.ts")]))
    assert cachefile.run_unsettled()
    assert "changed while pygen read it" in capsys.readouterr().err
    cachefile.write_entry(tmp_path / ".pygen-cache" / "m.json", {"key": "k"})
    assert not (tmp_path / ".pygen-cache" / "m.json").exists()


def test_a_missing_path_that_appears_is_a_change(tmp_path: Path) -> None:
    (tmp_path / "types.ts").write_text("")
    assert cachefile.changed_since([], [str(tmp_path / "types.ts")]) == [
        str(tmp_path / "types.ts")]
