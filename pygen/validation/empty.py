"""What "empty" means to the editor, in one place: the values it treats as not set, and the
required fields it reports as missing when empty.

Two conventions declare it, each read here only. `unset_values` names the values an editor
treats as not set in any field (Flowise writes `""` for every input a person has not touched,
and its own check counts `undefined`, `null` and `""` as missing): a field holding one is
judged as if it were absent: no type, enum or range rule judges it, and where it is required
it is reported as a required field not set. `required_nonempty` adds, for the fields marked
`x-nonempty` (read from the field list's preset), the values `""` and `[]`: a required field
empty once defaults are applied is missing (n8n's NodeHelpers `addToIssuesIfMissing` flags a
required `string`/`options`/`dateTime` parameter that is "" or unset after its defaults are
applied, and a `multiOptions` one that is []). A left-out such field whose default is empty,
and one that holds an empty value where the values chosen for others show it, are errors
(rule `required-empty`); the `runtime` profile does not soften them as it softens
`required`. Which fields are marked is the catalog's per-type cache (`Catalog.nonempty`).

With `numeric_strings`, a string that reads as a number stands for that number in a field
typed number (the editor parses it when the node runs). Validation checks the editor's view of
the data built here; paths are the saved data's, as no key is renamed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pygen.conventions import Conventions
from pygen.jsonvalues import same, show
from pygen.schema.node_schema import Schema
from pygen.validation.findings import Finding, child, error_at, parts_of
from pygen.validation.schema_errors import required_detail

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

RULE = "required-empty"
# The values a field marked `x-nonempty` may not keep, besides the convention's unset values.
NONEMPTY_EMPTY: tuple[Any, ...] = ("", [])

# What JavaScript's parseFloat reads whole, as JSON numbers are written (no hex, no Infinity).
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass
class View:
    """The data as the editor reads it, and the paths of the fields it treats as not set."""

    data: object
    unset: dict[str, Any] = field(default_factory=dict)  # path -> the saved value


def is_unset(value: object, unset: Iterable[Any]) -> bool:
    """Whether the value is one of the given unset values (the convention's, or those a
    nonempty field may not keep)."""
    return any(same(value, u) for u in unset)


def editor_view(data: object, schema: Schema, conv: Conventions, path: str) -> View:
    """The data with unset fields left out and numeric strings read as numbers (in fields the
    schema types as numbers only), as the conventions declare; the data itself when neither
    is declared."""
    view = View(data)
    if not conv.unset and not conv.numeric_strings:
        return view
    view.data = _read(data, schema, conv, path, view)
    return view


def _read(value: object, schema: Schema, conv: Conventions, path: str, view: View) -> object:
    if isinstance(value, dict):
        props = _properties(schema)
        out: dict[str, Any] = {}
        for key, item in value.items():
            where = child(path, key)
            if is_unset(item, conv.unset):
                view.unset[where] = item
                continue
            out[key] = _read(item, props.get(key, {}), conv, where, view)
        return out
    if isinstance(value, list):
        items = schema.get("items")
        items = items if isinstance(items, dict) else {}
        return [_read(v, items, conv, child(path, i), view) for i, v in enumerate(value)]
    if conv.numeric_strings and isinstance(value, str) and _numbers_only(schema):
        number = _number(value)
        if number is not None:
            return number
    return value


def _properties(schema: Schema) -> dict[str, Schema]:
    """The property schemas of an object schema, its union branches' too (a key two branches
    type differently is left out: neither reading is safe)."""
    out: dict[str, Schema] = {}
    clash: set[str] = set()
    parts = [schema, *(b for k in ("oneOf", "anyOf", "allOf") for b in schema.get(k, ())
                       if isinstance(b, dict))]
    for part in parts:
        props = part.get("properties")
        for key, prop in (props.items() if isinstance(props, dict) else ()):
            if key in out and out[key].get("type") != prop.get("type"):
                clash.add(key)
            out.setdefault(key, prop if isinstance(prop, dict) else {})
    return {k: v for k, v in out.items() if k not in clash}


def _numbers_only(schema: Schema) -> bool:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return bool(kinds) and all(k in ("number", "integer") for k in kinds)


def _number(text: str) -> int | float | None:
    stripped = text.strip()
    if not _NUMBER.fullmatch(stripped):
        return None
    number = float(stripped)
    return int(number) if number.is_integer() and not re.search(r"[.eE]", stripped) else number


def name_unset(findings: Iterable[Finding], view: View, unset_texts: list[str]) -> list[Finding]:
    """A required field left at an unset value is reported as not set, naming the value."""
    out = []
    for finding in findings:
        if finding.rule == "required" and finding.path in view.unset:
            values = ", ".join(unset_texts)
            finding = replace(finding, message=(
                f"required but not set: {show(view.unset[finding.path])} is a value the "
                f"editor treats as not set ({values}); {finding.message}"))
        out.append(finding)
    return out


def default_at(defaults: Mapping[str, Any], base: tuple[str | int, ...],
               parts: tuple[str | int, ...]) -> tuple[bool, Any]:
    """(found, value) of the default data at a finding's path (below the data's own path)."""
    if parts[:len(base)] != base:
        return False, None
    value: Any = defaults
    for part in parts[len(base):]:
        in_object = isinstance(value, dict) and isinstance(part, str) and part in value
        in_list = isinstance(value, list) and isinstance(part, int) and part < len(value)
        if not (in_object or in_list):
            return False, None
        value = value[part]
    return True, value


def nonempty_fields(schema: object) -> frozenset[str]:
    """The top-level fields that may not be left empty (any listing of one marks it); the
    catalog keeps them per type (`Catalog.nonempty`)."""
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return frozenset({name for name, prop in props.items() if isinstance(prop, dict) and (
        prop.get("x-nonempty") is True or any(
            isinstance(b, dict) and b.get("x-nonempty") is True
            for b in prop.get("anyOf", ())))})


def empty_required(findings: Iterable[Finding], data: object, path: str,
                   validator: Draft202012Validator, names: frozenset[str]) -> list[Finding]:
    """The findings, with the left-out nonempty fields (`names`, the type's, from the
    catalog's cache) that no default fills as errors, plus an error for each empty value
    where a required field is visible."""
    if not names or not isinstance(data, dict):
        return list(findings)
    base = parts_of(path)
    out = []
    for f in findings:
        at = parts_of(f.path)
        if (f.rule == "required" and f.level != "info" and f.fix is None and at[:-1] == base
                and at[-1] in names):
            f = replace(f, level="error", rule=RULE,
                        message=f"{f.message}; left out it takes its default, which is "
                                f"empty: the editor reports it as missing")
        out.append(f)
    empties = [k for k in sorted(names) if k in data and is_unset(data[k], NONEMPTY_EMPTY)]
    if empties:
        kept = {k: v for k, v in data.items() if k not in empties}
        where = {child(path, k) for k in empties}
        for error in validator.iter_errors(kept):
            if error.validator != "required" or error.absolute_path:
                continue
            for name in error.validator_value:
                if child(path, name) in where:
                    out.append(error_at(child(path, name), "required field is empty "
                                        f"({required_detail(error, name)})", rule=RULE))
    return out
