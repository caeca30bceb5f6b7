"""Orphans: node skill files (`nodes/<type>.md`) whose type left the node definitions.

An orphan that holds nothing but what pygen wrote (its blocks, frontmatter, the template's
headings and blank lines) can be deleted; one with hand-written prose is only reported, so
a person can move that prose before deleting the file. Prose is never deleted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pygen import files, layout
from pygen.errors import MarkerError
from pygen.model import Location, Model, NodeDef
from pygen.skills import frontmatter, markers, render
from pygen.skills.bounds import written_by_pygen


@dataclass(frozen=True)
class Orphan:
    path: Path
    node_type: str
    # 1-based line of the first hand-written prose line, None when the file holds none.
    prose_line: int | None

    @property
    def has_prose(self) -> bool:
        return self.prose_line is not None


def template_headings() -> frozenset[str]:
    """The headings a new node file starts with, the title aside (it names the node)."""
    dummy = NodeDef(type="x", label="x", source=Location(file="x", line=1))
    lines = render.node_template(dummy, with_tool=True).splitlines()
    return frozenset(line.strip() for line in lines if line.startswith("## "))


def first_prose_line(text: str, path: str) -> int | None:
    """The first line outside frontmatter and blocks that a person wrote, or None.

    A file whose markers do not parse counts as prose at line 1: it is kept for a person.
    So does one without pygen's frontmatter: pygen deletes only files it wrote.
    """
    if not written_by_pygen(text):
        return 1
    try:
        blocks = markers.parse(text, path)
    except MarkerError:
        return 1
    head, _ = frontmatter.split(text)
    skip = _block_lines(blocks) | set(range(1, head.count("\n") + 1))
    headings = template_headings()
    title_seen = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if number in skip or not stripped or stripped in headings:
            continue
        if stripped.startswith("# ") and not title_seen:
            title_seen = True
            continue
        return number
    return None


def _block_lines(blocks: tuple[markers.Block, ...]) -> set[int]:
    return {n for b in blocks for n in range(b.start_line, b.end_line + 1)}


def node_files(skills_dir: Path) -> list[Path]:
    """The node skill files; `_README.md` and other `_` files are for people, never orphans."""
    folder = layout.nodes_dir(skills_dir)
    return sorted(p for p in folder.glob("*.md") if not layout.for_people(p, skills_dir)) \
        if folder.is_dir() else []


def find(skills_dir: Path, model: Model, legacy: Iterable[str] = ()) -> list[Orphan]:
    """Node files of types the catalog does not declare, but for the `legacy` ones."""
    known = set(model.file_stems.values()) | set(legacy)
    orphans = []
    for path in node_files(skills_dir):
        if path.stem in known:
            continue
        text = files.read(path)
        orphans.append(Orphan(path, path.stem, first_prose_line(text, str(path))))
    return orphans


def prune(orphans: list[Orphan]) -> tuple[list[Orphan], list[Orphan]]:
    """Delete the orphans without prose; return (deleted, kept for a person)."""
    deleted, kept = [], []
    for orphan in orphans:
        # Read again: someone may have written prose since the orphan was found.
        text = files.read(orphan.path)
        if orphan.has_prose or first_prose_line(text, str(orphan.path)) is not None:
            kept.append(orphan)
            continue
        os.unlink(orphan.path)
        deleted.append(orphan)
    return deleted, kept
