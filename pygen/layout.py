"""The skills-dir layout: the one place that knows where each kind of skill file lives, and
which files in it are for people rather than agents."""

from __future__ import annotations

import hashlib
import operator
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from pygen.errors import PygenError

NODES_DIR = "nodes"
WORKFLOW_EDITOR = "workflow-editor.md"
ORCHESTRATOR_FILE = "SKILL.md"
SCHEMA_FILE = "schemas/nodes.schema.json"
# Where each entry sits in SCHEMA_FILE, so readers parse only what they use
# (pygen.schema.doc_index).
SCHEMA_INDEX = "schemas/nodes.index.json"
PROTOCOL_DIR = "protocol"
PROTOCOL_REGISTRY = f"{PROTOCOL_DIR}/registry.toml"
PROTOCOL_DOC = f"{PROTOCOL_DIR}/skill-call.md"


def nodes_dir(skills_dir: Path) -> Path:
    return skills_dir / NODES_DIR


def node_file(skills_dir: Path, node_type: str, stems: Mapping[str, str] | None = None) -> Path:
    """Where a node's skill lives; `stems` (file_stems of the catalog) tells apart the types
    whose slugs are one file."""
    stem = stems.get(node_type) if stems is not None else None
    return skills_dir / NODES_DIR / f"{stem or slug(node_type)}.md"


# A node type that is already a safe file stem is its own file name (1-64 characters).
SAFE_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_STEM = 64


def slug(node_type: str) -> str:
    """The file stem of a node type: the type itself when it is a safe name, else the type
    with each run of other characters (spaces, `/`, `:`) as `-` (`Limit Times` → `Limit-Times`).
    Only the file name changes: the type stays as written everywhere else. Empty when the
    type has no letter or digit."""
    if SAFE_STEM.fullmatch(node_type) and ".." not in node_type:
        return node_type
    stem = re.sub(r"\.{2,}", ".", _UNSAFE_RUN.sub("-", node_type)).strip("-._")
    if len(stem) > _MAX_STEM:
        # Long types keep a digest of the whole so two that share a prefix stay apart.
        digest = hashlib.sha256(node_type.encode()).hexdigest()[:8]
        stem = f"{stem[:_MAX_STEM - 9].rstrip('-._')}-{digest}"
    return stem


def file_stems(node_types: Iterable[str]) -> dict[str, str]:
    """Node type → the stem of its skill file, for a whole catalog. Types whose slugs are equal
    or differ only in case (`searchAPI`, `searchApi`: one file on macOS and Windows) are all
    real ids of the app, so each gets a file: the type that is its own slug, else the first
    in code-point order, keeps the slug; every other one adds a digest of its whole type."""
    groups: dict[str, list[str]] = {}
    for node_type in dict.fromkeys(node_types):
        groups.setdefault(slug(node_type).casefold(), []).append(node_type)
    stems: dict[str, str] = {}
    for members in groups.values():
        members.sort(key=lambda t: (slug(t) != t, t))
        stems[members[0]] = slug(members[0])
        for node_type in members[1:]:
            stems[node_type] = kept_apart(node_type)
    return stems


def kept_apart(node_type: str) -> str:
    """The stem of a type whose slug another type's file holds: the slug and a digest."""
    digest = hashlib.sha256(node_type.encode()).hexdigest()[:8]
    return f"{slug(node_type)[:_MAX_STEM - 9].rstrip('-._')}-{digest}"


def slugs(node_types: Iterable[str]) -> dict[str, str]:
    """File stem → node type, for every type; two types with one stem (or a type with none)
    are an error naming both, since one file cannot hold two skills."""
    out: dict[str, str] = {}
    for node_type in node_types:
        stem = slug(node_type)
        if not stem:
            raise PygenError(f"node type '{node_type}' has no letter or digit to name its skill "
                             "file; give it one")
        if stem in out and out[stem] != node_type:
            raise PygenError(f"node types '{out[stem]}' and '{node_type}' would share the skill "
                             f"file {NODES_DIR}/{stem}.md; rename one of them")
        out[stem] = node_type
    return out


def is_node_file(skills_dir: Path, path: Path) -> bool:
    return path.parent == skills_dir / NODES_DIR and path.suffix == ".md"


def workflow_editor(skills_dir: Path) -> Path:
    return skills_dir / WORKFLOW_EDITOR


def schema_file(skills_dir: Path) -> Path:
    return skills_dir / SCHEMA_FILE


def schema_index(skills_dir: Path) -> Path:
    return skills_dir / SCHEMA_INDEX


def protocol_registry(skills_dir: Path) -> Path:
    return skills_dir / PROTOCOL_REGISTRY


def protocol_doc(skills_dir: Path) -> Path:
    return skills_dir / PROTOCOL_DOC


# The generated index of the node files: a file for people, never served to agents.
NODES_INDEX = f"{NODES_DIR}/_README.md"


def nodes_index(skills_dir: Path) -> Path:
    return skills_dir / NODES_INDEX


def sorted_paths(paths: Iterable[Path]) -> list[Path]:
    """`sorted(paths)`, in the same order; on POSIX by their parts, which compares in C
    (a Path's own comparison is Python code, and the gate sorts every skill file twice)."""
    return sorted(paths, key=_PARTS) if os.name == "posix" else sorted(paths)


_PARTS = operator.attrgetter("parts")


def for_people(path: Path, skills_dir: Path) -> bool:
    """Files and folders whose name starts with `_` are for people: never served to agents,
    never linted as skills, never orphans. Hidden ones (`.`) are nobody's skills either."""
    text, base = str(path), str(skills_dir) + os.sep
    if text.startswith(base):  # the common case, without pathlib's parsing (every file, twice)
        return any(part.startswith(("_", ".")) for part in text[len(base):].split(os.sep))
    try:
        parts = path.relative_to(skills_dir).parts
    except ValueError:
        parts = (path.name,)
    return any(part.startswith(("_", ".")) for part in parts)
