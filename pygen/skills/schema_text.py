"""The memo of the schema document per entry (`.pygen-cache/schema_text.json`).

- Each node's data schema and `x-handles` entry, by the digest of the node's record (the
  render memo's, pygen.skills.render_memo): they are made of that record alone
  (pygen.schema.document.node_entries). Kept only when JSON gives them back equal.
- Their text as the document holds it, by the sha256 of their compact JSON. The compact
  form is the C encoder's (a few times faster than the indented writer) and fixes the
  indented text.

So a check after one node changed builds and writes that node's entries and copies the rest.

Same conventions as every cache entry (pygen.extract.cache); only this run's entries are kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pygen.config import Config
from pygen.extract import cache, cachefile
from pygen.jsonvalues import pretty_at
from pygen.model import NodeDef
from pygen.schema.document import node_entries
from pygen.schema.node_schema import Schema

FILE = "schema_text.json"
VERSION = 1


@dataclass
class SchemaTexts:
    path: Path
    key: str
    read: dict[str, str] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)
    read_pairs: dict[str, list[Any]] = field(default_factory=dict)
    kept_pairs: dict[str, list[Any]] = field(default_factory=dict)

    def pair(self, node: NodeDef, record: str) -> tuple[Schema, dict[str, Any]]:
        """`node_entries(node)`, from the memo when a node of this record was read before."""
        found = self.kept_pairs.get(record) or self.read_pairs.get(record)
        if found is None:
            built = node_entries(node)
            if json.loads(json.dumps(built)) != list(built):
                return built  # (a value JSON would not give back as it is)
            found = list(built)
        self.kept_pairs[record] = found
        return found[0], found[1]

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
        if self.kept != self.read or self.kept_pairs != self.read_pairs:
            cachefile.write_entry(self.path, {"key": self.key, "texts": dict(sorted(
                self.kept.items())), "entries": dict(sorted(self.kept_pairs.items()))})


def load(config: Config) -> SchemaTexts:
    path = cache.cache_dir(config) / FILE
    key = cache.digest_json({"version": VERSION, "code": cache.code_id()})
    stored = cachefile.read_entry(path, key)
    texts = stored.get("texts") if stored else None
    read = {str(k): v for k, v in (texts.items() if isinstance(texts, dict) else ())
            if isinstance(v, str)}
    pairs = stored.get("entries") if stored else None
    read_pairs = {str(k): v for k, v in (pairs.items() if isinstance(pairs, dict) else ())
                  if isinstance(v, list) and len(v) == 2 and all(isinstance(e, dict) for e in v)}
    return SchemaTexts(path, key, read, read_pairs=read_pairs)
