"""Where the app's code contradicts itself: findings on the definitions, not on the skills.

- `default`: a default data value its field's type does not allow (`provider: "suno"` where
  the type says `"minimax"`);
- `required`: a required field with neither a default value nor documented values (an enum,
  a boolean, a `@default` tag), so nothing tells an agent what to put there;
- `handle`: a field description that names a handle (`` the `style` handle ``) the node
  does not have;
- `default-tag`: a JSDoc `@default` that names another value than the default data (both
  outputs show the default data's value).

Each names the TypeScript file:line of the default and of the field's declaration when the
extractor reported them. `gen` and `check` warn (error under `--strict`); `doctor` lists them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pygen.model import DataField, Location, Model, NodeDef, NodeSources
from pygen.schema.node_schema import tag_disagrees

Kind = Literal["default", "required", "handle", "default-tag"]
HANDLE_MENTION = re.compile(r"`([^`\s]+)`\s+(?:input\s+|output\s+)?handle\b|\bhandle\s+`([^`\s]+)`")


@dataclass(frozen=True)
class Contradiction:
    node_type: str
    field: str
    kind: Kind
    message: str
    default_at: Location | None = None
    type_at: Location | None = None

    def text(self) -> str:
        where = [f"{what} at {at.file}:{at.line}" for what, at in
                 (("default", self.default_at), ("type", self.type_at)) if at is not None]
        return (f"{self.node_type}.{self.field}: {self.message}"
                + (f" ({', '.join(where)})" if where else ""))


def shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def allows(data_field: DataField, value: Any) -> bool:
    from pygen.schema.fastcheck import compile_check
    from pygen.schema.node_schema import field_schema

    schema = field_schema(data_field)
    check = compile_check(schema)
    # A validator per default costs more than the rest of the check of a field: the closure
    # tree says yes fast; a no (or a keyword it does not know) is jsonschema's to confirm.
    if check is not None and check(value):
        return True
    from jsonschema import Draft202012Validator

    return bool(Draft202012Validator(schema).is_valid(value))


def documented(data_field: DataField) -> bool:
    """Whether the code says what values the field takes (an enum, a boolean, a @default)."""
    return bool(data_field.default_tag or data_field.type.literal_values()
                or data_field.type.kind == "boolean")


def field_findings(node: NodeDef, data_field: DataField,
                   where: NodeSources) -> Iterator[Contradiction]:
    name = data_field.name
    at = (where.defaults.get(name) or node.source, where.fields.get(name))
    if name in node.default_data:
        value = node.default_data[name]
        if not allows(data_field, value):
            yield Contradiction(node.type, name, "default", f"default {shown(value)} is not "
                                f"allowed by its type {data_field.type_text}", *at)
        elif tag_disagrees(data_field, value):
            yield Contradiction(node.type, name, "default-tag", f"@default "
                                f"{data_field.default_tag} disagrees with the default data "
                                f"{shown(value)}; the skills show {shown(value)}", *at)
    elif not data_field.optional and not documented(data_field):
        yield Contradiction(node.type, name, "required", "required, with neither a default "
                            "value nor documented values", None, at[1])
    handles = {h.id for h in (*node.inputs, *node.outputs)}
    for match in HANDLE_MENTION.finditer(data_field.description):
        handle = match.group(1) or match.group(2)
        if handle not in handles:
            yield Contradiction(node.type, name, "handle", f"the description names a handle "
                                f"'{handle}' the node does not have", None, at[1])


# What a summary line calls each kind (pygen.diagnostics.summarize's titles, for the code's
# contradictions), and the words of its message that tell it apart in a text (a clean
# `check` remembers the texts alone).
TITLES: dict[Kind, str] = {
    "default": "default values their type does not allow",
    "required": "required fields with neither a default value nor documented values",
    "handle": "field descriptions naming a handle the node does not have",
    "default-tag": "@default tags that disagree with the default data",
}
_MARKS: tuple[tuple[Kind, str], ...] = (
    ("default-tag", " disagrees with the default data "),
    ("default", " is not allowed by its type "),
    ("required", ": required, with neither a default value nor documented values"),
    ("handle", ": the description names a handle "),
)


def kind_of(text: str) -> Kind | None:
    """The kind of a contradiction's text (Contradiction.text), None when it is none."""
    return next((kind for kind, mark in _MARKS if mark in text), None)


def summary(texts: Sequence[str], level: str, verbose: bool = False,
            places: int = 3) -> list[str]:
    """The lines a run prints about the code's contradictions: as pygen.diagnostics does for
    the extractor's warnings, one per kind seen more than once (its count and first
    places), every text with `verbose`."""
    if verbose:
        return [f"{level}: {text}" for text in texts]
    groups: dict[Kind | None, list[str]] = {}
    for text in texts:
        groups.setdefault(kind_of(text), []).append(text)
    lines = []
    for kind, group in groups.items():
        if len(group) == 1 or kind is None:
            lines += [f"{level}: {text}" for text in group]
            continue
        named = ", ".join(text.partition(": ")[0] for text in group[:places])
        more = len(group) - places
        tail = f", … (+{more} more; --verbose lists all)" if more > 0 else ""
        lines.append(f"{level}: {TITLES[kind]} — {len(group)} times: {named}{tail}")
    return lines


def find(model: Model) -> list[Contradiction]:
    """Every contradiction, in node then field order (data types found; variants aside)."""
    found: list[Contradiction] = []
    for node in model.nodes:
        if node.data_type.via == "none":
            continue
        where = model.locations.get(node.type, NodeSources())
        for data_field in node.data_type.fields:
            found += field_findings(node, data_field, where)
    return found
