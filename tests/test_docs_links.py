"""Every link between the README and docs/ pages reaches a file and, where it names one, a
heading of that file (GitHub's anchors), so moving a section cannot leave a dead link."""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _read(page: Path) -> tuple[set[str], list[str]]:
    """(the page's anchors, the link targets it names)."""
    tokens = MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8"))
    anchors, links = set(), []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            anchors.add(_slug(tokens[i + 1].content.replace("`", "")))
        for child in token.children or ():
            if child.type == "link_open":
                links.append(str(child.attrs["href"]))
    return anchors, links


def test_every_local_link_reaches_its_page_and_heading() -> None:
    read = {page.resolve(): _read(page) for page in PAGES}
    dead = []
    for page, (_, links) in read.items():
        for href in links:
            if re.match(r"[a-z]+:", href):
                continue
            path, _, anchor = href.partition("#")
            target = (page.parent / path).resolve() if path else page
            missing = anchor and target in read and anchor not in read[target][0]
            if not target.exists() or missing:
                dead.append(f"{page.name}: {href}")
    assert dead == []
    assert len(read) > 5
