"""A crash's report: what a bug report needs, in a file under the temp folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from pygen import __version__, crash


def test_the_report_holds_the_version_the_command_and_the_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    try:
        raise KeyError("lost")
    except KeyError as exc:
        path = crash.write_report(exc, ["gen", "--strict"])
    assert path is not None and Path(path).parent == tmp_path
    text = Path(path).read_text(encoding="utf-8")
    assert f"- pygen {__version__}, Python " in text
    assert "- command: `pygen gen --strict`" in text
    assert "KeyError: 'lost'" in text and text.count("```") == 2


def test_no_writable_temp_folder_is_no_report(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    assert crash.write_report(RuntimeError("x"), []) is None
