"""The schema document's index: each span is its entry's text, the tables are the catalog's,
and an index made from another document is refused (the document is then read whole)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pygen.jsonvalues import pretty
from pygen.schema.doc_index import DocumentIndex, IndexMismatch, index_text, lazy_entries
from pygen.validation.catalog import Catalog

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "skills" / "schemas"


def test_the_committed_index_is_the_committed_documents() -> None:
    data = (SCHEMAS / "nodes.schema.json").read_bytes()
    doc = json.loads(data)
    source = DocumentIndex.open(data, (SCHEMAS / "nodes.index.json").read_bytes())
    assert dict(lazy_entries(source, source.defs)) == doc["$defs"]
    assert dict(lazy_entries(source, source.handles)) == doc["x-handles"]
    assert {k: source.value(v) for k, v in source.top.items()} == {
        k: v for k, v in doc.items() if k not in ("$defs", "x-handles")}
    whole = Catalog.from_json(data, "doc")
    assert (source.variant_of, source.field_owners) == (whole.variant_of, whole.field_owners)


def test_names_and_values_beyond_ascii_and_empty_objects() -> None:
    doc = {"$schema": "x", "$defs": {"ä-node": {"description": "naïve \"q\"\\n", "type":
                                               "object", "properties": {"é": {}}},
                                    "b": {}},
           "x-handles": {}, "x-nodes": {"ä-node": {"label": "Ä"}}}
    text = pretty(doc) + "\n"
    source = DocumentIndex.open(text.encode(), index_text(doc, text).encode())
    assert dict(lazy_entries(source, source.defs)) == doc["$defs"]
    assert source.handles == {} and source.field_owners == {"é": ["ä-node"]}
    assert source.value(source.top["x-nodes"]) == doc["x-nodes"]


@pytest.mark.parametrize("index", [b"{", b"[]", b'{"format": 1, "document": {"sha256": "0"}}'])
def test_an_index_of_another_document_is_refused(index: bytes) -> None:
    with pytest.raises(IndexMismatch):
        DocumentIndex.open(b"{}\n", index)


def test_gen_writes_the_index_and_check_fails_when_it_drifts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cli_run import generated, run

    root = generated(tmp_path, monkeypatch)
    index = root / "skills" / "schemas" / "nodes.index.json"
    data = (root / "skills" / "schemas" / "nodes.schema.json").read_bytes()
    assert DocumentIndex.open(data, index.read_bytes()).defs.keys() == {"middle", "note"}
    index.write_text(index.read_text(encoding="utf-8").replace('"format": 1', '"format": 2'),
                     encoding="utf-8")
    result = run(root, "check", "--no-cache", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "nodes.index.json" in result.output
