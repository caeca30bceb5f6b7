"""Checks on what the skill files say, beyond drift: worked examples against the node
schemas, and orchestrator SKILL.md files against the Agent Skills rules."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pygen.model import Model
from pygen.server.store import check_orchestrators
from pygen.skills.plan import FileUpdate
from pygen.validation.validate import Catalog, build_catalog, check_skill_examples


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
            text = path.read_bytes().decode("utf-8", errors="replace")
            out.append(FileUpdate(path, text, text))
    return out
