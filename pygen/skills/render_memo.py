"""The per-node render memo (`.pygen-cache/render.json`): a node whose inputs did not change
since the last run is not rendered again.

A node's generated blocks are a function of its own extracted record, the records of the
neighbours its worked example wires it to (chosen afresh on every run from this run's handle
index, so a new handle type elsewhere that changes the choice changes the key), the saved
examples found for it, the conventions, the definitions label and pygen's own code. The
digest of exactly these is the node's key. An entry keeps the blocks rendered under its key
and the sha256 of the file text they were planned into (which they leave as it is): when
the key and the committed file's bytes both match, the planned text is that file's text,
with nothing rendered, parsed or restamped.

A keyed memo as every memo is (pygen.extract.keyed_memo): a version stamp in the key,
anything damaged or from another pygen ignored and rebuilt, only the entries of this run's
nodes written back, so the memo never outgrows the catalog.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pygen.config import Config
from pygen.extract import cache
from pygen.extract.keyed_memo import MemoFile, Section
from pygen.model import Model, NodeDef
from pygen.skills.neighbours import HandleIndex
from pygen.skills.saved_examples import SavedExample
from pygen.skills.wired_example import neighbours

FILE = "render.json"
# Bumped when what an entry holds changes shape.
VERSION = 1
# The parts of a node record no rendered block is made of: source locations.
UNSHOWN: dict[str, Any] = {"source": True, "computed": {"__all__": {"file", "line"}}}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Entry:
    """A node's rendered blocks under one key, and the file text they leave unchanged."""

    key: str
    blocks: dict[str, str]
    unchanged: str


@dataclass
class RenderMemo:
    """The entries read at the start of a run, and those this run leaves for the next."""

    file: MemoFile
    nodes: Section[Entry]
    records: dict[str, str] = field(default_factory=dict)

    def record(self, node: NodeDef) -> str:
        """The digest of a node's extracted record (its bytes as pydantic writes them), less
        where it sits in the source, which no skill file shows: an edit above a node in a
        file of many keeps that node's key."""
        found = self.records.get(node.key)
        if found is None:
            found = self.records[node.key] = hashlib.sha256(node.model_dump_json(
                exclude=UNSHOWN).encode("utf-8")).hexdigest()
        return found

    def node_key(self, node: NodeDef, index: HandleIndex, definitions: str,
                 real: Sequence[SavedExample]) -> str:
        """Everything the node's blocks are made of, as one digest."""
        wired = [None if n is None else [self.record(n[0]), n[1]]
                 for n in neighbours(node, index)]
        return cache.digest_json({"node": self.record(node), "wired": wired,
                                  "definitions": definitions,
                                  "real": [[r.file, r.data] for r in real]})

    def blocks(self, node_key: str, key: str) -> dict[str, str] | None:
        entry = self.nodes.read.get(node_key)
        return dict(entry.blocks) if entry is not None and entry.key == key else None

    def unchanged(self, node_key: str, key: str, existing: str) -> bool:
        """Whether the blocks under `key` are known to leave `existing` as it is."""
        entry = self.nodes.read.get(node_key)
        return entry is not None and entry.key == key and entry.unchanged == _sha(existing)

    def keep(self, node_key: str, key: str, blocks: Mapping[str, str], new: str) -> None:
        # Planning is idempotent (a file gen wrote is current for the same inputs, which
        # `check` after `gen` relies on): the planned text is the one these blocks leave.
        self.nodes.kept[node_key] = Entry(key, dict(blocks), _sha(new))

    def save(self) -> None:
        """Write what this run rendered; a memo that cannot be written only costs speed."""
        self.file.save(self.nodes)


def _entry(stored: Any) -> Entry | None:
    """A stored entry, or None when it does not have the shape `_dump` writes."""
    if not isinstance(stored, dict):
        return None
    key, blocks, unchanged = stored.get("key"), stored.get("blocks"), stored.get("unchanged")
    if isinstance(key, str) and isinstance(blocks, dict) and isinstance(unchanged, str) \
            and all(isinstance(v, str) for v in blocks.values()):
        return Entry(key, blocks, unchanged)
    return None


def _dump(entry: Entry) -> dict[str, Any]:
    return {"key": entry.key, "blocks": entry.blocks, "unchanged": entry.unchanged}


def load(config: Config, model: Model) -> RenderMemo:
    """The memo for this run: its entries count only under this pygen, config and
    conventions (the memo's own key)."""
    path = cache.cache_dir(config) / FILE
    key = cache.digest_json({"version": VERSION, "code": cache.code_id(),
                             "settings": config.settings.model_dump(mode="json"),
                             "conventions": model.conventions.model_dump(mode="json"),
                             "skills": str(config.skills_dir)})
    memo = MemoFile.open(path, key)
    return RenderMemo(memo, memo.section("nodes", _entry, _dump))
