"""Fields visible only for some values of other fields (field lists' `displayOptions`): the
sentence a skill says ("shown when `resource` is `issue` and `operation` is `create`") and
the data schema, where a field listed once per condition is one property and each condition
is an `if`/`then` rule: a visible required field is required, a hidden one must be left out.

A field the data leaves out has its default, so a condition on it holds for absent data when
its default is one of the values (`x-shown-when` carries the sentence for findings).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pygen import jsonread
from pygen.jsonread import JsonInputError
from pygen.model import Condition, DataField

Schema = dict[str, Any]
SHOWN_WHEN = "x-shown-when"


def _value(value: object) -> str:
    return f"`{value}`" if isinstance(value, str) else f"`{json.dumps(value)}`"


def condition_text(conditions: Sequence[Condition]) -> str:
    """`resource` is `issue` and `operation` is one of `create`, `edit`."""
    parts = []
    for c in conditions:
        values = ", ".join(_value(v) for v in c.values)
        if len(c.values) == 1:
            parts.append(f"`{c.field}` is {'not ' if c.hide else ''}{values}")
        else:
            parts.append(f"`{c.field}` is {'none' if c.hide else 'one'} of {values}")
    return " and ".join(parts)


def visibility_text(field: DataField) -> str:
    return f"shown when {condition_text(field.shown_when)}" if field.shown_when else ""


def either_text(alternatives: Sequence[Sequence[Condition]]) -> str:
    """Conditions of which one must hold, after `or`, each in brackets when it has several
    clauses; two that test the same fields and differ only in the values one of them shows
    are one first (`operation` is one of `close`, `get` and `resource` is `channel`)."""
    merged: list[list[Condition]] = []
    for conditions in alternatives:
        for at, known in enumerate(merged):
            joined = _joined(known, list(conditions))
            if joined is not None:
                merged[at] = joined
                break
        else:
            merged.append(list(conditions))
    if len(merged) == 1:
        return condition_text(merged[0])
    return " or ".join(f"({condition_text(c)})" if len(c) > 1 else condition_text(c)
                       for c in merged)


def _joined(a: list[Condition], b: list[Condition]) -> list[Condition] | None:
    """`a` or `b` as one condition list, when they differ in one shown field's values only."""
    by_field = {c.field: c for c in b}
    if len(a) != len(b) or set(by_field) != {c.field for c in a}:
        return None
    differ = [c for c in a if c != by_field[c.field]]
    if not differ:
        return a
    if len(differ) != 1 or differ[0].hide or by_field[differ[0].field].hide:
        return None
    one = differ[0]
    values = tuple(dict.fromkeys((*one.values, *by_field[one.field].values)))
    return [c.model_copy(update={"values": values}) if c is one else c for c in a]


def listings(fields: Sequence[DataField]) -> list[tuple[DataField, ...]]:
    """The fields in order, those of a name listed more than once, each listing under its own
    condition, as one group where the first stands: one field whose listings say when each
    applies. A name also listed with no condition keeps its listings apart."""
    by_name: dict[str, list[DataField]] = {}
    for f in fields:
        by_name.setdefault(f.name, []).append(f)
    out: list[tuple[DataField, ...]] = []
    for f in fields:
        group = by_name[f.name]
        if len(group) < 2 or not all(g.shown_when for g in group):
            out.append((f,))
        elif group[0] is f:
            out.append(tuple(group))
    return out


def _defaults(fields: Sequence[DataField]) -> dict[str, Any]:
    """The first default each field states: the value an absent field has."""
    out: dict[str, Any] = {}
    for f in fields:
        if f.name not in out and f.default_tag is not None:
            try:
                out[f.name] = jsonread.loads(f.default_tag, f.name)
            except JsonInputError:
                continue
    return out


def _holds(condition: Condition, defaults: Mapping[str, Any]) -> Schema:
    """The schema of "the data gives `field` one of the values" (absent: its default)."""
    test: Schema = {"properties": {condition.field: {"enum": list(condition.values)}}}
    if condition.field not in defaults or defaults[condition.field] not in condition.values:
        test["required"] = [condition.field]
    return {"not": test} if condition.hide else test


def visible(conditions: Sequence[Condition], defaults: Mapping[str, Any]) -> Schema | None:
    """When the field is visible; None when always (a `@version` condition is the node's,
    not its data's, and does not count here)."""
    parts = [_holds(c, defaults) for c in conditions if not c.field.startswith("@")]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else {"allOf": parts}


def conditional_schema(fields: Sequence[DataField], defaults: Mapping[str, Any],
                       field_schema: Callable[[DataField, Any], Schema],
                       missing: object) -> Schema:
    """The object schema of fields some of which are conditional (see the module doc)."""
    groups: dict[str, list[DataField]] = {}
    for f in fields:
        groups.setdefault(f.name, []).append(f)
    known = {**_defaults(fields), **defaults}
    properties: Schema = {}
    required: list[str] = []
    rules: list[Schema] = []
    for name, group in groups.items():
        schemas: list[Schema] = []
        for f in group:
            schema = field_schema(f, defaults.get(name, missing))
            if schema not in schemas:
                schemas.append(schema)
        properties[name] = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
        conds = [visible(f.shown_when, known) for f in group]
        if any(not f.optional and c is None for f, c in zip(group, conds, strict=True)):
            required.append(name)
        rules.extend(_rules(name, group, conds, [field_schema(f, defaults.get(name, missing))
                                                 for f in group]))
    out: Schema = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    if rules:
        out["allOf"] = rules
    return out


def _rules(name: str, group: Sequence[DataField], conds: Sequence[Schema | None],
           schemas: Sequence[Schema]) -> list[Schema]:
    """Required where visible and required; left out where no listing of it is visible. A
    listing's own default rides with its rule: a field listed once per condition takes the
    default of the listing whose condition holds (what an editor filling defaults loads)."""
    out: list[Schema] = []
    if any(c is None for c in conds):
        return out
    for f, cond, schema in zip(group, conds, schemas, strict=True):
        if not f.optional and cond is not None:
            then: Schema = {"required": [name], SHOWN_WHEN: condition_text(f.shown_when)}
            if "default" in schema:
                then["properties"] = {name: {"default": schema["default"]}}
            out.append({"if": cond, "then": then})
    shown = [c for c in conds if c is not None]
    either = shown[0] if len(shown) == 1 else {"anyOf": shown}
    text = " or ".join(f"({condition_text(f.shown_when)})" if len(group) > 1
                       else condition_text(f.shown_when) for f in group)
    out.append({"if": {"not": either},
                "then": {"not": {"required": [name]}, SHOWN_WHEN: text, "x-field": name}})
    return out
