"""A short string a `pattern` rule accepts, for worked examples: literals, escapes (`\\d`,
`\\w`, `\\s`, `\\/`), classes (`[a-z0-9-]`), `.`, groups, alternatives (the first is taken) and
quantifiers (the fewest repeats). Anything else (look-arounds, back-references) gives None,
and the caller keeps its own placeholder; every sample is checked against the pattern."""

from __future__ import annotations

import re

_CLASS_ESCAPES = {"d": "0", "w": "a", "s": " ", "D": "a", "W": "-", "S": "a"}
_SPECIAL = frozenset("^$.*+?()[]{}|\\")


class _Unsupported(Exception):
    """A construct the sampler does not read."""


def sample(pattern: str) -> str | None:
    """The sample, when the pattern is within the supported subset and accepts it."""
    try:
        text, end = _alternatives(pattern, 0)
    except (_Unsupported, IndexError):
        return None
    if end != len(pattern):
        return None
    try:
        return text if re.search(pattern, text) is not None else None
    except re.error:
        return None


def _alternatives(pattern: str, i: int) -> tuple[str, int]:
    """The first alternative of a `|` list, up to `)` or the end; the others are skipped."""
    first, i = _sequence(pattern, i)
    while i < len(pattern) and pattern[i] == "|":
        _, i = _sequence(pattern, i + 1)
    return first, i


def _sequence(pattern: str, i: int) -> tuple[str, int]:
    out = []
    while i < len(pattern) and pattern[i] not in "|)":
        atom, i = _atom(pattern, i)
        count, i = _quantifier(pattern, i)
        out.append(atom * count)
    return "".join(out), i


def _atom(pattern: str, i: int) -> tuple[str, int]:
    char = pattern[i]
    if char in "^$":
        return "", i + 1
    if char == ".":
        return "a", i + 1
    if char == "\\":
        nxt = pattern[i + 1]
        if nxt in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[nxt], i + 2
        if nxt.isalnum():
            raise _Unsupported(nxt)  # \b, \1, \p{…}
        return nxt, i + 2
    if char == "[":
        return _class(pattern, i + 1)
    if char == "(":
        if pattern.startswith("(?:", i):
            i += 2
        elif pattern.startswith("(?", i):
            raise _Unsupported("(?")
        text, i = _alternatives(pattern, i + 1)
        if pattern[i] != ")":
            raise _Unsupported(")")
        return text, i + 1
    if char in _SPECIAL:
        raise _Unsupported(char)
    return char, i + 1


def _class(pattern: str, i: int) -> tuple[str, int]:
    """The first member of `[...]`; a negated class is not read."""
    if pattern[i] == "^":
        raise _Unsupported("[^")
    first = pattern[i]
    if first == "\\":
        first = _CLASS_ESCAPES.get(pattern[i + 1], pattern[i + 1])
    end = i + 1
    while pattern[end] != "]" or end == i:
        end += 2 if pattern[end] == "\\" else 1
    return first, end + 1


def _quantifier(pattern: str, i: int) -> tuple[int, int]:
    """How many times the atom is written: the fewest the quantifier allows."""
    if i >= len(pattern):
        return 1, i
    char = pattern[i]
    if char in "*?":
        count, i = 0, i + 1
    elif char == "+":
        count, i = 1, i + 1
    elif char == "{":
        match = re.match(r"\{(\d+)(,\d*)?\}", pattern[i:])
        if match is None:
            raise _Unsupported("{")
        count, i = int(match.group(1)), i + match.end()
    else:
        return 1, i
    if i < len(pattern) and pattern[i] == "?":
        i += 1  # lazy: the same fewest repeats
    return count, i
