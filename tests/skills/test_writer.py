from __future__ import annotations

from pathlib import Path

import pytest

from pygen import files
from pygen.errors import PygenError


def test_read_keeps_crlf_and_says_none_for_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"x\r\ny\r\n")
    assert files.read_text(tmp_path / "a.md") == "x\r\ny\r\n"
    assert files.read_text(tmp_path / "missing.md") is None


def test_a_file_that_is_not_utf8_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"ok\nok\n\xff bad\n")
    with pytest.raises(PygenError) as info:
        files.read_text(tmp_path / "a.md")
    assert str(info.value) == (f"{tmp_path / 'a.md'}:3: not UTF-8 text (byte 0xff); "
                               "save the file as UTF-8")


def test_a_failure_while_staging_changes_no_file(tmp_path: Path) -> None:
    first = tmp_path / "first.md"
    first.write_text("old\n")
    (tmp_path / "blocked").write_text("a file where a folder is needed\n")
    with pytest.raises(PygenError) as info:
        files.write_all([(first, "new\n"), (tmp_path / "blocked" / "second.md", "x\n")])
    assert str(info.value).endswith("no file was changed")
    assert first.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked", "first.md"]


def test_writes_every_file_and_keeps_the_mode(tmp_path: Path) -> None:
    script = tmp_path / "run.md"
    script.write_text("old\n")
    script.chmod(0o600)
    files.write_all([(script, "new\n"), (tmp_path / "sub" / "b.md", "b\n")])
    assert script.read_text() == "new\n" and (script.stat().st_mode & 0o777) == 0o600
    assert (tmp_path / "sub" / "b.md").read_text() == "b\n"
