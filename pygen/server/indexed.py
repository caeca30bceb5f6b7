"""The served node catalog opened through the schema document's index (pygen.schema.doc_index).

`pygen serve` starts without reading the document's entries: validation parses the types it
is asked about, `get_node_skill` the one it answers for, and the search index is built on the
first `search_nodes` call (it reads every entry; nothing else needs all of them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from pygen.schema.doc_index import DocumentIndex, lazy_entries
from pygen.schema.document import DEFS_KEY, HANDLES_KEY
from pygen.server.search import SearchEntry, SearchIndex, entries_from_doc
from pygen.skills.sections import PROSE_SECTIONS, section_text
from pygen.validation.catalog import Catalog


class IndexedDocument(Mapping[str, Any]):
    """The schema document as a mapping whose entries are parsed when first read."""

    def __init__(self, source: DocumentIndex) -> None:
        self._source = source
        self._read: dict[str, Any] = {DEFS_KEY: lazy_entries(source, source.defs),
                                      HANDLES_KEY: lazy_entries(source, source.handles)}

    def __getitem__(self, key: str) -> Any:
        if key not in self._read:
            self._read[key] = self._source.value(self._source.top[key])
        return self._read[key]

    def __contains__(self, key: object) -> bool:
        return key in self._read or key in self._source.top

    def __iter__(self) -> Iterator[str]:
        yield from self._source.top
        yield from (DEFS_KEY, HANDLES_KEY)

    def __len__(self) -> int:
        return len(self._source.top) + 2


class DeferredSearchIndex(SearchIndex):
    """A search index built on its first search, from the entries `make` returns."""

    def __init__(self, make: Callable[[], Sequence[SearchEntry]]) -> None:
        super().__init__(entries=())
        self._make = make
        self._built: SearchIndex | None = None

    def built(self) -> SearchIndex:
        if self._built is None:
            self._built = SearchIndex.build(self._make())
        return self._built

    def search(self, query: str, limit: int = 10) -> list[SearchEntry]:
        return self.built().search(query, limit)

    def unfit(self, query: str) -> list[str]:
        return self.built().unfit(query)


def node_catalog(source: DocumentIndex, name: str, skills: Mapping[str, str] | None = None
                 ) -> tuple[IndexedDocument, Catalog, SearchIndex]:
    """NodeCatalog's parts, as NodeCatalog.from_text makes them of the whole document, made
    as they are used."""
    doc = IndexedDocument(source)

    def entries() -> list[SearchEntry]:
        prose = {t: section_text(s, PROSE_SECTIONS[0]) or "" for t, s in (skills or {}).items()}
        return entries_from_doc(doc, prose)

    return doc, Catalog.from_index(source, name), DeferredSearchIndex(entries)
