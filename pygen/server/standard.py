"""The `standard` detail of a node skill: the skill file as an agent needs it, ~1,000 tokens.

The file on disk is written for people and the drift gate too; an agent building a node reads
it without what it does not act on: the frontmatter and block markers, the tool's parameter
tables (the data fields above name the same values; `detail="full"` has the tables), default
data spread over many lines, long enum lists and fields nested more than one level deep.
Gotchas are kept whole while the text fits its budget, else cut to their first sentence. A
field whose type is a bare name (`headers: HeaderMap`) gets its shape from the schema.
Everything cut is named with a pointer to `full`. A block another tool keeps in the file (an
AUTO-GEN id pygen does not write) is left out too, named, with the same pointer: it is what
its team wrote for other tasks, and can be longer than the node's own text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pygen import jsonread
from pygen.jsonread import JsonInputError
from pygen.skills.markers import END, START
from pygen.skills.render import own_blocks
from pygen.skills.render_tools import type_text
from pygen.skills.sections import COMMENT, HEADING

BUDGET = 3200  # characters (~800 tokens) before gotchas are cut: the total stays ~1,000
FULL = 'get_node_skill(detail="full")'
GOTCHAS_CUT = f"(Each gotcha in full: {FULL}.)"
PARAMS_NOTE = f"(* required; types, here and below: {FULL})"
_ENUM_SHOWN = 8
_FRONTMATTER = re.compile(r"\A---\n.*?\n---\n+", re.DOTALL)
_TABLE = re.compile(r"^\*\*(Parameters|Returns)[^*\n]*\*\*[^\n]*\n\n((?:\|[^\n]*\n)+)",
                    re.MULTILINE)
_NAME = re.compile(r"^- `(\w+)\??: ")
# What the line of each kind says beside the names (a result's heading says what results are).
_OWNED = {"runner": "the runner writes these; ", "result": ""}
# Where a list came from (`(from `GenerateImageData`)`): the maintainer's concern, not the agent's.
_SOURCE_NAME = re.compile(r"^\*\*(Required data fields|Default data)\*\* \(from `[^`\n]+`\):",
                          re.MULTILINE)
# A field typed by an alias whose values are listed: the values say it, the alias name does not.
_ALIAS_ENUM = re.compile(r"^(\s*- `\w+\??): [A-Za-z_$][\w$]*` — one of ", re.MULTILINE)
_FIELD = re.compile(r"^(\s*)- `(\w+)\??: ([A-Za-z_$][\w$]*)`")
_ENUM_ITEM = re.compile(r"^\s+- `[^`]*`\s*$")
_JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.DOTALL)
# A run of `- **Key:** value` bullets (the node's facts) and one of them.
_FACTS = re.compile(r"(?:^- \*\*[^*\n]+:\*\* [^\n]*\n){2,}", re.MULTILINE)
_MCP_SECTION = re.compile(r"^## MCP call$", re.MULTILINE)
_FACT = re.compile(r"^- \*\*([^*\n]+):\*\* (.*)$", re.MULTILINE)
# The end of a sentence: a full stop after a word (not `e.g.` or a number) before a space.
# An optional object's bullet, and an optional field's one level inside it.
_OPTIONAL_TOP = re.compile(r"^- `\w+\?: ")
_OPTIONAL_INNER = re.compile(r"^  - `(\w+)\?: (?:((?:\"[^\"`|]*\"(?: \| )?)+)`)?")
_COLLECTION = 4
# One clause of a condition (`resource` is `message`, `operation` is one of `post`, `update`,
# `select` is not `user`) and the `and` between two, served as `resource=message`,
# `operation=post|update`, `select!=user`, joined by commas: the same condition in a third of
# the characters, where a field is listed under many. Values that would read ambiguously so
# (empty, or holding a separator) keep the words.
_CLAUSE = re.compile(r"`(@?\w+)` is (not |none of |one of )?((?:`[^`]*`(?:, )?)+)")
_BULLET_NAME = re.compile(r"^\s*- `(\w+)\??[:`]")
_PLAIN_VALUE = re.compile(r"[^\s|,()=!]+")
_AND = re.compile(r"(?<=[\w)]) and (?=\(?@?\w+!?=)")
# Markup in descriptions (n8n writes HTML links): the words are kept, the tags are not.
_HTML_LINK = re.compile(r"<a\s[^>]*>(.*?)</a>", re.DOTALL)
_HTML_TAG = re.compile(r"</?(?:b|i|em|strong|code|br)\s*/?>")
_SENTENCE_END = re.compile(r"(?<=[A-Za-z)`\"]{2}[.])\s+(?=[A-Z`(])")


def standard_text(text: str, schema: Mapping[str, Any] | None = None) -> str:
    """The standard detail of one node skill's text (`schema`: its data schema, if known)."""
    text = _FRONTMATTER.sub("", text)
    text = without_foreign_blocks(text)
    text = COMMENT.sub("", text)
    text = _TABLE.sub(_table_line, text)
    text = _SOURCE_NAME.sub(r"**\1:**", text)
    text = _JSON_BLOCK.sub(_one_line_json, text)
    text = _FACTS.sub(_facts_line, text, count=1)  # the header, not bullets in prose
    props = (schema or {}).get("properties", {})
    text = _HTML_LINK.sub(r"\1", _HTML_TAG.sub("", text))
    lines = _owned_fields(_fields(_collections(text.splitlines()), schema or {}),
                          props)
    lines = [_short_conditions(_without_echo(line)) for line in lines]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"
    text = _ALIAS_ENUM.sub(r"\1` — one of ", text)
    if len(text) > BUDGET:
        text = _short_gotchas(text)
    return text


def without_foreign_blocks(text: str) -> str:
    """The text with each block whose id pygen does not write replaced by a line naming it."""
    if "AUTO-GEN:START" not in text:
        return text
    own = own_blocks()
    out: list[str] = []
    inside: str | None = None
    for line in text.splitlines(keepends=True):
        start = START.match(line)
        if inside is None and start is not None and start.group(1) not in own:
            inside = start.group(1)
            out.append(f"(Left out here: the `{inside}` block, which this catalog does not "
                       f"write; {FULL} has it.)\n")
            continue
        if inside is not None:
            end = END.match(line)
            if end is not None and end.group(1) == inside:
                inside = None
            continue
        out.append(line)
    return "".join(out)


def _without_echo(line: str) -> str:
    """A field bullet without a description that only repeats its name in words (n8n's
    labels: `topic` — Topic, `channelVisibility` — Channel Visibility): it tells nothing."""
    name = _BULLET_NAME.match(line)
    head, sep, last = line.rpartition(" — ")
    if name is None or not sep:
        return line
    said = re.sub(r"[^a-z0-9]", "", last.lower())
    return head if said == name.group(1).lower() else line


def _short_conditions(line: str) -> str:
    """A field bullet's conditions (`shown when …`, a listing's `when …:`) in short form."""
    head, sep, rest = line.partition(" — shown when ")
    if not sep:
        head, sep, rest = line.partition("- when ")
        if not sep or head.strip():
            return line
    cond, end, tail = rest.partition(" — " if " — shown when " in line else ": `")
    return head + sep + _AND.sub(", ", _CLAUSE.sub(_short_clause, cond)) + end + tail


def _short_clause(match: re.Match[str]) -> str:
    values = re.findall(r"`([^`]*)`", match.group(3))
    if not all(_PLAIN_VALUE.fullmatch(v) for v in values):
        return match.group(0)
    negated = match.group(2) in ("not ", "none of ")
    return f"{match.group(1)}{'!=' if negated else '='}{'|'.join(values)}"


def _collections(lines: list[str]) -> list[str]:
    """An optional object of more than _COLLECTION optional fields (n8n's `options`): its
    fields by name on one line, with the values of those a short list of them types (an
    agent choosing one must not guess them); each one's type and the rest are in `full`."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        if not _OPTIONAL_TOP.match(line):
            continue
        end = index
        while end < len(lines) and lines[end].startswith("  "):
            end += 1
        inner = [_OPTIONAL_INNER.match(x) for x in lines[index:end] if x.startswith("  - ")]
        if len(inner) > _COLLECTION and all(inner):
            names = ", ".join(f"`{m.group(1)}`" + (f" (`{m.group(2)}`)" * bool(m.group(2)))
                              for m in inner if m)
            out.append(f"  - optional fields: {names} (each one: {FULL})")
            index = end
    return out


def _table_line(match: re.Match[str]) -> str:
    """A Markdown table of names as one line: `**Parameters** (* required; types: full): `a`*,
    `b``; the returns likewise, the pointer said once."""
    rows = [row for row in match.group(2).splitlines()[2:] if row.startswith("|")]
    names = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        required = len(cells) > 2 and cells[2] == "required"
        names.append(cells[0] + ("*" if required else ""))
    if match.group(1) == "Returns":
        return f"**Returns:** {', '.join(names)}\n"
    return f"**Parameters** {PARAMS_NOTE}: {', '.join(names)}\n"


def _facts_line(match: re.Match[str]) -> str:
    """The node's fact bullets on one line: `Type: `x` · Category: ai · …`; the MCP tool is
    left to its own section when there is one."""
    shown = [(k, v) for k, v in _FACT.findall(match.group(0))
             if not (k == "MCP tool" and _MCP_SECTION.search(match.string))]
    return " · ".join(f"{key}: {value}" for key, value in shown) + "\n"


def _one_line_json(match: re.Match[str]) -> str:
    """A JSON block on one line per top-level entry of its arrays (workflows), else one line."""
    try:
        value = jsonread.loads(match.group(1), "a JSON block")
    except JsonInputError:
        return match.group(0)
    if isinstance(value, dict) and all(isinstance(v, list) for v in value.values()) and value:
        parts = [f' "{k}": [\n' + ",\n".join("  " + _compact(i) for i in v) + "\n ]"
                 for k, v in value.items()]
        return "```json\n{\n" + ",\n".join(parts) + "\n}\n```"
    return f"```json\n{_compact(value)}\n```"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _fields(lines: list[str], schema: Mapping[str, Any]) -> list[str]:
    """Field bullets: long enum lists cut, nesting below one level cut, bare type names shown."""
    props = schema.get("properties", {})
    out: list[str] = []
    enum_run = 0
    for index, line in enumerate(lines):
        if _ENUM_ITEM.match(line):
            enum_run += 1
            if enum_run == _ENUM_SHOWN + 1:
                # This list's values only (the run ends at its first other line), so the
                # count adds up with its heading's "one of the N values below".
                rest = 0
                while index + rest < len(lines) and _ENUM_ITEM.match(lines[index + rest]):
                    rest += 1
                out.append(f"{line[:len(line) - len(line.lstrip())]}- … {rest} more "
                           f"(every value: {FULL})")
            if enum_run > _ENUM_SHOWN:
                continue
        else:
            enum_run = 0
        indent = len(line) - len(line.lstrip())
        if line.lstrip().startswith("- ") and indent >= 4 and not _ENUM_ITEM.match(line):
            if not out[-1].endswith(f"(deeper fields: {FULL})"):
                out.append(" " * indent + f"- … (deeper fields: {FULL})")
            continue
        out.append(_with_shape(line, lines[index + 1] if index + 1 < len(lines) else "",
                               props))
    return out


def _owned_kind(line: str, props: Mapping[str, Any]) -> str | None:
    """`runner` or `result` for the bullet of a field the runner or a tool result writes."""
    match = _NAME.match(line)
    prop = props.get(match.group(1)) if match else None
    if not isinstance(prop, dict):
        return None
    return "runner" if prop.get("x-runner") else "result" if prop.get("x-result") else None


def _owned_fields(lines: list[str], props: Mapping[str, Any]) -> list[str]:
    """The bullets of fields the runner or a tool result writes, one line per kind and section:
    their names (an agent building a node leaves them out), each one's detail in `full`."""
    out: list[str] = []
    groups: dict[str, int] = {}  # kind → index of its line in `out`, within a section
    nested = False
    for line in lines:
        if nested and line.startswith(" "):
            continue
        kind = _owned_kind(line, props)
        nested = kind is not None
        if not line.startswith(("- ", " ")) and line.strip():
            groups = {}
        if kind is None:
            out.append(line)
            continue
        name = f"`{_NAME.match(line).group(1)}`"  # type: ignore[union-attr]
        if kind in groups:
            out[groups[kind]] = out[groups[kind]].replace(" (", f", {name} (", 1)
        else:
            groups[kind] = len(out)
            out.append(f"- {name} ({_OWNED[kind]}types: {FULL})")
    return out


def _with_shape(line: str, following: str, props: Mapping[str, Any]) -> str:
    """`- `h: HeaderMap`` → `- `h: HeaderMap` = `Record<string, string>``, when the
    schema knows the shape and no nested bullets or enum values follow to show it."""
    match = _FIELD.match(line)
    if match is None or match.group(1) or " one of " in line:
        return line
    nested = len(following) - len(following.lstrip()) > 0 and following.lstrip().startswith("-")
    prop = props.get(match.group(2))
    if nested or not isinstance(prop, dict):
        return line
    shape = type_text(prop)
    if shape in (match.group(3), "any") or match.group(3) in shape:
        return line
    head = match.group(0)
    return f"{head} = `{shape}`{line[len(head):]}"


def _short_gotchas(text: str) -> str:
    """Each gotcha bullet cut to its first sentence, with a pointer to the full text."""
    out: list[str] = []
    inside = False
    cut = False
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            inside = heading.group(2).strip().lower() == "common gotchas"
        if inside and line.startswith("  ") and out and out[-1].startswith("- "):
            out[-1] += " " + line.strip()  # a bullet continued on the next line
            continue
        out.append(line)
    for index, line in enumerate(out):
        first = _SENTENCE_END.split(line, maxsplit=1)
        if line.startswith("- ") and _inside_gotchas(out, index) and len(first) > 1:
            out[index], cut = first[0], True
    if cut:
        out = _after_gotchas(out, GOTCHAS_CUT)
    return "\n".join(out) + "\n"


def _inside_gotchas(lines: list[str], index: int) -> bool:
    for line in reversed(lines[:index]):
        heading = HEADING.match(line)
        if heading:
            return heading.group(2).strip().lower() == "common gotchas"
    return False


def _after_gotchas(lines: list[str], note: str) -> list[str]:
    for index, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading and heading.group(2).strip().lower() == "common gotchas":
            end = next((j for j in range(index + 1, len(lines)) if HEADING.match(lines[j])),
                       len(lines))
            while end > index and not lines[end - 1].strip():
                end -= 1
            return [*lines[:end], "", note, *lines[end:]]
    return lines
