"""Runs the Agent Skills package's script as an agent would: a file beside its schema."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pygen.skills.agent_skills_script import SCRIPT


@pytest.fixture
def package_script(tmp_path: Path) -> Callable[[dict[str, Any], Any], list[str]]:
    """Writes the script and a schema document, then returns its lines for one workflow."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "references").mkdir()
    script = tmp_path / "scripts" / "validate_workflow.py"
    script.write_text(SCRIPT, encoding="utf-8")

    def run(doc: dict[str, Any], workflow: Any) -> list[str]:
        (tmp_path / "references" / "nodes.schema.json").write_text(json.dumps(doc), "utf-8")
        (tmp_path / "w.json").write_text(json.dumps(workflow), encoding="utf-8")
        done = subprocess.run([sys.executable, "-I", str(script), str(tmp_path / "w.json")],
                              capture_output=True, text=True, check=False)
        return done.stdout.splitlines()

    return run
