"""Foreign blocks: AUTO-GEN blocks whose id pygen does not write (another generator's).

pygen leaves them byte for byte (pygen.skills.markers keeps the body of a block it has no
content for). Ids declared in `foreign_blocks` are not listed; any other is listed per id
with a count and the files, a warning and never a failure. A block whose id pygen *recorded
a digest for* (pygen.skills.block_digests) was pygen's own and is not foreign: pygen no longer
writes it (a renamed block), so it is listed as such even when declared.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pygen import files, layout
from pygen.config import Config
from pygen.gate.prose_lint import linted, skill_files
from pygen.gate.text_memo import TextMemo, empty
from pygen.skills import block_digests, render


@dataclass(frozen=True)
class ForeignBlock:
    id: str
    # One entry per block, so a file holding the id twice is counted twice.
    paths: tuple[Path, ...]
    # Whether pygen wrote it once (its digest is recorded) and no longer writes it.
    was_pygens: bool = False

    @property
    def count(self) -> int:
        return len(self.paths)

    def message(self, shown: list[str]) -> str:
        where = ", ".join(dict.fromkeys(shown))
        if self.was_pygens:
            return (f"block '{self.id}' was written by pygen (per its digest) and pygen no "
                    f"longer writes it: move what it says, then delete it ({where})")
        return (f"block '{self.id}' is not pygen's ({self.count} in {where}); left as it is. "
                f"Declare it with foreign_blocks = [\"{self.id}\"] in the pygen config")


def texts(config: Config, planned: Sequence[block_digests.Planned]) -> dict[Path, str]:
    """Every Markdown skill file as this run leaves it."""
    skills = config.skills_dir
    mine = {u.path: u.new for u in planned if linted(u.path, skills)}
    out = {path: files.read_text(path) or "" for path in skill_files(skills) if path not in mine}
    out.update(mine)
    return {path: out[path] for path in layout.sorted_paths(out)}


def find(config: Config, planned: Sequence[block_digests.Planned],
         memo: TextMemo | None = None) -> list[ForeignBlock]:
    """The foreign blocks of every skill file as this run leaves it; each text's blocks
    come from `memo` when it read them before."""
    own, declared = render.own_blocks(), set(config.settings.foreign_blocks)
    memo = memo or empty()
    found: dict[tuple[str, bool], list[Path]] = defaultdict(list)
    for path, text in texts(config, planned).items():
        for block_id, was_pygens in memo.blocks(text, str(path)) or ():
            if block_id not in own and (was_pygens or block_id not in declared):
                found[(block_id, was_pygens)].append(path)
    return [ForeignBlock(block_id, tuple(paths), was)
            for (block_id, was), paths in sorted(found.items())]
