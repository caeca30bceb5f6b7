"""Text from the app's code made clean text, once, where it enters the model.

Labels, descriptions, JSDoc, handle ids, enum values and type names come from source files
anyone can edit. A character that is not text there (a terminal escape, a bell, NUL, a bidi
control that reorders what a reader sees, a zero-width character that hides in a name, a
stray BOM, a line or paragraph separator) is spelled as the JSON-style escape `\\u001b`, so
no written skill file, schema document or served answer holds it, and a NUL cannot make git
take the guide for binary. Newline, tab and carriage return stay: where a slot must be one
line (a heading, a table cell), its renderer already joins the lines.
"""

from __future__ import annotations

import re
from typing import Any

# C0 controls but tab, newline and carriage return; DEL and C1; zero-width space, non-joiner
# and joiner; line and paragraph separators; bidi embeddings, overrides and isolates; BOM.
UNCLEAN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200d\u2028\u2029"
                     "\u202a-\u202e\u2066-\u2069\ufeff]")


def clean(text: str) -> str:
    """The text with every unclean character spelled `\\uXXXX`."""
    return UNCLEAN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def clean_json(value: Any, keep: frozenset[str] = frozenset()) -> Any:
    """A JSON value with every string (object keys too) cleaned; the values of the object
    keys in `keep` (file paths the run reads again) are left as they are."""
    if isinstance(value, str):
        return clean(value) if UNCLEAN.search(value) else value
    if isinstance(value, list):
        return [clean_json(item, keep) for item in value]
    if isinstance(value, dict):
        return {clean_json(key): item if key in keep else clean_json(item, keep)
                for key, item in value.items()}
    return value
