"""The skills `pygen serve` hands out, read once from disk into an immutable store.

Sections that hold no prose (a template's empty "When to use", a `(Add prose here.)`) are
left out of what is served: `pygen doctor` lists them for the people who write them.

Lookups never touch the file system: a node skill is found by exact match against the
types loaded from regular files directly inside `skills_dir/nodes`, so no caller input
(`..`, absolute paths, encodings, look-alike characters) can name anything else.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from pygen import layout
from pygen.errors import PygenError, UnknownNodeType
from pygen.files import link_refusal, links_below, read
from pygen.server.fallback import fallback_text
from pygen.skills import frontmatter
from pygen.skills.orchestrators import (
    OrchestratorSkill,
    check_orchestrators,
    orchestrator_files,
    parse_frontmatter,
)
from pygen.skills.sections import without_empty_sections

# A file stem that can be a node type; anything else in nodes/ is skipped with a note.
_NODE_TYPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class SkillStoreError(PygenError):
    pass


@dataclass(frozen=True)
class SkillStore:
    """Everything served, loaded at start-up; replaced whole on reload, never mutated."""

    root: Path
    workflow_editor: str
    nodes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    orchestrators: tuple[OrchestratorSkill, ...] = ()
    # True when workflow_editor came from the packaged copy instead of root.
    fallback: bool = False
    # One line per file in nodes/ that was not loaded, and why.
    skipped: tuple[str, ...] = ()

    @property
    def node_types(self) -> tuple[str, ...]:
        return tuple(sorted(self.nodes))

    def get_node_skill(self, node_type: str) -> str:
        # Exact dictionary match only: no normalisation, decoding or path joining.
        text = self.nodes.get(node_type)
        if text is None and layout.slug(node_type) != node_type:
            # A type that is not a file name (`Limit Times`) is served from its slug's file,
            # and only when that file says it is this type's (no other spelling reaches it).
            text = self.nodes.get(layout.slug(node_type))
            if text is not None and frontmatter.read(text).get("node_type") != node_type:
                text = None
        if text is None:
            raise UnknownNodeType(unknown_node_type_message(node_type, self.node_types))
        return text


def unknown_node_type_message(node_type: str, valid: tuple[str, ...]) -> str:
    listed = ", ".join(valid) if valid else "(none loaded)"
    return f"Unknown node_type '{node_type}'. Valid types: {listed}"


def load_store(skills_dir: Path) -> SkillStore:
    """Read every skill under skills_dir; a missing directory leaves only the fallback.

    No link under skills_dir is followed: each is skipped with one line naming it.
    """
    root = skills_dir.resolve()
    errors = check_orchestrators(skills_dir)
    if errors:
        more = f" (and {len(errors) - 1} more; run pygen check)" if len(errors) > 1 else ""
        raise SkillStoreError(errors[0] + more)
    links = links_below(root)
    skipped = [f"{link_refusal(link)}; skipped" for link in links]
    if not root.is_dir():
        skipped.append(f"{skills_dir}: no such skills directory; serving no node skills "
                       "(run `pygen gen`, or fix --skills-dir or skills_dir)")
    editor_path = layout.workflow_editor(root)
    editor = None if editor_path in links else _read_text(editor_path)
    nodes, unloaded = _load_nodes(layout.nodes_dir(root))
    return SkillStore(
        root=root,
        workflow_editor=without_empty_sections(editor if editor is not None
                                               else fallback_text()),
        nodes=MappingProxyType(nodes),
        orchestrators=_load_orchestrators(root),
        fallback=editor is None,
        skipped=tuple(skipped + unloaded),
    )


def _read_text(path: Path) -> str | None:
    try:
        return read(path)
    except PygenError:
        return None


def _load_nodes(nodes_dir: Path) -> tuple[dict[str, str], list[str]]:
    if nodes_dir.is_symlink():
        return {}, []  # reported with every other link
    try:
        entries = sorted(os.scandir(nodes_dir), key=lambda e: e.name)
    except OSError:
        return {}, []
    nodes: dict[str, str] = {}
    skipped: list[str] = []
    for entry in entries:
        name = entry.name
        if not name.endswith(".md") or name.startswith(("_", ".")) or entry.is_symlink():
            continue
        loaded = _load_node(Path(entry.path))
        if isinstance(loaded, str):
            nodes[_served_type(name[: -len(".md")], loaded)] = without_empty_sections(loaded)
        else:
            skipped.append(f"{entry.path}: {loaded.args[0]}; skipped")
    return nodes, skipped


def _served_type(stem: str, text: str) -> str:
    """The type a node file is served under: its stem, unless the stem is one pygen kept
    apart from a type of the same spelling (pygen.layout.file_stems): then its own type."""
    declared = frontmatter.read(text).get("node_type")
    if isinstance(declared, str) and declared and stem == layout.kept_apart(declared):
        return declared
    return stem


def _load_node(path: Path) -> str | ValueError:
    """The file's text, or the reason it is not a node skill (returned, not raised)."""
    if not _NODE_TYPE.fullmatch(path.name[: -len(".md")]):
        return ValueError("file name is not a valid node type ([A-Za-z0-9._-], 1-64 chars)")
    if not path.is_file():
        return ValueError("not a regular file")
    try:
        # O_NOFOLLOW: a link put in place since the folder was listed is not followed either.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ValueError(f"cannot read: {exc}")


def _load_orchestrators(root: Path) -> tuple[OrchestratorSkill, ...]:
    skills: list[OrchestratorSkill] = []
    for path in orchestrator_files(root):
        text = read(path)
        meta = parse_frontmatter(text)
        if "name" in meta and "description" in meta:
            skills.append(OrchestratorSkill(meta["name"], meta["description"], path,
                                            without_empty_sections(text)))
    return tuple(skills)
