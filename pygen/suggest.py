""""Did you mean": the one way pygen finds a close name and words the hint."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6


def closest(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The candidate that differs from `word` only in case, else the most similar one."""
    options = sorted(set(candidates))
    lowered = {option.lower(): option for option in options}
    if word.lower() in lowered:
        return lowered[word.lower()]
    found = difflib.get_close_matches(word, options, n=1, cutoff=cutoff)
    return found[0] if found else None


def hint(shown: str | None) -> str:
    """` (did you mean X?)` with X as the message shows names (quoted, JSON, code); or ''."""
    return f" (did you mean {shown}?)" if shown else ""


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """The hint for a name written in single quotes, as configuration messages write them."""
    found = closest(word, candidates)
    return hint(f"'{found}'" if found else None)
