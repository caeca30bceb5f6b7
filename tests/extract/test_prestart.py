"""The extractor started early (before the config is read) serves the run, through real Node;
one started for another folder is discarded, and help never starts one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.config import load_config
from pygen.extract import noderuntime, prestart
from pygen.extract.runner import extract

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "casts"
    shutil.copytree(CORPUS / "casts", root)
    shutil.copy(CORPUS / "tsconfig.json", tmp_path / "tsconfig.json")
    monkeypatch.chdir(root)
    return root


def test_the_early_process_serves_the_run(project: Path) -> None:
    config = load_config(project / "pygen.toml")
    expected = extract(config)
    prestart.start()
    started = prestart._started
    assert started is not None
    assert extract(config) == expected
    assert prestart._started is None and started[1].returncode == 0


def test_an_early_process_for_another_folder_is_discarded(project: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(project / "pygen.toml")
    monkeypatch.chdir(project.parent)
    prestart.start()
    started = prestart._started
    assert started is not None
    assert prestart.take(noderuntime.extractor(), config.root) is None
    assert started[1].returncode is not None  # killed and reaped, not left running


def test_help_and_other_commands_start_nothing(project: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(prestart, "start", lambda: calls.append("start"))
    assert CliRunner().invoke(main, ["extract", "--help"]).exit_code == 0
    assert CliRunner().invoke(main, ["schema", "--help"]).exit_code == 0
    assert calls == []
    result = CliRunner().invoke(main, ["extract"], catch_exceptions=False)
    assert result.exit_code == 0 and calls == ["start"]
