"""The per-text memo of what the gate reads in a skill file (`.pygen-cache/texts.json`): for
each text, by its sha256, its AUTO-GEN blocks (each id in file order, and whether the
frontmatter records a digest for it: all pygen.gate.foreign needs) and the names its prose
quotes as inline code, with their lines (all pygen.gate.prose_lint looks up). Both depend
on the text alone, so a check after one node changed parses the texts that changed, not
every skill file.

A keyed memo as every memo is (pygen.extract.keyed_memo); only this run's texts are kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from pygen.config import Config
from pygen.errors import MarkerError
from pygen.extract import cache
from pygen.extract.keyed_memo import MemoFile, Section
from pygen.gate.prose import candidate, code_spans, prose_only
from pygen.skills import block_digests, markers

FILE = "texts.json"
VERSION = 1
# A text's blocks: (id, whether pygen recorded a digest for it), or None when its markers
# are broken (the planner reports that).
Blocks = tuple[tuple[str, bool], ...] | None
# The names the prose quotes: (line, name), in order.
Names = tuple[tuple[int, str], ...]


def read_blocks(text: str, path: str) -> Blocks:
    """The text's blocks, parsed."""
    try:
        found = markers.parse(text, path)
    except MarkerError:
        return None
    recorded = block_digests.recorded(text)
    return tuple((block.id, block.id in recorded) for block in found)


def read_names(text: str, path: str) -> Names:
    """The candidate names of the text's prose (pygen.gate.prose), parsed."""
    return tuple((line, token) for line, span in code_spans(prose_only(text, path))
                 if (token := candidate(span)) is not None)


@dataclass
class TextMemo:
    file: MemoFile
    texts: Section[dict[str, Any]]
    digests: dict[str, str] = field(default_factory=dict)

    def _entry(self, text: str) -> dict[str, Any]:
        digest = self.digests.get(text)
        if digest is None:
            digest = self.digests[text] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        entry = self.texts.kept.get(digest)
        if entry is None:
            entry = self.texts.kept[digest] = dict(self.texts.read.get(digest, {}))
        return entry

    def blocks(self, text: str, path: str) -> Blocks:
        """The text's blocks, from the memo when this text was read before."""
        entry = self._entry(text)
        if "blocks" not in entry:
            found = read_blocks(text, path)
            entry["blocks"] = None if found is None else [list(b) for b in found]
        stored = entry["blocks"]
        return None if stored is None else tuple((b[0], b[1]) for b in stored)

    def names(self, text: str, path: str) -> Names:
        """The names the text's prose quotes, from the memo when it was read before."""
        entry = self._entry(text)
        if "names" not in entry:
            entry["names"] = [list(n) for n in read_names(text, path)]
        return tuple((n[0], n[1]) for n in entry["names"])

    def save(self) -> None:
        self.file.save(self.texts)


def empty() -> TextMemo:
    """A memo that remembers nothing: every text is read."""
    return TextMemo(MemoFile(None), Section("texts"))


def _valid(entry: Any) -> dict[str, Any] | None:
    """A stored entry, or None when it does not have the shape this module writes."""
    if not isinstance(entry, dict):
        return None
    blocks, names = entry.get("blocks", []), entry.get("names", [])
    blocks_ok = blocks is None or (isinstance(blocks, list) and all(
        isinstance(b, list) and len(b) == 2 and isinstance(b[0], str)
        and isinstance(b[1], bool) for b in blocks))
    names_ok = isinstance(names, list) and all(
        isinstance(n, list) and len(n) == 2 and type(n[0]) is int and isinstance(n[1], str)
        for n in names)
    return entry if blocks_ok and names_ok else None


def load(config: Config | None) -> TextMemo:
    """The memo under the config's cache; without a config, one that reads every text."""
    if config is None:
        return empty()
    memo = MemoFile.open(cache.cache_dir(config) / FILE,
                         cache.digest_json({"version": VERSION, "code": cache.code_id()}))
    return TextMemo(memo, memo.section("texts", _valid))
