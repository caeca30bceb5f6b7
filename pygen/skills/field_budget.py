"""A node's field lines within the characters one skill file gives them (FIELDS_BUDGET).

A data type too long for it is made shorter in steps, each keeping what an agent filling the
node needs first: every field, each listing of a field listed once per condition, every
value and default. First each description is cut to its first sentence (n8n's label), then
fields nested below the first level are left out, and only then are lines cut at the budget.
Each step says what it left out and where the whole type is (the schema document `gen`
writes beside the skills).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pygen.layout import SCHEMA_FILE
from pygen.model import DataField, NodeDef, TypeRef

# Characters of field lines one node's skill file shows.
FIELDS_BUDGET = 20_000
# A default longer than this is shown by its first characters once descriptions are cut.
_DEFAULT_SHOWN = 60
# The end of a first sentence: a full stop after a word (not `e.g.`), before a capital.
_SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9)\]`\"]{2}\.)\s+(?=[A-Z<`(\"])")


def fitted(render: Callable[[NodeDef], list[str]], node: NodeDef) -> list[str]:
    """`render(node)`'s field lines, made shorter in the module's steps until they fit."""
    lines = render(node)
    if _size(lines) <= FIELDS_BUDGET:
        return lines
    where = (f"the whole data type is `$defs[\"{node.type}\"]` in `{SCHEMA_FILE}` (in the "
             "skills folder)")
    for nesting, said in ((None, "each description is cut to its first sentence"),
                          (1, "each description is cut to its first sentence and fields "
                              "nested below the first level are left out")):
        brief = node.model_copy(update={"data_type": node.data_type.model_copy(update={
            "fields": tuple(_brief(f, nesting) for f in node.data_type.fields)})})
        lines = render(brief)
        if _size(lines) <= FIELDS_BUDGET:
            return [*lines, f"(To keep this file short {said}; {where}.)", ""]
    return within_budget(lines, f"{where}; {said}")


def within_budget(lines: list[str], where: str) -> list[str]:
    """The field lines up to FIELDS_BUDGET characters, then one line saying what was cut and
    where the whole type is."""
    used = 0
    for i, line in enumerate(lines):
        used += len(line) + 1
        if used > FIELDS_BUDGET:
            rest = sum(1 for later in lines[i:] if later.lstrip().startswith("- "))
            return [*lines[:i], f"- … {rest} more field lines are left out to keep this file "
                    f"short; {where}.", ""]
    return lines


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _brief(field: DataField, nesting: int | None, depth: int = 0) -> DataField:
    """The field with its description's first sentence, a long default's first characters,
    and (`nesting` set) no fields deeper than `nesting` levels below the top."""
    default = field.default_tag
    if default is not None and len(default) > _DEFAULT_SHOWN:
        default = default[:_DEFAULT_SHOWN] + "\u2026"
    first = _SENTENCE_END.split(field.description, maxsplit=1)
    return field.model_copy(update={
        "description": first[0].rstrip(".") if len(first) > 1 else first[0],
        "default_tag": default, "type": _brief_type(field.type, nesting, depth + 1)})


def _brief_type(ref: TypeRef, nesting: int | None, depth: int) -> TypeRef:
    if ref.kind == "object" and ref.fields:
        if nesting is not None and depth > nesting:
            return ref.model_copy(update={"fields": ()})
        return ref.model_copy(update={"fields": tuple(_brief(f, nesting, depth)
                                                      for f in ref.fields)})
    if ref.items is not None:
        return ref.model_copy(update={"items": _brief_type(ref.items, nesting, depth)})
    if ref.types:
        return ref.model_copy(update={"types": tuple(_brief_type(t, nesting, depth)
                                                     for t in ref.types)})
    return ref
