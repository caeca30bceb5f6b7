"""The skills `pygen serve` hands out, read once from disk into an immutable store.

Lookups never touch the file system: a node skill is found by exact match against the
types loaded from regular files directly inside `skills_dir/nodes`, so no caller input
(`..`, absolute paths, encodings, look-alike characters) can name anything else.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from pygen.errors import PygenError
from pygen.server.fallback import fallback_text

WORKFLOW_EDITOR = "workflow-editor.md"
NODES_DIR = "nodes"
ORCHESTRATOR_FILE = "SKILL.md"

# Agent Skills naming rule: lowercase words joined by single hyphens, at most 64 chars.
_SKILL_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_MAX_NAME = 64
_MAX_DESCRIPTION = 1024
# A file stem that can be a node type; anything else in nodes/ is skipped with a note.
_NODE_TYPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# Names whose tool or resource would collide with the built-in workflow editor.
_RESERVED = frozenset({"workflow-editor"})


class SkillStoreError(PygenError):
    pass


class UnknownNodeType(PygenError):
    """Raised for a node type outside the loaded set; the message lists the valid ones."""


@dataclass(frozen=True)
class OrchestratorSkill:
    name: str
    description: str
    path: Path
    text: str

    @property
    def tool_name(self) -> str:
        return "start_" + self.name.replace("-", "_")


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
        if text is None:
            raise UnknownNodeType(unknown_node_type_message(node_type, self.node_types))
        return text


def unknown_node_type_message(node_type: str, valid: tuple[str, ...]) -> str:
    listed = ", ".join(valid) if valid else "(none loaded)"
    return f"Unknown node_type '{node_type}'. Valid types: {listed}"


def load_store(skills_dir: Path) -> SkillStore:
    """Read every skill under skills_dir; a missing directory leaves only the fallback."""
    root = skills_dir.resolve()
    errors = check_orchestrators(skills_dir)
    if errors:
        more = f" (and {len(errors) - 1} more; run pygen check)" if len(errors) > 1 else ""
        raise SkillStoreError(errors[0] + more)
    editor = _read_text(root / WORKFLOW_EDITOR)
    nodes, skipped = _load_nodes(root / NODES_DIR)
    return SkillStore(
        root=root,
        workflow_editor=editor if editor is not None else fallback_text(),
        nodes=MappingProxyType(nodes),
        orchestrators=_load_orchestrators(root),
        fallback=editor is None,
        skipped=tuple(skipped),
    )


def _read_text(path: Path) -> str | None:
    try:
        return read_exact(path)
    except (OSError, UnicodeDecodeError):
        return None


def read_exact(path: Path) -> str:
    """The file's text with its line endings kept: agents get exactly what is on disk."""
    return path.read_bytes().decode("utf-8")


def _load_nodes(nodes_dir: Path) -> tuple[dict[str, str], list[str]]:
    try:
        entries = sorted(os.scandir(nodes_dir), key=lambda e: e.name)
        real_dir = nodes_dir.resolve(strict=True)
    except OSError:
        return {}, []
    nodes: dict[str, str] = {}
    skipped: list[str] = []
    for entry in entries:
        name = entry.name
        if not name.endswith(".md") or name.startswith(("_", ".")):
            continue
        loaded = _load_node(Path(entry.path), real_dir)
        if isinstance(loaded, str):
            nodes[name[: -len(".md")]] = loaded
        else:
            skipped.append(f"{entry.path}: {loaded.args[0]}; skipped")
    return nodes, skipped


def _load_node(path: Path, real_dir: Path) -> str | ValueError:
    """The file's text, or the reason it is not a node skill (returned, not raised)."""
    if not _NODE_TYPE.fullmatch(path.name[: -len(".md")]):
        return ValueError("file name is not a valid node type ([A-Za-z0-9._-], 1-64 chars)")
    real = path.resolve()
    if real.parent != real_dir:
        return ValueError(f"resolves to {real}, outside {real_dir}")
    if not real.is_file():
        return ValueError("not a regular file")
    try:
        # O_NOFOLLOW: the resolved path must not have become a symlink since resolve().
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ValueError(f"cannot read: {exc}")


def _orchestrator_files(skills_dir: Path) -> list[Path]:
    try:
        folders = sorted(p for p in skills_dir.iterdir() if p.is_dir() and p.name != NODES_DIR)
    except OSError:
        return []
    return [f / ORCHESTRATOR_FILE for f in folders if (f / ORCHESTRATOR_FILE).is_file()]


def _load_orchestrators(root: Path) -> tuple[OrchestratorSkill, ...]:
    skills: list[OrchestratorSkill] = []
    for path in _orchestrator_files(root):
        text = read_exact(path)
        meta = parse_frontmatter(text)
        if "name" in meta and "description" in meta:
            skills.append(OrchestratorSkill(meta["name"], meta["description"], path, text))
    return tuple(skills)


def check_orchestrators(skills_dir: Path) -> list[str]:
    """One line per Agent Skills rule broken by a `<skills_dir>/<name>/SKILL.md`."""
    errors: list[str] = []
    for path in _orchestrator_files(skills_dir):
        try:
            text = read_exact(path)
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(f"{path}: cannot read: {exc}")
            continue
        errors.extend(f"{path}: {problem}" for problem in _frontmatter_problems(text, path))
    return errors


def _frontmatter_problems(text: str, path: Path) -> list[str]:
    meta = parse_frontmatter(text)
    if "name" not in meta and "description" not in meta:
        return []  # not an orchestrator skill: no frontmatter claims it is one
    if "name" not in meta or "description" not in meta:
        return ["frontmatter needs both 'name' and 'description'"]
    return _name_problems(meta["name"], path.parent.name) + _description_problems(
        meta["description"]
    )


def _name_problems(name: str, folder: str) -> list[str]:
    if not 1 <= len(name) <= _MAX_NAME or not _SKILL_NAME.fullmatch(name):
        return [
            f"name '{name}' must be 1-{_MAX_NAME} chars of a-z, 0-9 and '-', "
            "without a leading, trailing or double hyphen"
        ]
    if name != folder:
        return [f"name '{name}' must equal its folder name '{folder}'"]
    if name in _RESERVED:
        return [f"name '{name}' is reserved for the built-in skill; rename the folder"]
    return []


def _description_problems(description: str) -> list[str]:
    if not description.strip():
        return ["description is empty; say what the skill does and when to use it"]
    if len(description) > _MAX_DESCRIPTION:
        return [f"description is {len(description)} chars; the limit is {_MAX_DESCRIPTION}"]
    return []


def parse_frontmatter(text: str) -> dict[str, str]:
    """Top-level string keys of a `---` YAML frontmatter block (the subset SKILL.md uses).

    Handles plain, single- and double-quoted scalars, `>`/`|` block scalars and indented
    continuation lines; nested mappings and lists are ignored.
    """
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return {}
    try:
        end = next(i for i, line in enumerate(lines[1:], 1) if line.strip() in ("---", "..."))
    except StopIteration:
        return {}
    return _parse_mapping(lines[1:end])


_KEY = re.compile(r"([A-Za-z_][\w-]*):(?:\s+(.*))?$")


def _parse_mapping(lines: list[str]) -> dict[str, str]:
    result: dict[str, str] = {}
    i = 0
    while i < len(lines):
        match = _KEY.match(lines[i])
        i += 1
        if not match:
            continue
        block: list[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i][:1] in " \t"):
            block.append(lines[i])
            i += 1
        value = _scalar((match.group(2) or "").strip(), block)
        if value is not None:
            result[match.group(1)] = value
    return result


def _scalar(head: str, block: list[str]) -> str | None:
    body = [line.strip() for line in block]
    if head[:1] in ("|", ">"):
        while body and not body[-1]:
            body.pop()
        return "\n".join(body) if head[0] == "|" else _fold(body)
    if head.startswith('"'):
        try:
            loaded = json.loads(" ".join([head, *filter(None, body)]))
        except json.JSONDecodeError:
            return None
        return loaded if isinstance(loaded, str) else None
    if head.startswith("'"):
        joined = " ".join([head, *filter(None, body)])
        return joined[1:-1].replace("''", "'") if joined.endswith("'") else None
    if not head and any(b.startswith(("-", "[", "{")) or ":" in b for b in body if b):
        return None  # a nested mapping or list, not a string
    return _fold([head, *body]) or None


def _fold(lines: list[str]) -> str:
    """YAML folding: single newlines become spaces, blank lines become newlines."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n".join(" ".join(p) for p in paragraphs if p)
