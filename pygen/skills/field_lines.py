"""Field bullets of a skill file: a field's type, values, default, when it is shown and its
nested fields, one bullet each; a field listed once per condition (n8n lists `operation` once
per `resource`, each listing with its own values and default) is one bullet whose listings
each say when they apply, so every listing reaches the file whatever its length."""

from __future__ import annotations

import json
from collections.abc import Iterable

from pygen.layout import SCHEMA_FILE
from pygen.model import DataField, TypeRef
from pygen.schema.conditional import either_text, listings, visibility_text
from pygen.skills.markdown import code

# How the extractor ends a type text it shortened (no TypeScript text ends so).
SHORTENED = "\u2026"
# Up to this many enum values sit inline; more are listed one per line, never cut.
MAX_ENUM_VALUES = 12
MAX_NESTING = 3


def literal(value: str | int | float | bool) -> str:
    return json.dumps(value, ensure_ascii=False)


def enum_text(values: tuple[str | int | float | bool, ...]) -> str:
    return " | ".join(literal(v) for v in values)


def _is_type_text(field: DataField, values: tuple[str | int | float | bool, ...]) -> bool:
    """Whether the type as written already spells out every value (an inline union)."""
    return enum_text(values) == " ".join(field.type_text.split())


def field_line(field: DataField, when: str | None = None) -> str:
    """The field's bullet; enum values inline up to MAX_ENUM_VALUES (see `enum_lines`);
    `when`: the sentence of when it is shown, if not its own condition's."""
    mark = "?" if field.optional else ""
    return " — ".join([f"- {code(f'{field.name}{mark}: {field.type_text}')}",
                       *_about(field, visibility_text(field) if when is None else when)])


def _about(field: DataField, when: str) -> list[str]:
    """What the bullet says after the field's name and type."""
    parts = []
    values = field.type.literal_values()
    if values and not _is_type_text(field, values):
        if len(values) > MAX_ENUM_VALUES:
            parts.append(f"one of the {len(values)} values below")
        else:
            parts.append(f"one of {code(enum_text(values))}")
    if field.type_text.endswith(SHORTENED):
        parts.append(f"the type is shortened here; `{SCHEMA_FILE}` holds it whole")
    if field.default_tag:
        parts.append(f"default {code(field.default_tag)}")
    if field.deprecated:
        bare = field.deprecated.strip().lower() in ("", "deprecated")
        parts.append("**deprecated**" if bare else f"**deprecated:** {field.deprecated}")
    if when:
        parts.append(when)
    if field.description:
        parts.append(field.description)
    return parts


def enum_lines(field: DataField, depth: int) -> list[str]:
    """A long enum in full, one value per sub-bullet: an agent must see every valid value."""
    values = field.type.literal_values()
    if not values or len(values) <= MAX_ENUM_VALUES or _is_type_text(field, values):
        return []
    return ["  " * depth + f"- {code(literal(value))}" for value in values]


def field_lines(field: DataField, depth: int = 0) -> list[str]:
    """A field's bullet at `depth`, its long enum values, then its nested fields."""
    return ["  " * depth + field_line(field), *enum_lines(field, depth + 1),
            *nested_lines(field, depth + 1)]


def nested_lines(field: DataField, depth: int = 1) -> list[str]:
    """Sub-bullets for the properties of an object-typed field (also inside arrays), or of
    each object type a union of them allows."""
    target = field.type.items if field.type.kind == "array" and field.type.items else field.type
    if depth > MAX_NESTING:
        return []
    if target.kind == "union":
        return variant_lines(target, depth)
    if target.kind != "object" or not target.fields:
        return []
    return field_list(target.fields, depth)


def variant_lines(union: TypeRef, depth: int) -> list[str]:
    """A union's object types: one beside null or undefined as the object's fields; one beside
    other values under "when an object"; several each under a bullet naming the value of the
    property that tells them apart (a discriminated union), else their position."""
    shapes = union.object_members()
    if not shapes:
        return []
    if len(shapes) == 1 and all(m.kind in ("object", "null", "undefined") for m in union.types):
        return field_list(shapes[0].fields, depth)
    key = union.discriminant()
    lines = []
    for number, shape in enumerate(shapes, 1):
        tag = next((f.type.value for f in shape.fields if f.name == key), None)
        head = (f"when {code(key or '')} is {code(literal(tag))}" if key and tag is not None
                else "when an object" if len(shapes) == 1
                else f"shape {number} of {len(shapes)}")
        lines.append("  " * depth + f"- {head}:")
        lines += field_list(shape.fields, depth + 1)
    return lines


def field_list(fields: Iterable[DataField], depth: int = 0) -> list[str]:
    """The fields' lines; a field listed once per condition as one (see `listed_lines`)."""
    return [line for group in listings(tuple(fields)) for line in
            (listed_lines(group, depth) if len(group) > 1 else field_lines(group[0], depth))]


def listed_lines(group: tuple[DataField, ...], depth: int) -> list[str]:
    """The listings of one field, each under its own condition. Listings alike but for their
    condition (and wording) are one, their conditions after `or`. Listings that differ in
    type, values or default, none an object with fields of its own, are one bullet with a
    line per listing: `when `resource` is `message`: `"post" | …` — default `"post"``; else
    each stands as its own bullet, so its nested fields keep their depth."""
    alike: dict[tuple[str, ...], list[DataField]] = {}
    for f in group:
        bare = f.model_copy(update={"shown_when": (), "description": ""})
        alike.setdefault(tuple(field_lines(bare, depth)), []).append(f)
    if len(alike) == 1 or any(nested_lines(fs[0], depth + 1) for fs in alike.values()):
        return [line for fs in alike.values() for line in _alike_lines(fs, depth)]
    mark = "?" if group[0].optional else ""
    label = _shared([f.description for f in group])
    lines = ["  " * depth + " — ".join([f"- {code(group[0].name + mark)}",
                                         "listed per condition", *([label] * bool(label))])]
    for fs in alike.values():
        when = either_text([f.shown_when for f in fs])
        own = "" if label else _shared([f.description for f in fs])
        about = _about(fs[0].model_copy(update={"description": own}), "")
        lines.append("  " * (depth + 1) + " — ".join([f"- when {when}: {code(fs[0].type_text)}",
                                                      *about]))
        lines += enum_lines(fs[0], depth + 2)
    return lines


def _alike_lines(fields: list[DataField], depth: int) -> list[str]:
    label = _shared([f.description for f in fields]) or fields[0].description.split(". ")[0]
    first = fields[0].model_copy(update={"description": label})
    lines = field_lines(first, depth)
    if len(fields) > 1:
        when = f"shown when {either_text([f.shown_when for f in fields])}"
        lines[0] = "  " * depth + field_line(first, when)
    return lines


def _shared(descriptions: list[str]) -> str:
    """The one description of listings, or the first sentence they all start with (n8n's
    label: "Channel. The Slack channel to close"), else none."""
    if len(set(descriptions)) == 1:
        return descriptions[0]
    firsts = {d.split(". ")[0] for d in descriptions}
    return firsts.pop() if len(firsts) == 1 else ""
