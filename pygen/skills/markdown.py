"""Inline Markdown pieces every renderer shares: code spans and table cells that never break."""

from __future__ import annotations


def code(text: str, *, table: bool = False) -> str:
    """An inline code span that survives any content: one line, a fence longer than any run of
    backticks inside; in a table cell (`table=True`) pipes are escaped too (GFM allows `\\|`)."""
    text = " ".join(text.split())
    fence = "`"
    while fence in text:
        fence += "`"
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    span = f"{fence}{padded}{fence}"
    return span.replace("|", "\\|") if table else span


def cell(text: str) -> str:
    """Text safe inside a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def one_line(text: str) -> str:
    """Text for a one-line place (a heading, a list item): its whitespace runs, newlines
    included, become one space, so text from the code cannot start a line of its own."""
    return " ".join(text.split())
