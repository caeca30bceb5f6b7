"""Where things live in a skills folder, and which files in it are for people, not agents."""

from __future__ import annotations

from pathlib import Path

NODES_DIR = "nodes"
# The generated index of the node files: a file for people, never served to agents.
NODES_INDEX = Path(NODES_DIR) / "_README.md"


def for_people(path: Path, skills_dir: Path) -> bool:
    """Files and folders whose name starts with `_` are for people: never served to agents,
    never linted as skills, never orphans. Hidden ones (`.`) are nobody's skills either."""
    try:
        parts = path.relative_to(skills_dir).parts
    except ValueError:
        parts = (path.name,)
    return any(part.startswith(("_", ".")) for part in parts)
