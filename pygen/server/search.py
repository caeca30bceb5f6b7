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
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pygen.schema.document import VARIANTS_KEY
from pygen.server.synonyms import SYNONYMS
from pygen.suggest import words

# How much a word found in each part of an entry counts.
WEIGHTS: Mapping[str, float] = {
    "type": 6.0, "label": 5.0, "category": 3.0, "tool": 3.0, "handle": 2.0, "field": 2.0,
    "enum": 1.0, "description": 1.5, "notes": 1.0, "prose": 0.75,
}
# Words a query phrased as a sentence carries that say nothing about a node ("add sound to
# a video"): left out of queries, so `to` does not prefix-match `tool`.
_FILLER = frozenset((
    "a", "an", "and", "the", "to", "of", "for", "in", "into", "on", "onto", "with", "from", "by",
    "my", "me", "i", "want", "need", "some", "make", "do", "it", "its", "this", "that",
))
# `voice-over`: a compound the catalog hyphenates is also searchable written as one word,
# the way users often type it (`voiceover`).
_COMPOUND = re.compile(r"\b([A-Za-z]+)-(?=([A-Za-z]+)\b)")
# A prefix, one-edit, same-stem or split-compound match counts this share of an exact one.
_PREFIX, _FUZZY, _STEM, _SPLIT, _SYNONYM = 0.7, 0.5, 0.8, 0.5, 0.6
_SUFFIXES = ("ness", "ing", "ers", "est", "ed", "er", "es", "ly", "s")
_CODE = re.compile(r"`[^`]*`")
_NOT_WORD = re.compile(r"[^A-Za-z0-9\-]+")
_FREE_TEXT = frozenset({"description", "notes", "prose"})
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
    # The tool's description and the fields' descriptions.
    notes: str = ""
    # What people wrote about the node ("When to use").
    prose: str = ""
    # The purpose shown when the node has no description: its tool's, else the prose's.
    fallback: str = ""

    def line(self) -> str:
        """`type — Label (category): first sentence.`"""
        head = f"{self.type} — {self.label}" if self.label else self.type
        head += f" ({self.category})" if self.category else ""
        purpose = first_sentence(self.description) or first_sentence(self.fallback)
        return f"{head}: {purpose}" if purpose else head

    def parts(self) -> Iterable[tuple[str, str]]:
        """(part name, text) of everything searchable."""
        yield "type", self.type
        yield "label", self.label
        yield "category", self.category
        yield "tool", self.tool
        yield "description", self.description
        yield "notes", self.notes
        yield "prose", self.prose
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
                for word in _indexed(text, free=part in _FREE_TEXT):
                    weight = WEIGHTS[part]
                    if postings[word].get(i, 0.0) < weight:
                        postings[word][i] = weight
        # A word most types share tells them apart less (`video` in a video editor).
        for word, hits in postings.items():
            # `videos` is as common as `video`: count the stem's entries too.
            count = max(len(hits), len(postings.get(stem(word), ())))
            rarity = math.log((len(entries) + 1) / count)
            for i in hits:
                hits[i] *= rarity
        deletions: dict[str, set[str]] = defaultdict(set)
        for word in postings:
            for variant in _deletions(word):
                deletions[variant].add(word)
        return cls(entries, dict(postings), dict(deletions), tuple(sorted(postings)))

    def search(self, query: str, limit: int = 10) -> list[SearchEntry]:
        scores: dict[int, float] = defaultdict(float)
        for word in dict.fromkeys(w for w in words(query) if w not in _FILLER):
            for i, score in self._word_scores(word).items():
                scores[i] += score
        best = heapq.nsmallest(limit, scores, key=lambda i: (-scores[i], self.entries[i].type))
        return [self.entries[i] for i in best]

    def unfit(self, query: str) -> list[str]:
        """The query's words that no entry has, as a word, its stem, a prefix, within one
        edit (a typo) or as a synonym: only halves of it (`over` + `lay` for `overlay`)
        are too weak to say a type fits the word."""
        return [w for w in dict.fromkeys(w for w in words(query) if w not in _FILLER)
                if not self._matches(w) and stem(w) not in self.postings and not any(
                    o in self.postings for o in (*SYNONYMS.get(w, ()),
                                                 *SYNONYMS.get(stem(w), ())))]

    def _word_scores(self, word: str) -> dict[int, float]:
        """Entry → what one query word scores there: its best match, so a word and its
        synonyms, stem and prefixes found in one entry count once."""
        expanded = list(self._expanded(word).items())
        if len(expanded) == 1:  # the common case, without the max below
            matched, share = expanded[0]
            return {i: weight * share for i, weight in self.postings[matched].items()}
        best: dict[int, float] = {}
        for matched, share in expanded:
            for i, weight in self.postings[matched].items():
                score = weight * share
                if score > best.get(i, 0.0):
                    best[i] = score
        return best

    def _expanded(self, word: str) -> dict[str, float]:
        """The word's matches, its stem's, and those of the two indexed words it may be
        written together from (`voiceover` → `voice`, `over`), each at a lower share."""
        found = self._matches(word)
        if word in self.postings:
            # `videos` is `video` again: counting both would rank a plural type twice.
            found = {k: v for k, v in found.items() if k == word or stem(k) != stem(word)}
        if stem(word) in self.postings:
            found.setdefault(stem(word), _STEM)
        for other in (*SYNONYMS.get(word, ()), *SYNONYMS.get(stem(word), ())):
            if other in self.postings:
                found.setdefault(other, _SYNONYM)
        for cut in range(3, len(word) - 2):
            head, tail = word[:cut], word[cut:]
            if head in self.postings and tail in self.postings:
                found.setdefault(head, _SPLIT)
                found.setdefault(tail, _SPLIT)
        return found

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


def _indexed(text: str, free: bool) -> list[str]:
    """The words a text is found by: each word and its stem, and in free text its hyphenated
    compounds. Code spans are left out: in prose they name other nodes and fields."""
    plain = _NOT_WORD.sub(" ", _CODE.sub(" ", text)) if free else text
    found = words(plain)
    return [*found, *(stem(w) for w in found), *(compounds(plain) if free else ())]


def stem(word: str) -> str:
    """The word without one common English suffix (`louder`, `loudness` → `loud`), when at
    least four letters remain; else the word."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def compounds(text: str) -> list[str]:
    """Hyphenated pairs of words joined into one (`voice-over` → `voiceover`): the synonym a
    user types for a compound the catalog spells with a hyphen."""
    return [(a + b).lower() for a, b in _COMPOUND.findall(text)
            if len(a) > 2 and len(b) > 2 and a.lower() not in _FILLER
            and b.lower() not in _FILLER]


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))} if len(word) >= _MIN_FUZZY else set()


def entries_from_doc(doc: Mapping[str, Any],
                     prose: Mapping[str, str] | None = None) -> list[SearchEntry]:
    """One entry per node type of a schema document (`$defs`, `x-handles`, `x-nodes`), with
    what people wrote about each type (`prose`, by type) when given."""
    handles, meta = doc.get("x-handles", {}), doc.get("x-nodes", {})
    out: list[SearchEntry] = []
    for node_type, schema in doc.get("$defs", {}).items():
        if isinstance(schema, Mapping) and VARIANTS_KEY in schema:
            continue  # the choice among a type's variants: each variant has its own entry
        info = meta.get(node_type, {}) if isinstance(meta, Mapping) else {}
        sides = handles.get(node_type, {}) if isinstance(handles, Mapping) else {}
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
            notes=" ".join([str(info.get("toolDescription") or ""), *(
                str(p.get("description", "")) for p in props.values() if isinstance(p, dict))]),
            prose=(prose or {}).get(node_type, ""),
            fallback=str(info.get("toolDescription") or "") or " ".join(
                (prose or {}).get(node_type, "").split()),
        ))
    return out


NEAREST = 3  # hits shown when the query's main words fit no type


def search_text(index: SearchIndex, query: str, limit: int = 10) -> str:
    """The tool's answer: one line per hit, or a line saying nothing matched."""
    hits = index.search(query, limit)
    if not hits:
        return (f"No node type matches {query!r}. Try fewer or other words; "
                "start_workflow_editor lists every type.")
    said = [w for w in dict.fromkeys(words(query)) if w not in _FILLER]
    unfit = index.unfit(query)
    if len(unfit) * 2 >= len(said):
        # Most of what was asked for is in no type: the hits only share the other words.
        # A ranking on the words left would read as an answer: the few nearest are named as
        # such, with the words they share, so the agent can ask again in other words.
        missing = ", ".join(f"'{w}'" for w in unfit)
        other = ", ".join(f"'{w}'" for w in said if w not in unfit)
        near = hits[:NEAREST]
        head = (f"No node type fits {missing}: no type's name, description or fields has "
                f"{'it' if len(unfit) == 1 else 'them'}. "
                f"The nearest {len(near)}, by {other} only:")
        return "\n".join([head, *(hit.line() for hit in near)])
    return "\n".join(hit.line() for hit in hits)
