"""Hand-edit detection: a digest of what pygen wrote into each block, kept in the frontmatter.

The frontmatter line `pygen_digests: node-data-shape=<12 hex>,examples=<12 hex>` records,
per block, the digest of the body pygen last wrote (line endings normalised to `\\n`). A block
whose body matches neither that digest nor the body pygen would write now was edited by
hand. A file without the line (written before digests existed, or by hand) is taken as
generated, and so is a block the line does not name.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pygen.errors import MarkerError, located
from pygen.skills import frontmatter, markers

FIELD = "pygen_digests"
LENGTH = 12


@dataclass(frozen=True)
class HandEdit:
    path: Path
    block: str
    # 1-based line in the file of the first line where the block differs from pygen's text.
    line: int
    # Unified diff from what pygen would write to what the file holds.
    diff: str

    def message(self, shown_path: str) -> str:
        return located(shown_path, self.line, (
            f"block '{self.block}' was edited by hand; move the change into the prose or "
            "the source, or run `pygen gen --force` to overwrite it"))


def digest(body: str) -> str:
    normalised = body.replace("\r\n", "\n")
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()[:LENGTH]


def parse(value: str) -> dict[str, str]:
    """`a=x,b=y` → {a: x, b: y}; malformed entries are skipped (they protect nothing)."""
    out: dict[str, str] = {}
    for entry in value.split(","):
        block, eq, hexdigest = entry.strip().partition("=")
        if eq and block and hexdigest:
            out[block] = hexdigest
    return out


def render(digests: Mapping[str, str]) -> str:
    return ",".join(f"{block}={value}" for block, value in digests.items())


def recorded(text: str) -> dict[str, str]:
    return parse(frontmatter.read(text).get(FIELD, ""))


def field_for(text: str, block_ids: Iterable[str], path: str) -> str:
    """The FIELD value for `text`: the digest of each named block, in file order."""
    wanted = set(block_ids)
    return render({b.id: digest(b.body) for b in markers.parse(text, path) if b.id in wanted})


def hand_edits(path: Path, old: str | None, new: str) -> list[HandEdit]:
    """Blocks of `old` that pygen wrote (per its digests) and someone changed since."""
    if old is None or old == new:
        return []  # a block's body is as pygen writes it now: edited or not, nothing to keep
    digests = recorded(old)
    if not digests:
        return []
    try:
        old_blocks = {b.id: b for b in markers.parse(old, str(path))}
        new_bodies = markers.bodies(new, str(path))
    except MarkerError:
        return []  # the planner reports marker errors itself
    edits = []
    for block_id, want in digests.items():
        block, body = old_blocks.get(block_id), new_bodies.get(block_id)
        if block is None or body is None or digest(block.body) == want:
            continue
        if _lines(block.body) != _lines(body):
            edits.append(_edit(path, block, body))
    return edits


def _lines(body: str) -> list[str]:
    return body.replace("\r\n", "\n").splitlines(keepends=True)


def _edit(path: Path, block: markers.Block, generated: str) -> HandEdit:
    have, want = _lines(block.body), _lines(generated)
    first = next((i for i, (a, b) in enumerate(zip(have, want, strict=False)) if a != b),
                 min(len(have), len(want)))
    name = path.name
    diff = "".join(difflib.unified_diff(
        want, have, f"{name} [{block.id}] as pygen writes it", f"{name} [{block.id}] as edited"))
    return HandEdit(path, block.id, block.start_line + 1 + first, diff)


class Planned(Protocol):
    """A planned file: its path, current text and the text pygen would write."""

    @property
    def path(self) -> Path: ...
    @property
    def old(self) -> str | None: ...
    @property
    def new(self) -> str: ...


def find(updates: Iterable[Planned]) -> list[HandEdit]:
    return [edit for u in updates for edit in hand_edits(u.path, u.old, u.new)]
