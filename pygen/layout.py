"""The skills-dir layout: the one place that knows where each kind of skill file lives."""

from __future__ import annotations

from pathlib import Path

NODES_DIR = "nodes"
WORKFLOW_EDITOR = "workflow-editor.md"
ORCHESTRATOR_FILE = "SKILL.md"
SCHEMA_FILE = "schemas/nodes.schema.json"
PROTOCOL_DIR = "protocol"
PROTOCOL_REGISTRY = f"{PROTOCOL_DIR}/registry.toml"
PROTOCOL_DOC = f"{PROTOCOL_DIR}/skill-call.md"


def nodes_dir(skills_dir: Path) -> Path:
    return skills_dir / NODES_DIR


def node_file(skills_dir: Path, node_type: str) -> Path:
    return skills_dir / NODES_DIR / f"{node_type}.md"


def is_node_file(skills_dir: Path, path: Path) -> bool:
    return path.parent == skills_dir / NODES_DIR and path.suffix == ".md"


def workflow_editor(skills_dir: Path) -> Path:
    return skills_dir / WORKFLOW_EDITOR


def schema_file(skills_dir: Path) -> Path:
    return skills_dir / SCHEMA_FILE


def protocol_registry(skills_dir: Path) -> Path:
    return skills_dir / PROTOCOL_REGISTRY


def protocol_doc(skills_dir: Path) -> Path:
    return skills_dir / PROTOCOL_DOC
