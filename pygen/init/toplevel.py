"""Which offsets of a TypeScript text lie at the top level of the module, outside every
function, class and block body: a catalog is a module's declaration, never a local."""

from __future__ import annotations

import bisect


def _skip_quoted(text: str, i: int) -> int:
    quote = text[i]
    i += 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _skip_comment(text: str, i: int) -> int:
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    end = text.find("*/", i + 2)
    return len(text) if end < 0 else end + 2


def nested_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every outermost `{…}`, strings and comments skipped."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        char = text[i]
        if char in "\"'`":
            i = _skip_quoted(text, i)
            continue
        if text.startswith(("//", "/*"), i):
            i = _skip_comment(text, i)
            continue
        if char == "{":
            if depth == 0:
                start = i
            depth += 1
        elif char == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
        i += 1
    if depth > 0:
        spans.append((start, len(text)))
    return spans


class TopLevel:
    """Answers `at(offset)`: is the offset outside every brace pair of the text?"""

    def __init__(self, text: str) -> None:
        self._spans = nested_spans(text)
        self._starts = [s for s, _ in self._spans]

    def at(self, offset: int) -> bool:
        index = bisect.bisect_right(self._starts, offset) - 1
        return index < 0 or self._spans[index][1] <= offset
