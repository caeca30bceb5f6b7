"""Several node skills in one `standard` answer: what one skill said is not said again.

The batch's first worked example (not always its first skill's) shows the whole workflow (the
envelope, ids, positions, edges); each later one is its wiring on one line, with the node's own
data and its neighbours'. A field bullet already given word for word by an earlier skill is its
name and "as above". The whole text of each stays one `get_node_skill(detail="full")` away,
which the first skill spells out and the later ones call `"full"`.

A batch names its types, so the agent has chosen them: each skill's "When to use" (how to
choose the type) is left out, and the gotchas' "each in full" pointer is said once, at the end,
with what the batch left out and how to get it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pygen import jsonread
from pygen.jsonread import JsonInputError
from pygen.server.standard import FULL, GOTCHAS_CUT, PARAMS_NOTE
from pygen.skills.minimal_detail import DATA_LEGEND, LATER_LEGEND
from pygen.skills.sections import HEADING

_EXAMPLE = re.compile(r"(^## Worked example\n\n)(.*?)(?=^## |\Z)", re.DOTALL | re.MULTILINE)
_JSON = re.compile(r"```json\n(.*?)\n```", re.DOTALL)
# The pointer to the full detail, spelled out in the first skill of the batch.
_SHORT = '"full"'
_BULLET = re.compile(r"^(- `[^`]+`(?:, `[^`]+`)*) (?:—|\()")
CHOOSING = "When to use"
# A line led by a bold name: `**Returns:** …` (a value after it) or `**Result fields** (why):`
# (a list below it; the why is what repeats).
_LEAD = re.compile(r"^(?:(?P<said>\*\*[^*\n]+:\*\*) \S.*|(?P<listed>\*\*[^*\n]+\*\*) \([^\n]*\):)$")


def standard_batch(texts: Sequence[str], types: Sequence[str | None]) -> list[str]:
    """The texts of one batch (`types`: each text's node type, None for a message)."""
    seen: set[str] = set()
    shown = spelled = False
    out = []
    cut = chosen = params = False
    several = sum(t is not None for t in types) > 1
    for text, node_type in zip(texts, types, strict=True):
        if node_type is None:
            out.append(text)
            continue
        if several:
            text, gone = _without_lines(text, GOTCHAS_CUT)
            cut = cut or gone
            text, gone = _without_section(text, CHOOSING)
            chosen = chosen or gone
        if params:  # the first tool's parameters said where their types are, for all below
            text = text.replace(PARAMS_NOTE, "(* required)")
        params = params or PARAMS_NOTE in text
        wiring = _wiring(text, node_type) if shown else None
        shown = shown or _EXAMPLE.search(text) is not None
        if wiring is not None:
            text = _with_example(text, wiring)
        text = _said_above(text, seen)
        out.append(_later(text) if spelled else text)
        spelled = True
    left = [what for what, gone in (("each gotcha in full", cut),
                                    (f'each type\'s "{CHOOSING}"', chosen)) if gone]
    if left:
        last = max(i for i, t in enumerate(types) if t is not None)
        out[last] = (out[last].rstrip("\n") + f"\n\n(Left out of this batch: "
                     f"{' and '.join(left)}; get_node_skill(node_type, detail=\"full\") "
                     "has them.)\n")
    return out


def minimal_batch(texts: Sequence[str]) -> list[str]:
    """The minimal texts of one batch: the data legend said by the first skill that has it."""
    out: list[str] = []
    said = False
    for text in texts:
        lines = text.split("\n")
        if said:
            lines = [LATER_LEGEND if line == DATA_LEGEND else line for line in lines]
        said = said or DATA_LEGEND in lines
        out.append("\n".join(lines))
    return out


def _without_lines(text: str, line: str) -> tuple[str, bool]:
    """The text without the lines that are exactly `line` (and the blank line before)."""
    lines = text.splitlines()
    kept: list[str] = []
    for current in lines:
        if current.strip() == line:
            while kept and not kept[-1].strip():
                kept.pop()
            kept.append("")
            continue
        kept.append(current)
    end = "\n" if text.endswith("\n") else ""
    return "\n".join(kept) + end, len(kept) != len(lines) or kept != lines


def _without_section(text: str, title: str) -> tuple[str, bool]:
    """The text without the level-2 section `title` (its heading up to the next heading)."""
    lines = text.splitlines()
    kept: list[str] = []
    skipping = gone = False
    for line in lines:
        heading = HEADING.match(line) if line.startswith("#") else None
        if heading is not None:
            skipping = len(heading.group(1)) == 2 and heading.group(2).strip() == title
            gone = gone or skipping
        if not skipping:
            kept.append(line)
    end = "\n" if text.endswith("\n") else ""
    return "\n".join(kept) + end, gone


def _with_example(text: str, line: str) -> str:
    """The text with its worked example's body replaced by one line."""
    match = _EXAMPLE.search(text)
    if match is None:
        return text
    return f"{text[:match.start(2)]}{line}\n\n{text[match.end(2):]}"


def _wiring(text: str, node_type: str) -> str | None:
    """The worked example as one line, or None when it is not a `{nodes, edges}` workflow of
    `{id, type, data}` nodes (an envelope of its own is shown whole)."""
    section = _EXAMPLE.search(text)
    block = _JSON.search(section.group(2)) if section else None
    try:
        doc = jsonread.loads(block.group(1), node_type) if block else None
    except JsonInputError:
        return None
    if doc is None or not _plain(doc):
        return None
    nodes = {n["id"]: n for n in doc["nodes"]}
    own: dict[str, Any] | None = next((n for n in doc["nodes"] if n["type"] == node_type), None)
    if own is None:
        return None
    data = _compact(own["data"])
    wires = []
    for edge in doc["edges"]:
        source, target = nodes.get(edge.get("source")), nodes.get(edge.get("target"))
        if source is own and target is not None:
            wires.append(f"`{edge.get('sourceHandle')}` → {_node(target)} "
                         f"`{edge.get('targetHandle')}`")
        elif target is own and source is not None:
            wires.append(f"{_node(source)} `{edge.get('sourceHandle')}` → "
                         f"`{edge.get('targetHandle')}`")
    return (f"As in the worked example above, with data `{data}`"
            + (f", wired {'; '.join(wires)}" if wires else "")
            + f" (in full: {FULL}).")


def _later(text: str) -> str:
    """A skill after the first: the pointer to `full` and the handle sides said shortly."""
    text = text.replace(FULL, _SHORT)
    return text.replace(" (target handles):", ":").replace(" (source handles):", ":")


def _plain(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("edges"), list) and isinstance(
        doc.get("nodes"), list) and all(isinstance(n, dict) and {"id", "type", "data"} <= set(n)
                                        and isinstance(n["id"], str) for n in doc["nodes"]) and (
        all(isinstance(e, dict) for e in doc["edges"]))


def _node(node: dict[str, Any]) -> str:
    return f"`{node['type']}`"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _said_above(text: str, seen: set[str]) -> str:
    """Field bullets given word for word earlier in the batch as their names only; a bold
    lead line (`**Returns:** …`, `**Result fields** (…):`) given word for word as its lead."""
    lines = []
    for line in text.splitlines():
        head = _BULLET.match(line)
        lead = _LEAD.match(line) if head is None else None
        if head and line in seen:
            line = f"{head.group(1)} (as above)"
        elif lead and line in seen:
            line = (f"{lead['said']} as above" if lead["said"]
                    else f"{lead['listed']} (as above):")
        elif head or lead:
            seen.add(line)
        lines.append(line)
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")
