"""The guide as served names exactly the tools this server serves.

The editor guide's generated `tools` block lists this server's tools beside the app's own
server's. A server started without a schema document or a protocol registry serves fewer, so
the block is rewritten from the server's own tool list when the guide is served: a tool the
server lacks is left out, one it has that the block does not name is added with the first
sentence of its description. The app's own tools (the block's later sections) stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pygen.skills.catalog_text import SERVED_HEADING, TOOLS_BLOCK

_BLOCK = re.compile(rf"(<!-- AUTO-GEN:START {TOOLS_BLOCK} -->\n)(.*?)(<!-- AUTO-GEN:END "
                    rf"{TOOLS_BLOCK} -->)", re.DOTALL)
_LINE = re.compile(r"^- `([^`]*)`")


def with_served_tools(text: str, served: Mapping[str, str]) -> str:
    """`text` with its tools block's first list naming only (and all of) the `served` tools
    (name → description); orchestrators' `start_*` tools are listed by their own skills."""
    match = _BLOCK.search(text)
    if match is None:
        return text
    head, _, rest = match.group(2).partition("\n\n")
    # An empty block (a guide that leaves the list to the server) gets the usual heading.
    lines = head.splitlines() or [SERVED_HEADING]
    kept = [lines[0]] + [line for line in lines[1:] if _all_served(line, served)]
    named = {name for line in kept[1:] for name in _names(line)}
    kept += [f"- `{name}`: {_first_sentence(served[name])}" for name in sorted(served)
             if name not in named and not name.startswith("start_")]
    body = "\n".join(kept) + ("\n\n" + rest if rest else "\n")
    return text[:match.start(2)] + body + text[match.end(2):]


def _names(line: str) -> list[str]:
    match = _LINE.match(line)
    if match is None:
        return []
    # "a(x, y), b" names a and b: split on commas outside parentheses.
    return [re.split(r"[(\s]", part.strip())[0]
            for part in re.split(r",(?![^()]*\))", match.group(1))]


def _all_served(line: str, served: Mapping[str, str]) -> bool:
    names = _names(line)
    return bool(names) and all(name in served for name in names)


def _first_sentence(text: str) -> str:
    sentence = " ".join(text.split()).split(". ")[0].rstrip(".")
    return sentence[:1].lower() + sentence[1:] if sentence else "(no description)"
