"""The pygen.toml of a copy of the embedded example app, shared by the tests that build one."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def make_studio(root: Path) -> Path:
    """At `root`: a copy of the embedded example and its hand-written editor skill, with a
    pygen.toml."""
    shutil.copytree(REPO / "examples" / "studio", root / "examples" / "studio",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "skills").mkdir()
    shutil.copyfile(REPO / "skills" / "workflow-editor.md", root / "skills" / "workflow-editor.md")
    (root / "pygen.toml").write_text(studio_config(), encoding="utf-8")
    return root


def studio_config(skills_dir: str = "skills") -> str:
    """Config for a project holding a copy of examples/studio under its root."""
    return ('nodes_file = "examples/studio/src/types/nodes.ts"\n'
            'tsconfig = "examples/studio/tsconfig.json"\n'
            f'skills_dir = "{skills_dir}"\n'
            # The editor skill names the app's tools (its tools block lists them).
            'tools = ["python:examples.studio.tools.studio_tools:build_server"]\n'
            # What the app declares beyond its types (as the repo's own pyproject.toml does).
            f"conventions = {STUDIO_CONVENTIONS}\n")


STUDIO_CONVENTIONS = ('{ mapping_field = "fieldMappings", mapping_required = true, '
                      'label_key = "data.label", editor_fills_defaults = true }')
