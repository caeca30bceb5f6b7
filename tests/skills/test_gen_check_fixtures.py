"""On the projects shaped like editors in the wild, `pygen gen` then `pygen check` exit 0 with no
hand edits: what gen writes (worked examples included) passes gen's own check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
WILD = ["casts", "colliding-union", "index-signature-omit", "monorepo-built", "monorepo-unbuilt",
        "partial-defaults", "structural-decoy", "tsconfig-missing-extends", "untyped-nodes"]


@pytest.mark.parametrize("name", WILD)
def test_gen_then_check_passes_untouched(name: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / name
    shutil.copytree(CORPUS / name, project)
    # Cases without a tsconfig of their own use the corpus-wide one, one folder up.
    shutil.copy(CORPUS / "tsconfig.json", tmp_path / "tsconfig.json")
    monkeypatch.chdir(project)
    runner = CliRunner()
    config = ["--config", str(project / "pygen.toml"), "--no-cache"]
    gen = runner.invoke(main, ["gen", "-q", *config], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    check = runner.invoke(main, ["check", *config], catch_exceptions=False)
    assert check.exit_code == 0, check.output
    assert (project / "skills" / "nodes").is_dir()
