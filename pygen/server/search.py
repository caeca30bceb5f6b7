"""`search_nodes`: ranked, typo-tolerant search over the node catalog, one line per hit.

Pure functions over `SearchEntry`s (built from the schema document `pygen gen` writes). Every
name is split into words (kebab, snake and camel case alike), so `videoGen`, `video_gen` and
`video-gen` search the same words. A query word matches an indexed word exactly, as a prefix,
or within one edit (a deletion index, so fuzzy matching stays fast on thousands of nodes).
Fields weigh differently: a hit on the type or label ranks above one in a description.
"""

from __future__ import annotations

import bisect
import heapq
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pygen.skills.node_schemas import VARIANTS_KEY
from pygen.suggest import words

# How much a word found in each part of an entry counts.
WEIGHTS: Mapping[str, float] = {
    "type": 6.0, "label": 5.0, "category": 3.0, "tool": 3.0, "handle": 2.0, "field": 2.0,
    "enum": 1.0, "description": 1.0,
}
_PREFIX, _FUZZY = 0.7, 0.5  # a prefix or one-edit match counts this share of an exact one
_MIN_FUZZY = 4  # shorter words match exactly or by prefix only


@dataclass(frozen=True)
class SearchEntry:
    type: str
    label: str = ""
    category: str = ""
    description: str = ""
    tool: str = ""
    fields: tuple[str, ...] = ()
    handles: tuple[str, ...] = ()
    enums: tuple[str, ...] = ()

    def line(self) -> str:
        """`type — Label (category): first sentence.`"""
        head = f"{self.type} — {self.label}" if self.label else self.type
        head += f" ({self.category})" if self.category else ""
        purpose = first_sentence(self.description)
        return f"{head}: {purpose}" if purpose else head

    def parts(self) -> Iterable[tuple[str, str]]:
        """(part name, text) of everything searchable."""
        yield "type", self.type
        yield "label", self.label
        yield "category", self.category
        yield "tool", self.tool
        yield "description", self.description
        yield from (("field", f) for f in self.fields)
        yield from (("handle", h) for h in self.handles)
        yield from (("enum", e) for e in self.enums)


def first_sentence(text: str, limit: int = 120) -> str:
    sentence = text.strip().split(". ")[0].strip()
    sentence = sentence if sentence.endswith(".") else (sentence + "." if sentence else "")
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"


@dataclass
class SearchIndex:
    """Word → {entry position: weight}, plus a one-deletion index for fuzzy matches."""

    entries: Sequence[SearchEntry]
    postings: dict[str, dict[int, float]] = field(default_factory=dict)
    deletions: dict[str, set[str]] = field(default_factory=dict)
    vocabulary: tuple[str, ...] = ()

    @classmethod
    def build(cls, entries: Sequence[SearchEntry]) -> SearchIndex:
        postings: dict[str, dict[int, float]] = defaultdict(dict)
        for i, entry in enumerate(entries):
            for part, text in entry.parts():
                for word in words(text):
                    weight = WEIGHTS[part]
                    if postings[word].get(i, 0.0) < weight:
                        postings[word][i] = weight
        deletions: dict[str, set[str]] = defaultdict(set)
        for word in postings:
            for variant in _deletions(word):
                deletions[variant].add(word)
        return cls(entries, dict(postings), dict(deletions), tuple(sorted(postings)))

    def search(self, query: str, limit: int = 10) -> list[SearchEntry]:
        scores: dict[int, float] = defaultdict(float)
        for word in dict.fromkeys(words(query)):
            for matched, share in self._matches(word).items():
                for i, weight in self.postings[matched].items():
                    scores[i] += weight * share
        best = heapq.nsmallest(limit, scores, key=lambda i: (-scores[i], self.entries[i].type))
        return [self.entries[i] for i in best]

    def _matches(self, word: str) -> dict[str, float]:
        """Indexed words this query word stands for, each with its share of a full match."""
        found: dict[str, float] = {}
        if word in self.postings:
            found[word] = 1.0
        if len(word) >= 2:
            for other in self._prefixed(word):
                found.setdefault(other, _PREFIX)
        if len(word) >= _MIN_FUZZY and not found:
            for variant in (word, *_deletions(word)):
                for other in self.deletions.get(variant, ()):
                    found.setdefault(other, _FUZZY)
                if variant in self.postings:
                    found.setdefault(variant, _FUZZY)
        return found

    def _prefixed(self, word: str) -> list[str]:
        start = bisect.bisect_left(self.vocabulary, word)
        out: list[str] = []
        for other in self.vocabulary[start:]:
            if not other.startswith(word):
                break
            if other != word:
                out.append(other)
        return out


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))} if len(word) >= _MIN_FUZZY else set()


def entries_from_doc(doc: Mapping[str, Any]) -> list[SearchEntry]:
    """One entry per node type of a schema document (`$defs`, `x-handles`, `x-nodes`)."""
    handles, meta = doc.get("x-handles", {}), doc.get("x-nodes", {})
    out: list[SearchEntry] = []
    for node_type, schema in doc.get("$defs", {}).items():
        if isinstance(schema, dict) and VARIANTS_KEY in schema:
            continue  # the choice among a type's variants: each variant has its own entry
        info = meta.get(node_type, {}) if isinstance(meta, dict) else {}
        sides = handles.get(node_type, {}) if isinstance(handles, dict) else {}
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        out.append(SearchEntry(
            type=node_type,
            label=str(info.get("label", "")),
            category=str(info.get("category", "")),
            description=str(schema.get("description", "")),
            tool=str(info.get("tool") or ""),
            fields=tuple(props),
            handles=tuple(h for side in ("inputs", "outputs")
                          for h in sides.get(side, ()) if isinstance(h, str)),
            enums=tuple(str(v) for p in props.values() if isinstance(p, dict)
                        for v in p.get("enum", ())),
        ))
    return out


def search_text(index: SearchIndex, query: str, limit: int = 10) -> str:
    """The tool's answer: one line per hit, or a line saying nothing matched."""
    hits = index.search(query, limit)
    if not hits:
        return (f"No node type matches {query!r}. Try fewer or other words; "
                "start_workflow_editor lists every type.")
    return "\n".join(hit.line() for hit in hits)
