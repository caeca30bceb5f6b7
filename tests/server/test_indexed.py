"""The served catalog opened through gen's index answers as the one parsed whole."""

from __future__ import annotations

from pathlib import Path

from pygen.schema.doc_index import open_beside
from pygen.server.indexed import node_catalog
from pygen.server.node_tools import NodeCatalog
from pygen.server.search import search_text
from pygen.server.store import load_store

SKILLS = Path(__file__).resolve().parents[2] / "skills"


def test_the_indexed_catalog_answers_as_the_whole_one() -> None:
    path = SKILLS / "schemas" / "nodes.schema.json"
    data = path.read_bytes()
    skills = load_store(SKILLS).nodes
    whole = NodeCatalog.from_text(data, str(path), skills)
    opened = open_beside(path, data)
    assert opened is not None
    indexed = NodeCatalog(*node_catalog(opened, str(path), skills))
    assert indexed.types == whole.types
    assert indexed.aliases() == whole.aliases()
    assert [indexed.minimal(t) for t in whole.types] == [whole.minimal(t) for t in whole.types]
    assert [indexed.full_extra(t) for t in whole.types] == [
        whole.full_extra(t) for t in whole.types]
    for query in ("image", "prompt text", "vidoe", "zzz"):
        assert search_text(indexed.index, query) == search_text(whole.index, query)
    assert indexed.catalog.conventions == whole.catalog.conventions
    assert dict(indexed.catalog.variant_of) == whole.catalog.variant_of
