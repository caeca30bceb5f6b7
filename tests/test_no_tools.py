"""`check --no-tools` / `run_tools = false`: no tool source is imported or started; the tool
schemas recorded in the schema document stand in, and `doctor` says which way a run went."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_hostile_corpus import Case, _snapshot, assert_refused, generated, run_pygen

__all__ = ["generated"]
TOOLS = "examples/studio/tools/studio_tools.py"


@pytest.fixture
def project(generated: Path, tmp_path: Path) -> Path:
    """The generated studio, its tool module leaving a mark beside the project when run."""
    root = tmp_path / "studio"
    shutil.copytree(generated, root, symlinks=True)
    with (root / TOOLS).open("a") as module:
        module.write('\n(__import__("pathlib").Path(__file__).parents[4] / "ran").touch()\n')
    return root


@pytest.mark.slow
def test_check_without_tools_runs_no_project_code(project: Path) -> None:
    before = _snapshot(project)
    done = run_pygen(project, ["check", "--no-tools"])
    assert done.returncode == 0, done.stderr
    assert not (project.parent / "ran").exists()
    done = run_pygen(project, ["doctor", "--no-tools"])
    assert b"recorded in the schema document (--no-tools); no project code run" in done.stdout
    assert not (project.parent / "ran").exists()
    assert _snapshot(project) == before
    done = run_pygen(project, ["doctor"])
    assert b"read by running project code: python:examples.studio" in done.stdout
    assert (project.parent / "ran").exists()


def test_the_config_key_does_the_same(project: Path) -> None:
    with (project / "pygen.toml").open("a") as config:
        config.write("run_tools = false\n")
    done = run_pygen(project, ["check", "--no-cache"])
    assert done.returncode == 0, done.stderr
    assert not (project.parent / "ran").exists()


def test_without_a_record_it_says_how_to_make_one(project: Path) -> None:
    doc = project / "skills" / "schemas" / "nodes.schema.json"
    data = json.loads(doc.read_text())
    del data["x-tool-schemas"]
    doc.write_text(json.dumps(data))
    line = assert_refused(project, Case(["check", "--no-tools"], "nodes.schema.json: no tool "
                                        "schemas recorded"))
    assert "run `pygen gen`" in line
    assert not (project.parent / "ran").exists()
