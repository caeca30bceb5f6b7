"""The per-text memo of what the gate reads in a skill file (`.pygen-cache/texts.json`): for
each text, by its sha256, its AUTO-GEN blocks (each id in file order, and whether the
frontmatter records a digest for it: all pygen.gate.foreign needs) and the names its prose
quotes as inline code, with their lines (all pygen.gate.prose_lint looks up). Both depend
on the text alone, so a check after one node changed parses the texts that changed, not
every skill file.

Same conventions as every cache entry (pygen.extract.cache); only this run's texts are kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pygen.config import Config
from pygen.errors import MarkerError
from pygen.extract import cache, cachefile
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
    path: Path | None
    key: str = ""
    read: dict[str, dict[str, Any]] = field(default_factory=dict)
    kept: dict[str, dict[str, Any]] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)

    def _entry(self, text: str) -> dict[str, Any]:
        digest = self.digests.get(text)
        if digest is None:
            digest = self.digests[text] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        entry = self.kept.get(digest)
        if entry is None:
            entry = self.kept[digest] = dict(self.read.get(digest, {}))
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
        if self.path is not None and self.kept != self.read:
            cachefile.write_entry(self.path, {"key": self.key, "texts": dict(sorted(
                self.kept.items()))})


def _valid(entry: Any) -> bool:
    """Whether a stored entry has the shape this module writes."""
    if not isinstance(entry, dict):
        return False
    blocks, names = entry.get("blocks", []), entry.get("names", [])
    blocks_ok = blocks is None or (isinstance(blocks, list) and all(
        isinstance(b, list) and len(b) == 2 and isinstance(b[0], str)
        and isinstance(b[1], bool) for b in blocks))
    return blocks_ok and isinstance(names, list) and all(
        isinstance(n, list) and len(n) == 2 and type(n[0]) is int and isinstance(n[1], str)
        for n in names)


def load(config: Config | None) -> TextMemo:
    """The memo under the config's cache; without a config, one that reads every text."""
    if config is None:
        return TextMemo(None)
    path = cache.cache_dir(config) / FILE
    key = cache.digest_json({"version": VERSION, "code": cache.code_id()})
    stored = cachefile.read_entry(path, key)
    texts = stored.get("texts") if stored else None
    read = {str(digest): entry for digest, entry in
            (texts.items() if isinstance(texts, dict) else ()) if _valid(entry)}
    return TextMemo(path, key, read)
