"""Everyday words for what media and text nodes do, grouped by meaning, so a query in a
user's words finds a node its catalog describes in others (`sound` → `audio`).

Only the words of a group that the catalog itself uses are searched for; a group none of
whose words the catalog uses does nothing. The groups are plain English, not any app's
names: the node types, labels and descriptions still come from the catalog alone.
"""

from __future__ import annotations

from collections.abc import Mapping

_GROUPS = (
    "audio sound sounds",
    "image picture photo still frame",
    "video clip movie footage film",
    "music song score track",
    "speech voice narration narrate speak spoken aloud",
    "enlarge upscale bigger larger",
    "volume loudness quieter louder quiet loud",
    "combine join concatenate stitch",
    "trim cut shorten shorter",
    "repeat loop iterate each every",
    "note comment annotation",
)


def synonym_table() -> Mapping[str, tuple[str, ...]]:
    """Word → the other words of its groups."""
    table: dict[str, list[str]] = {}
    for group in _GROUPS:
        members = group.split()
        for word in members:
            table.setdefault(word, []).extend(w for w in members if w != word)
    return {word: tuple(dict.fromkeys(others)) for word, others in table.items()}


SYNONYMS = synonym_table()
