"""Which offsets of a TypeScript text lie at the top level of the module, outside every
function, class and block body: a catalog is a module's declaration, never a local."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator

# What changes the depth or hides braces: quotes, comments, braces. Everything else is
# skipped in one regex step, not a character at a time.
_STOP = re.compile(r"[\"'`{}]|//|/\*")


def skip_quoted(text: str, i: int) -> int:
    quote = text[i]
    i += 1
    while True:
        end = text.find(quote, i)
        if end < 0:
            return len(text)
        backslashes = len(text[i:end]) - len(text[i:end].rstrip("\\"))
        if backslashes % 2 == 0:
            return end + 1
        i = end + 1


def skip_comment(text: str, i: int) -> int:
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    end = text.find("*/", i + 2)
    return len(text) if end < 0 else end + 2


def code_stops(text: str, stops: re.Pattern[str], i: int = 0) -> Iterator[int]:
    """Offsets of what `stops` finds from `i` on, outside strings and comments (which it
    must also find, so they can be skipped)."""
    while True:
        stop = stops.search(text, i)
        if stop is None:
            return
        i = stop.start()
        if text[i] in "\"'`":
            i = skip_quoted(text, i)
        elif text[i] == "/":
            i = skip_comment(text, i)
        else:
            yield i
            i += 1


def nested_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every outermost `{…}`, strings and comments skipped."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, 0
    for i in code_stops(text, _STOP):
        if text[i] == "{":
            if depth == 0:
                start = i
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    if depth > 0:
        spans.append((start, len(text)))
    return spans


@functools.lru_cache(maxsize=32768)
def top_spans(text: str) -> tuple[tuple[int, int], ...]:
    """`nested_spans` of a whole file, cached: the scan asks of one file from several places
    (its singles, its declarations, its mapped forms), and each walk costs a pass of the
    text."""
    return tuple(nested_spans(text))


class TopLevel:
    """Answers `at(offset)`: is the offset outside every brace pair of the text?"""

    def __init__(self, text: str) -> None:
        self._text = text
        self._spans: tuple[tuple[int, int], ...] | None = None  # found on the first question
        self._starts: list[int] = []

    def at(self, offset: int) -> bool:
        if self._spans is None:
            self._spans = top_spans(self._text)
            self._starts = [s for s, _ in self._spans]
        index = bisect.bisect_right(self._starts, offset) - 1
        return index < 0 or self._spans[index][1] <= offset
