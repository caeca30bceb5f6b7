"""The memo of the schema document per entry (`.pygen-cache/schema_text.json`).

- Each node's data schema and `x-handles` entry, by the digest of the node's record (the
  render memo's, pygen.skills.render_memo): they are made of that record alone
  (pygen.schema.document.node_entries). Kept only when JSON gives them back equal.
- Their text as the document holds it, by the sha256 of their compact JSON. The compact
  form is the C encoder's (a few times faster than the indented writer) and fixes the
  indented text.

So a check after one node changed builds and writes that node's entries and copies the rest.

A keyed memo as every memo is (pygen.extract.keyed_memo); only this run's entries are kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from pygen.config import Config
from pygen.extract import cache
from pygen.extract.keyed_memo import MemoFile, Section
from pygen.jsonvalues import pretty_at
from pygen.model import NodeDef
from pygen.schema.document import node_entries
from pygen.schema.node_schema import Schema

FILE = "schema_text.json"
VERSION = 1


@dataclass
class SchemaTexts:
    file: MemoFile
    texts: Section[str]
    pairs: Section[list[Any]]

    def pair(self, node: NodeDef, record: str) -> tuple[Schema, dict[str, Any]]:
        """`node_entries(node)`, from the memo when a node of this record was read before."""
        found = self.pairs.kept.get(record) or self.pairs.read.get(record)
        if found is None:
            built = node_entries(node)
            if json.loads(json.dumps(built)) != list(built):
                return built  # (a value JSON would not give back as it is)
            found = list(built)
        self.pairs.kept[record] = found
        return found[0], found[1]

    def entry(self, value: object, pad: str) -> str:
        """`pretty_at(value, pad)`, from the memo when an entry of this JSON was written."""
        compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(f"{pad}\0{compact}".encode()).hexdigest()
        text = self.texts.kept.get(digest)
        if text is None:
            text = self.texts.read.get(digest)
            self.texts.kept[digest] = text = pretty_at(value, pad) if text is None else text
        return text

    def save(self) -> None:
        self.file.save(self.texts, self.pairs)


def _text(stored: Any) -> str | None:
    return stored if isinstance(stored, str) else None


def _pair(stored: Any) -> list[Any] | None:
    ok = isinstance(stored, list) and len(stored) == 2 and all(isinstance(e, dict)
                                                               for e in stored)
    return stored if ok else None


def load(config: Config) -> SchemaTexts:
    memo = MemoFile.open(cache.cache_dir(config) / FILE,
                         cache.digest_json({"version": VERSION, "code": cache.code_id()}))
    return SchemaTexts(memo, memo.section("texts", _text), memo.section("entries", _pair))
