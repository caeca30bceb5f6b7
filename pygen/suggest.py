""""Did you mean": the one way pygen finds a close name and words the hint.

Case conventions first, then edit distance: a data field written in snake_case
(`aspect_ratio` → `aspectRatio`), a node type in another case or with `_`/spaces
(`Generate_Image` → `generate-image`), an enum value in the wrong case. A guess is
*mechanical* when the two names differ only by convention (case, separators, surrounding
whitespace): then a fix may apply it without asking.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

CUTOFF = 0.6
# The most types an unknown type's message names: past it, the nearest (a catalog of
# hundreds listed in full is a wall of text no one reads).
NEAREST_TYPES = 10
# rapidfuzz scores in percent; a hair under the cutoff so rounding never drops a candidate.
_SLACK = 1e-6
_WORD_BREAK = re.compile(r"[\s_\-.]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


class Guess(NamedTuple):
    name: str
    # True when the guess differs from the input only by case and separators.
    mechanical: bool


def words(name: str) -> list[str]:
    """`aspectRatio`, `aspect_ratio`, `Aspect Ratio` and `aspect-ratio` → ["aspect", "ratio"]."""
    parts = _WORD_BREAK.split(_CAMEL.sub(" ", name.strip()))
    return [p.lower() for p in parts if p]


@lru_cache(maxsize=65536)
def normalised(name: str) -> str:
    """The name with case and word separators erased, for convention-blind comparison."""
    return "".join(words(name))


def best_match(word: str, options: Sequence[str], cutoff: float = CUTOFF) -> str | None:
    """What `difflib.get_close_matches(word, options, n=1, cutoff=cutoff)` returns, in the
    time rapidfuzz takes: its Indel ratio is never below difflib's ratio, so it keeps every
    option difflib could pick, and difflib then scores only those (ties go to the greater
    option, as in difflib)."""
    kept = process.extract(word, options, scorer=fuzz.ratio, limit=None,
                           score_cutoff=max(0.0, cutoff * 100 - _SLACK))
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    scored = []
    for option, _, _ in kept:
        matcher.set_seq1(option)
        if matcher.ratio() >= cutoff:
            scored.append((matcher.ratio(), option))
    return max(scored)[1] if scored else None


def guess(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> Guess | None:
    """The candidate the word most likely meant, or None when nothing is close enough."""
    options = list(candidates)
    if not options:
        return None
    key = normalised(word)
    by_convention = [c for c in options if normalised(c) == key]
    if by_convention:
        return Guess(by_convention[0], True)
    found = best_match(word, options, cutoff)
    if found is not None:
        return Guess(found, False)
    plain = {normalised(c): c for c in options}
    found = best_match(key, list(plain), cutoff)
    return Guess(plain[found], False) if found is not None else None


def ranked(word: str, candidates: Sequence[str], limit: int = 3,
           aliases: Iterable[tuple[str, str]] = ()) -> list[str]:
    """Up to `limit` candidates closest to the word, best first.

    `aliases` are (other name, candidate) pairs such as a tool name and the node type it
    fills: a word matching the other name ranks that candidate first.
    """
    key = normalised(word)
    scores: dict[str, float] = {}
    for other, candidate in aliases:
        if normalised(other) == key and candidate in candidates:
            scores[candidate] = 3.0
    for candidate in candidates:
        norm = normalised(candidate)
        score = 2.0 if norm == key else difflib.SequenceMatcher(None, key, norm).ratio()
        if key and (norm.startswith(key) or key.startswith(norm)):
            score = max(score, 0.8)
        scores[candidate] = max(scores.get(candidate, 0.0), score)
    best = sorted((s, c) for c, s in scores.items() if s >= 0.5)
    best.sort(key=lambda pair: (-pair[0], pair[1]))
    return [c for _, c in best[:limit]]


def closest(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The candidate `word` most likely meant (see `guess`), or None."""
    found = guess(word, sorted(set(candidates)), cutoff)
    return found.name if found else None


def hint(shown: str | None) -> str:
    """` (did you mean X?)` with X as the message shows names (quoted, JSON, code); or ''."""
    return f" (did you mean {shown}?)" if shown else ""


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """The hint for a name written in single quotes, as configuration messages write them."""
    found = closest(word, candidates)
    return hint(f"'{found}'" if found else None)


class NameIndex:
    """Names indexed once for repeated look-ups by many words (the prose lint asks for every
    backticked word of every skill): by convention-blind form, and by word count, so a word
    is compared with names of as many words (`targetId` is not a typo of `target`)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.everything: dict[str, str] = {}
        self.by_count: dict[int, dict[str, str]] = {}
        # Sorted, so each convention-blind form keeps the first of its spellings.
        for name in sorted(set(names)):
            key = normalised(name)
            self.everything.setdefault(key, name)
            self.by_count.setdefault(len(words(name)), {}).setdefault(key, name)

    def _pool(self, word: str, same_words: bool) -> Mapping[str, str]:
        return self.by_count.get(len(words(word)), {}) if same_words else self.everything

    def nearest(self, word: str, cutoff: float = CUTOFF, same_words: bool = True) -> str | None:
        """The name that differs from `word` only by convention, else the one most alike
        at or above `cutoff` (compared without case style)."""
        pool, key = self._pool(word, same_words), normalised(word)
        if key in pool:
            return pool[key]
        found = best_match(key, sorted(pool), cutoff)
        return pool[found] if found is not None else None

    def one_typo(self, word: str) -> str | None:
        """The first name one keystroke away (an insertion, deletion, substitution or swap of
        neighbours, which difflib scores low: `promtp`), with as many words."""
        pool, key = self._pool(word, True), normalised(word)
        near = process.extract(key, list(pool), scorer=OSA.distance, limit=None, score_cutoff=1)
        found = [pool[option] for option, distance, _ in near if distance == 1]
        return min(found) if found else None
