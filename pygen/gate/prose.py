"""The prose of a skill file, and the inline code in it, read as CommonMark does.

Prose is the text outside the frontmatter and the AUTO-GEN blocks, parsed with markdown-it
(line maps kept): fenced and indented code, HTML blocks, inline HTML and comments are not
prose, and an escaped backtick (\\`) opens no code span. A code span is a *candidate* name
when, after dropping surrounding quotes and a trailing `?`, it is one identifier (letters,
digits, `_`, `$`, inner `-`): shell commands, JSON snippets, calls like
`get_node_skill(x)`, paths, dotted names and anything with a space never are.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pygen.errors import MarkerError
from pygen.skills import frontmatter, markers

IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:-[A-Za-z0-9_$]+)*")
# GitHub and agents read tables as tables: a cell is inline text of its own.
_PARSER = MarkdownIt("commonmark").enable("table")


def prose_only(text: str, path: str) -> str:
    """`text` with the frontmatter and the AUTO-GEN blocks blanked out; lines stay put."""
    lines = [line.rstrip("\r\n") for line in markers.lines_of(text)]
    head, _ = frontmatter.split(text)
    hidden = [(0, head.count("\n"))]
    with contextlib.suppress(MarkerError):  # the planner reports it; lint what can be read
        hidden += [(block.start_line - 1, block.end_line) for block in markers.parse(text, path)]
    for start, end in hidden:  # whole runs of lines, not a test per line
        end = min(end, len(lines))
        if start < end:
            lines[start:end] = [""] * (end - start)
    return "\n".join(lines)


def code_spans(markdown: str) -> Iterator[tuple[int, str]]:
    """(line, content) of each inline code span of the Markdown's inline text."""
    # No backtick, no code span: most node files' prose (headings, empty sections) is not
    # worth a parse.
    return iter(code(markdown)[0]) if "`" in markdown else iter(())


def code(markdown: str) -> tuple[list[tuple[int, str]], list[str]]:
    """The code spans (as `code_spans`) and the text of each fenced code block, read in one
    parse."""
    spans: list[tuple[int, str]] = []
    fenced: list[str] = []
    for token in _PARSER.parse(markdown):
        if token.type == "inline" and token.map is not None:
            spans += _spans_of(token, token.map[0] + 1)
        elif token.type == "fence":
            fenced.append(token.content)
    return spans, fenced


def _spans_of(token: Token, first_line: int) -> Iterator[tuple[int, str]]:
    """The code spans of one inline token, each at the line its opening backticks are on
    (found in the token's source text, in order, as the parser paired them)."""
    source, cursor = token.content, 0
    for child in token.children or ():
        if child.type != "code_inline":
            continue
        opener = _run(child.markup, r"(?<![`\\])").search(source, cursor)
        start = opener.start() if opener else cursor
        closer = _run(child.markup, "(?<!`)").search(source, opener.end()) if opener else None
        cursor = closer.end() if closer else cursor
        if child.content.strip():
            yield first_line + source.count("\n", 0, start), child.content


def _run(markup: str, not_after: str) -> re.Pattern[str]:
    """A run of exactly these backticks; an opener is not escaped, while inside a span a
    backslash is literal, so the closer may follow one."""
    return re.compile(rf"{not_after}{re.escape(markup)}(?!`)")


def candidate(span: str) -> str | None:
    """The one identifier a code span names, or None (see the module's docstring)."""
    token = span.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
        token = token[1:-1]
    token = token.removesuffix("?")
    # A JSON literal (`true` as a default) names a value, not a field or a type.
    return token if IDENT.fullmatch(token) and token not in _LITERALS else None


_LITERALS = frozenset({"true", "false", "null"})
