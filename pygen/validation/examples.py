"""Checks on what the skill files say, beyond drift: the ```json examples in them against the
node schemas, and orchestrator SKILL.md files against the Agent Skills rules.

A JSON block that only shows a shape is not validated: its fence says ```json schematic, or
the line before it is `<!-- pygen: schematic -->`. One with a `<…>` placeholder where a real
name belongs (`"type": "<node-type>"`) is taken as schematic too, with a hint to mark it.
Files whose name starts with `_` are for people and are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pygen import files, jsonread
from pygen.config import Config
from pygen.errors import located
from pygen.jsonread import JsonInputError
from pygen.model import Model
from pygen.skills.orchestrators import check_orchestrators
from pygen.skills.plan import FileUpdate
from pygen.validation import example_memo
from pygen.validation.catalog import Catalog, as_catalog, build_catalog
from pygen.validation.example_memo import ExampleMemo
from pygen.validation.findings import Finding
from pygen.validation.workflow import validate_node, validate_workflow

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*json(?:\s+(\S.*?))?\s*$", re.IGNORECASE)
SCHEMATIC = "schematic"
_MARKER = re.compile(r"^\s*<!--\s*pygen:\s*schematic\s*-->\s*$")
_PLACEHOLDER = re.compile(r"<[^<>\s][^<>]*>")
PLACEHOLDER_HINT = ("taken as schematic: it holds <…> placeholders; mark it "
                    "```json schematic (or <!-- pygen: schematic --> before it) to say so")


def placeholders(value: object) -> bool:
    """Whether a `<…>` placeholder stands where a real name is needed (a type, an id, a
    handle, a key); inside `data` a placeholder is only sample text, and is validated."""
    if isinstance(value, str):
        return bool(_PLACEHOLDER.search(value))
    if isinstance(value, dict):
        return any(placeholders(k) or (k != "data" and placeholders(v))
                   for k, v in value.items())
    if isinstance(value, list):
        return any(placeholders(item) for item in value)
    return False


def check_skill_examples(text: str, path: str, source: Catalog | Model) -> list[Finding]:
    """Validate every ```json block that is a node (`type` + `data`) or a workflow
    (`nodes` + `edges`); findings carry `path` and the line of the block's opening fence."""
    catalog = as_catalog(source)
    findings: list[Finding] = []
    for line, block in json_blocks(text):
        try:
            doc = jsonread.loads(block, "a JSON block")
        except JsonInputError:
            continue  # prose sketches such as `{ "data": {...} }` are not examples
        if placeholders(doc):
            found = [Finding("warning", "$", PLACEHOLDER_HINT)]
        elif isinstance(doc, dict) and "nodes" in doc and (
                "edges" in doc or catalog.conventions.connections_key in doc):
            found = validate_workflow(doc, catalog)
        elif isinstance(doc, dict) and "type" in doc and "data" in doc:
            found = validate_node(doc, catalog)
        else:
            continue
        findings += [Finding(f.level, f.path, f.message, f.suggestion, path, line) for f in found]
    return findings


def json_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(line of the opening fence, body) of each fenced ```json block not marked schematic."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        fence, start = match.group(1), i
        end = next((j for j in range(i + 1, len(lines)) if _closes(lines[j], fence)), len(lines))
        if not _schematic(match.group(2), lines[:start]):
            yield start + 1, "\n".join(lines[start + 1:end])
        i = end + 1


def _schematic(info: str | None, before: list[str]) -> bool:
    """Marked schematic: in the fence's info string, or on the last non-blank line before it."""
    if info and SCHEMATIC in info.lower().split():
        return True
    previous = next((line for line in reversed(before) if line.strip()), "")
    return bool(_MARKER.match(previous))


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (len(line) - len(line.lstrip(" ")) <= 3 and stripped.startswith(fence)
            and set(stripped) == {fence[0]})



@dataclass(frozen=True)
class Content:
    """What the content checks found: errors that fail the run, hints that do not."""

    problems: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)


def example_problems(updates: Sequence[FileUpdate], catalog: Catalog,
                     shown: dict[Path, str], memo: ExampleMemo | None = None) -> Content:
    """Every error in a JSON example (a node or a workflow) of a Markdown skill file, and a
    hint for each example taken as schematic because of its placeholders.

    The planned text is checked: prose is the same before and after gen, and a stale
    generated block is reported as drift anyway. With `memo`, a file checked against the
    same catalog entries before is not checked again (pygen.validation.example_memo).
    """
    found = Content()
    for update in updates:
        if update.path.suffix != ".md" or update.path.name.startswith("_"):
            continue
        label = shown.get(update.path, str(update.path))
        key = memo.file_key(label, update.new) if memo is not None else ""
        verdict = memo.verdict(label, key) if memo is not None else None
        if verdict is None:
            verdict = file_problems(update.new, label, catalog)
        if memo is not None:
            memo.keep(label, key, verdict)
        found.problems.extend(verdict[0])
        found.hints.extend(verdict[1])
    return found


def file_problems(text: str, label: str, catalog: Catalog) -> tuple[list[str], list[str]]:
    """One file's errors and placeholder hints."""
    problems, hints = [], []
    for finding in check_skill_examples(text, label, catalog):
        if finding.level == "error":
            problems.append(str(finding))
        elif finding.message == PLACEHOLDER_HINT:
            hints.append(located(label, finding.line, finding.message))
    return problems, hints


def find(skills_dir: Path, model: Model, updates: Sequence[FileUpdate],
         shown: dict[Path, str], config: Config | None = None) -> Content:
    """The content problems; with `config`, through the example memo under its cache."""
    extra = _other_skill_files(skills_dir, updates)
    catalog = build_catalog(model)
    memo = example_memo.load(config, catalog) if config is not None else None
    found = example_problems([*updates, *extra], catalog, shown, memo)
    if memo is not None:
        memo.save()
    return Content(check_orchestrators(skills_dir) + found.problems, found.hints)


def _other_skill_files(skills_dir: Path, updates: Sequence[FileUpdate]) -> list[FileUpdate]:
    """Hand-written skill files no run plans (orchestrators), read as they are."""
    planned = {u.path for u in updates}
    out = []
    for path in sorted(skills_dir.glob("*/SKILL.md")):
        if path not in planned:
            text = files.read(path)
            out.append(FileUpdate(path, text, text))
    return out
