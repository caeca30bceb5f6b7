"""The `field_list.type_words` init proposes: the descriptor type words the extractor could
not map (fields left `unknown`, named by their word), each placed by what its name says
(`longtext` -> string, `multi_select` -> enum_list). A word nothing here places stays
unmapped, and the skills show it as the dialect writes it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pygen.model import DataField, NodeDef

# Parts of a type word and what a word holding one means, tried in this order (the first
# match wins: `multiselect` is a list before it is a select). Data, not code paths.
HINTS: tuple[tuple[str, str], ...] = (
    ("multi", "enum_list"), ("checkboxes", "enum_list"),
    ("select", "enum"), ("radio", "enum"), ("dropdown", "enum"), ("choice", "enum"),
    ("option", "enum"), ("enum", "enum"),
    ("bool", "boolean"), ("checkbox", "boolean"), ("switch", "boolean"), ("toggle", "boolean"),
    ("number", "number"), ("integer", "number"), ("float", "number"), ("decimal", "number"),
    ("slider", "number"), ("int", "number"),
    ("json", "object"), ("object", "object"), ("dict", "object"), ("keyvalue", "object"),
    ("array", "list"), ("list", "list"), ("tags", "list"),
    ("text", "string"), ("string", "string"), ("password", "string"), ("email", "string"),
    ("url", "string"), ("code", "string"), ("markdown", "string"), ("date", "string"),
    ("time", "string"), ("cron", "string"), ("color", "string"), ("prompt", "string"),
    ("secret", "string"), ("phone", "string"), ("file", "string"),
)


def place(word: str) -> str | None:
    """What a type word means, by the parts of its name; None when nothing says."""
    flat = re.sub(r"[^a-z]", "", word.lower())
    return next((meaning for part, meaning in HINTS if part in flat), None)


def unknown_words(nodes: Iterable[NodeDef]) -> list[str]:
    """The type words of the fields the map left unknown, in first-seen order."""
    seen: dict[str, None] = {}

    def walk(fields: Iterable[DataField]) -> None:
        for f in fields:
            ref = f.type.items if f.type.kind == "array" and f.type.items else f.type
            if ref.kind == "unknown" and ref.text:
                seen.setdefault(ref.text)
            walk(ref.fields)

    for node in nodes:
        if node.data_type.via == "field-list":
            walk(node.data_type.fields)
    return list(seen)


def propose(nodes: Iterable[NodeDef]) -> dict[str, str]:
    """`type_words` for the unknown words that `place` can place, sorted by word."""
    return dict(sorted((w, m) for w in unknown_words(nodes) if (m := place(w)) is not None))
