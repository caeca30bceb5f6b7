"""The skills-dir layout: the one place that knows where each kind of skill file lives, and
which files in it are for people rather than agents."""

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


# The generated index of the node files: a file for people, never served to agents.
NODES_INDEX = f"{NODES_DIR}/_README.md"


def nodes_index(skills_dir: Path) -> Path:
    return skills_dir / NODES_INDEX


def for_people(path: Path, skills_dir: Path) -> bool:
    """Files and folders whose name starts with `_` are for people: never served to agents,
    never linted as skills, never orphans. Hidden ones (`.`) are nobody's skills either."""
    try:
        parts = path.relative_to(skills_dir).parts
    except ValueError:
        parts = (path.name,)
    return any(part.startswith(("_", ".")) for part in parts)
