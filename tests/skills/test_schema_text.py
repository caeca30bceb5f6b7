"""The schema document's per-entry text memo: a run through it writes the document byte for
byte as a run without it, and writes only the entries whose JSON changed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_run import TWO_NODES_TS, generated, run

from pygen.config import load_config
from pygen.extract import cache
from pygen.jsonvalues import pretty_at
from pygen.model import NodeDef
from pygen.schema.document import node_entries
from pygen.schema.node_schema import Schema
from pygen.skills import schema_text

SCHEMA = "skills/schemas/nodes.schema.json"
ONE_FIELD = TWO_NODES_TS.replace("  strength: number;\n",
                             "  strength: number;\n  /** Added. */\n  glow?: boolean;\n")


def schema(root: Path) -> bytes:
    return (root / SCHEMA).read_bytes()


def test_one_changed_node_writes_one_entry_and_the_same_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cached = generated(tmp_path / "cached", monkeypatch)
    fresh = tmp_path / "fresh"
    shutil.copytree(cached, fresh)
    shutil.rmtree(fresh / ".pygen-cache")
    for root in (cached, fresh):
        (root / "src" / "nodes.ts").write_text(ONE_FIELD)
    written: list[object] = []

    def counting(value: object, pad: str) -> str:
        written.append(value)
        return pretty_at(value, pad)

    built: list[str] = []

    def building(node: NodeDef) -> tuple[Schema, dict[str, Any]]:
        built.append(node.key)
        return node_entries(node)

    monkeypatch.setattr(schema_text, "pretty_at", counting)
    monkeypatch.setattr(schema_text, "node_entries", building)
    assert run(cached, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert built == ["middle"]  # the one node whose record changed
    assert len(written) == 1 and "glow" in str(written[0])  # the middle node's data schema
    assert run(fresh, "gen", "-q", "--no-cache", monkeypatch=monkeypatch).exit_code == 0
    assert schema(cached) == schema(fresh)
    assert run(cached, "check", "-q", monkeypatch=monkeypatch).exit_code == 0


def test_an_entry_is_read_back_by_its_json(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = generated(tmp_path, monkeypatch)
    config = load_config(root / "pygen.toml")
    texts = schema_text.load(config)
    assert texts.texts.read  # the gen above kept its entries
    value = {"type": "object", "properties": {"a": {"type": "number"}}}
    assert texts.entry(value, "\n    ") == pretty_at(value, "\n    ")
    texts.save()
    again = schema_text.load(config)
    digest = next(d for d, t in again.texts.read.items() if t == pretty_at(value, "\n    "))
    cache.write_entry(again.file.path, {"key": again.file.key, "texts": {digest: "forged"}})
    assert schema_text.load(config).entry(value, "\n    ") == "forged"  # read, not written
    assert schema_text.load(config).entry({**value, "b": 1}, "\n    ") != "forged"
