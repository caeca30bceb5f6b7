"""Checks on what the skill files say, beyond drift: the ```json examples in them against the
node schemas, and orchestrator SKILL.md files against the Agent Skills rules."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from pygen import files
from pygen.model import Model
from pygen.skills.orchestrators import check_orchestrators
from pygen.skills.plan import FileUpdate
from pygen.validation.catalog import Catalog, as_catalog, build_catalog
from pygen.validation.findings import Finding
from pygen.validation.workflow import validate_node, validate_workflow

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*json\s*$", re.IGNORECASE)


def check_skill_examples(text: str, path: str, source: Catalog | Model) -> list[Finding]:
    """Validate every ```json block that is a node (`type` + `data`) or a workflow
    (`nodes` + `edges`); findings carry `path` and the line of the block's opening fence."""
    catalog = as_catalog(source)
    findings: list[Finding] = []
    for line, block in json_blocks(text):
        try:
            doc = json.loads(block)
        except ValueError:
            continue  # prose sketches such as `{ "data": {...} }` are not examples
        if isinstance(doc, dict) and "nodes" in doc and "edges" in doc:
            found = validate_workflow(doc, catalog)
        elif isinstance(doc, dict) and "type" in doc and "data" in doc:
            found = validate_node(doc, catalog)
        else:
            continue
        findings += [Finding(f.level, f.path, f.message, f.suggestion, path, line) for f in found]
    return findings


def json_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(line of the opening fence, body) of each fenced ```json block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        fence, start = match.group(1), i
        end = next((j for j in range(i + 1, len(lines)) if _closes(lines[j], fence)), len(lines))
        yield start + 1, "\n".join(lines[start + 1:end])
        i = end + 1


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (len(line) - len(line.lstrip(" ")) <= 3 and stripped.startswith(fence)
            and set(stripped) == {fence[0]})



def example_problems(updates: Sequence[FileUpdate], catalog: Catalog,
                     shown: dict[Path, str]) -> list[str]:
    """Every error in a JSON example (a node or a workflow) of a Markdown skill file.

    The planned text is checked: prose is the same before and after gen, and a stale
    generated block is reported as drift anyway.
    """
    problems: list[str] = []
    for update in updates:
        if update.path.suffix != ".md":
            continue
        label = shown.get(update.path, str(update.path))
        findings = check_skill_examples(update.new, label, catalog)
        problems.extend(str(f) for f in findings if f.level == "error")
    return problems


def find(skills_dir: Path, model: Model, updates: Sequence[FileUpdate],
         shown: dict[Path, str]) -> list[str]:
    extra = _other_skill_files(skills_dir, updates)
    catalog = build_catalog(model)
    return check_orchestrators(skills_dir) + example_problems([*updates, *extra], catalog, shown)


def _other_skill_files(skills_dir: Path, updates: Sequence[FileUpdate]) -> list[FileUpdate]:
    """Hand-written skill files no run plans (orchestrators), read as they are."""
    planned = {u.path for u in updates}
    out = []
    for path in sorted(skills_dir.glob("*/SKILL.md")):
        if path not in planned:
            text = files.read(path)
            out.append(FileUpdate(path, text, text))
    return out
