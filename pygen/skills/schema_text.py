"""The memo of the schema document's text per entry (`.pygen-cache/schema_text.json`): each
node's data schema and `x-handles` entry, written as the document holds it, by the sha256
of its compact JSON. The compact form is the C encoder's (a few times faster than the
indented writer) and fixes the indented text, so a check after one node changed writes one
entry's text and copies the rest.

Same conventions as every cache entry (pygen.extract.cache); only this run's entries are kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from pygen.config import Config
from pygen.extract import cache
from pygen.jsonvalues import pretty_at

FILE = "schema_text.json"
VERSION = 1


@dataclass
class SchemaTexts:
    path: Path
    key: str
    read: dict[str, str] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)

    def entry(self, value: object, pad: str) -> str:
        """`pretty_at(value, pad)`, from the memo when an entry of this JSON was written."""
        compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(f"{pad}\0{compact}".encode()).hexdigest()
        text = self.kept.get(digest)
        if text is None:
            text = self.read.get(digest)
            self.kept[digest] = text = pretty_at(value, pad) if text is None else text
        return text

    def save(self) -> None:
        if self.kept != self.read:
            cache.write_entry(self.path, {"key": self.key, "texts": dict(sorted(
                self.kept.items()))})


def load(config: Config) -> SchemaTexts:
    path = cache.cache_dir(config) / FILE
    key = cache.digest_json({"version": VERSION, "code": cache.code_id()})
    stored = cache.read_entry(path, key)
    texts = stored.get("texts") if stored else None
    read = {str(k): v for k, v in (texts.items() if isinstance(texts, dict) else ())
            if isinstance(v, str)}
    return SchemaTexts(path, key, read)
