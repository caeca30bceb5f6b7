"""The text reader and atomic writer: BOMs, links, temp files, failed writes."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from pygen import files
from pygen.errors import PygenError


def test_a_bom_is_stripped_on_read_and_restored_on_write(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"\xef\xbb\xbf---\nname: a\n---\n")
    assert files.read_text(path) == "---\nname: a\n---\n"
    files.write_all([(path, "---\nname: b\n---\n")])
    assert path.read_bytes() == b"\xef\xbb\xbf---\nname: b\n---\n"
    files.write_all([(tmp_path / "new.md", "x\n")])
    assert (tmp_path / "new.md").read_bytes() == b"x\n"


def test_a_linked_file_is_refused_for_reading_and_writing(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("TOKEN=1\n")
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "list.md").symlink_to(secret)
    for action in (lambda: files.read_text(skills / "nodes" / "list.md", skills),
                   lambda: files.write_all([(skills / "nodes" / "list.md", "x")], skills)):
        with pytest.raises(files.LinkError, match=r"nodes/list.md: is a symbolic link"):
            action()
    assert secret.read_text() == "TOKEN=1\n"
    assert (skills / "nodes" / "list.md").is_symlink()


def test_a_linked_folder_below_skills_dir_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    skills = tmp_path / "skills"
    skills.mkdir()
    (skills / "nodes").symlink_to(outside)
    with pytest.raises(files.LinkError, match=r"skills/nodes: is a symbolic link"):
        files.write_all([(skills / "nodes" / "a.md", "x")], skills)
    assert list(outside.iterdir()) == []


def test_temp_files_have_one_pattern_and_stale_ones_are_found(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    stale = tmp_path / "sub" / ".a.md.1234abcd.pygen-tmp"
    stale.write_text("half")
    (tmp_path / "keep.tmp").write_text("not ours")
    assert files.stale_temps(tmp_path) == [stale]


def test_a_failed_write_removes_its_temp_file_and_names_file_and_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.md"
    target.write_text("old\n")
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, fd: int) -> None:
            self.handle = real_fdopen(fd, "wb")

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *args: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fdopen", lambda fd, mode: FullDisk(fd))
    with pytest.raises(PygenError) as info:
        files.write_all([(target, "new\n")])
    assert str(info.value) == (f"{target}: cannot write (No space left on device); "
                               "no file was changed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md"]
    assert target.read_text() == "old\n"
