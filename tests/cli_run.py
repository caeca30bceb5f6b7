"""The real CLI run in a test's project folder, and a hand-written fixture project copied,
generated and checked as a user's would be."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ts"


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def fixture_case(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of fixture `name` (without its expected outputs) after `gen` and `check`, both
    exit 0: what pygen generates passes its own check on an untouched project."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root, ignore=shutil.ignore_patterns("expected.*"))
    for args in (["gen", "-q"], ["check", "-q"]):
        done = run(root, *args, monkeypatch=monkeypatch)
        assert done.exit_code == 0, done.output
    return root
