"""Orchestrator skills: the hand-written `<skills_dir>/<name>/SKILL.md` files, their YAML
frontmatter, and the Agent Skills rules their `name` and `description` must follow."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pygen import jsonread, layout
from pygen.errors import PygenError
from pygen.files import read
from pygen.jsonread import JsonInputError

# Agent Skills naming rule: lowercase words joined by single hyphens, at most 64 chars.
_SKILL_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_MAX_NAME = 64
_MAX_DESCRIPTION = 1024
# Names whose tool or resource would collide with the built-in workflow editor.
_RESERVED = frozenset({"workflow-editor"})


@dataclass(frozen=True)
class OrchestratorSkill:
    name: str
    description: str
    path: Path
    text: str

    @property
    def tool_name(self) -> str:
        return "start_" + self.name.replace("-", "_")


def orchestrator_files(skills_dir: Path) -> list[Path]:
    """Every `<skills_dir>/<name>/SKILL.md` (the nodes folder holds no orchestrator, and a
    `_` folder is for people).

    A linked folder or SKILL.md is not one: pygen never reads through links in skills_dir
    (the caller reports them).
    """
    try:
        folders = sorted(p for p in skills_dir.iterdir()
                         if p.is_dir() and not p.is_symlink() and p.name != layout.NODES_DIR
                         and not layout.for_people(p, skills_dir))
    except OSError:
        return []
    files = [f / layout.ORCHESTRATOR_FILE for f in folders]
    return [f for f in files if f.is_file() and not f.is_symlink()]


def check_orchestrators(skills_dir: Path) -> list[str]:
    """One line per Agent Skills rule broken by a `<skills_dir>/<name>/SKILL.md`."""
    errors: list[str] = []
    for path in orchestrator_files(skills_dir):
        try:
            text = read(path)
        except PygenError as exc:
            errors.append(str(exc))
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
            loaded = jsonread.loads(" ".join([head, *filter(None, body)]), "a quoted value")
        except JsonInputError:
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
