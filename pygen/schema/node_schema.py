"""A node's `data` as JSON Schema (draft 2020-12), from the TypeScript. schema.document
gathers these into the schema document `pygen gen` writes; validation.catalog reads it back.

The rule throughout: a schema may be looser than the TypeScript type, never stricter, so data
the editor accepts never fails. What JSON Schema cannot say (functions, unresolved references,
`any`) becomes `{}` with a `$comment`. Extra properties are allowed here; the validator reports
them as warnings instead, because the editor keeps unknown keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from pygen import jsonread
from pygen.identity_memo import IdentityMemo
from pygen.jsonread import JsonInputError
from pygen.jsonvalues import type_name, variant_text
from pygen.model import DataField, DataType, NodeDef, TypeRef, Variant
from pygen.schema.conditional import conditional_schema
from pygen.schema.constraints import tag_keywords, tool_limits, with_tool_limits
from pygen.schema.disjoint import disjoint

Schema = dict[str, Any]

_PRIMITIVES = {"string": "string", "number": "number", "boolean": "boolean", "null": "null"}
# Kinds whose values JSON Schema cannot constrain faithfully.
_OPAQUE = {"any", "unknown", "function", "unresolved"}
_MISSING = object()
# What a pinned variant field keeps of the field's own schema.
_ANNOTATIONS = ("title", "description", "default", "deprecated")


# Built once while the node lives (a run asks eight times a node), by identity: a node (with
# a dict of default data) cannot be hashed. The schema is shared, so never changed.
def node_data_schema(node: NodeDef) -> Schema:
    """The schema a node's `data` object must satisfy. A variant's (`variant_field`) is its own:
    the branch of the data type its value selects, that value pinned (`const`)."""
    return _BUILT(node)


def _node_data_schema(node: NodeDef) -> Schema:
    if node.variant_field is None or node.variant is None:
        return _data_schema(node)
    return _pinned(_data_schema(_own_branch(node)), node)


def _data_schema(node: NodeDef) -> Schema:
    data_type = node.data_type
    schema: Schema = {"title": data_type.name or f"{node.label} data"}
    if node.description:
        schema["description"] = node.description
    if data_type.via == "none":
        schema.update(type="object",
                      **{"$comment": "the code declares no data type; any object passes"})
        return schema
    if data_type.fields or not data_type.variants:
        schema.update(object_schema(data_type.fields, node.default_data))
    else:
        schema["type"] = "object"
    branches = [_variant_schema(v, node.default_data) for v in data_type.variants]
    if len(branches) == 1 and not data_type.fields:  # a variant's own branch (_own_branch)
        schema.update(branches[0])
    elif branches:
        schema.update(choice(branches))
    if node.tool is not None:
        schema = with_tool_limits(schema, tool_limits(node.tool.input_schema), node.default_data)
    return _open_ended(schema, data_type)


def _open_ended(schema: Schema, data_type: DataType) -> Schema:
    """Inferred fields and an index signature both mean: other keys are fine too."""
    notes = []
    if data_type.via == "inferred":
        notes.append("fields inferred from default data (the code declares no data type)")
    if data_type.index_signature:
        notes.append(f"also accepts other keys (`{data_type.index_signature}`)")
    if notes:
        schema["additionalProperties"] = True
        schema["$comment"] = "; ".join(notes)
    return schema


def object_schema(fields: Sequence[DataField], defaults: Mapping[str, Any]) -> Schema:
    if any(f.shown_when for f in fields):
        return conditional_schema(fields, defaults, field_schema, _MISSING)
    # A field listed more than once (once per version its conditions named, the conditions
    # gone with the version split) is one property: any of its listings' schemas; required
    # once, when a listing requires it. A name twice in `required` breaks the meta-schema.
    listings: dict[str, list[Schema]] = {}
    for f in fields:
        listed = field_schema(f, defaults.get(f.name, _MISSING))
        seen = listings.setdefault(f.name, [])
        if listed not in seen:
            seen.append(listed)
    properties = {name: schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
                  for name, schemas in listings.items()}
    required = list(dict.fromkeys(f.name for f in fields
                                  if not f.optional and not _may_be_absent(f.type)))
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def field_schema(field: DataField, default: Any = _MISSING) -> Schema:
    schema = type_schema(field.type)
    description = field.description
    if field.deprecated:
        schema["deprecated"] = True
        if field.deprecated != "deprecated":
            description = f"{description} Deprecated: {field.deprecated}".strip()
    if description:
        schema["description"] = description
    if default is _MISSING and field.default_tag is not None:
        default = _parse_default_tag(field.default_tag, schema)
    if default is not _MISSING:
        schema["default"] = default
    schema.update(tag_keywords(field))
    if field.result:
        schema["x-result"] = True
    return schema


def type_schema(ref: TypeRef) -> Schema:
    """A fresh schema dict for one TypeRef (callers may add keys to it)."""
    kind = ref.kind
    if kind in _PRIMITIVES:
        return {"type": _PRIMITIVES[kind]}
    if kind == "literal":
        return {"type": "null"} if ref.value is None else {"const": ref.value}
    if kind in ("undefined", "never"):
        # JSON has no undefined and nothing inhabits never: the key must be left out.
        return {"not": {}, "$comment": f"{kind}: leave this field out"}
    if kind in _OPAQUE:
        return _opaque(ref)
    schema = _BUILDERS[kind](ref)
    if ref.name and kind in ("union", "object") and "title" not in schema:
        schema["title"] = ref.name
    return schema


def _opaque(ref: TypeRef) -> Schema:
    shown = ref.text or ref.name or ref.kind
    reasons = {
        "any": "any: every value passes",
        "unknown": "unknown: every value passes",
        "function": f"function type `{shown}` has no JSON form; not checked",
        "unresolved": f"type `{shown}` could not be resolved; not checked",
    }
    return {"$comment": reasons[ref.kind]}


def _union(ref: TypeRef) -> Schema:
    members = [m for m in ref.types if m.kind not in ("undefined", "never")]
    opaque = next((m for m in members if m.kind in _OPAQUE), None)
    if opaque is not None:
        return {"$comment": f"union with {_opaque(opaque)['$comment']}"}
    if not members:
        return {"not": {}, "$comment": "undefined: leave this field out"}
    type_names = [_PRIMITIVES[m.kind] for m in members if m.kind in _PRIMITIVES]
    # A literal whose primitive type is also a member adds nothing ("a" | string is string).
    values = _unique(m.value for m in members
                     if m.kind == "literal" and type_name(m.value) not in type_names)
    if values and type_names == ["null"]:
        # `"a" | "b" | null` reads best as one enum, and its errors name every allowed value.
        values, type_names = [*values, None], []
    branches: list[Schema] = []
    if values:
        branches.append({"enum": values} if len(values) > 1 else {"const": values[0]})
    if type_names:
        names = _unique(type_names)
        branches.append({"type": names if len(names) > 1 else names[0]})
    branches += [type_schema(m) for m in members if m.kind not in _PRIMITIVES
                 and m.kind != "literal"]
    return branches[0] if len(branches) == 1 else choice(branches)


def choice(branches: list[Schema]) -> Schema:
    """`oneOf` when no value can match two branches, else `anyOf`: never rejects valid data."""
    keyword = "oneOf" if all(disjoint(a, b) for a, b in combinations(branches, 2)) else "anyOf"
    return {keyword: branches}


def _intersection(ref: TypeRef) -> Schema:
    members = list(ref.types)
    # `string & { __brand: ... }`: brands exist only at compile time; the value is the primitive.
    if any(m.kind in _PRIMITIVES or m.kind == "literal" for m in members):
        members = [m for m in members if m.kind not in ("object", "record")]
    schemas = [type_schema(m) for m in members]
    return schemas[0] if len(schemas) == 1 else {"allOf": schemas}


def _array(ref: TypeRef) -> Schema:
    schema: Schema = {"type": "array"}
    if ref.items is not None:
        schema["items"] = type_schema(ref.items)
    return schema


def _tuple(ref: TypeRef) -> Schema:
    # Optional and rest elements look alike once extracted, so the length is left unchecked.
    return {
        "type": "array",
        "prefixItems": [type_schema(t) for t in ref.types],
        "$comment": "tuple: element types checked, length not",
    }


def _object(ref: TypeRef) -> Schema:
    if ref.fields:
        return object_schema(ref.fields, {})
    if ref.text:
        return {"type": "object", "$comment": f"`{ref.text}` nests too deeply; fields not checked"}
    return {"type": "object"}


def _record(ref: TypeRef) -> Schema:
    schema: Schema = {"type": "object"}
    if ref.items is not None and ref.items.kind not in _OPAQUE:
        schema["additionalProperties"] = type_schema(ref.items)
    return schema


_BUILDERS = {
    "union": _union,
    "intersection": _intersection,
    "array": _array,
    "tuple": _tuple,
    "object": _object,
    "record": _record,
}


def _variant_schema(variant: Variant, defaults: Mapping[str, Any]) -> Schema:
    disc = variant.discriminant
    # Defaults describe one variant only: the one the default data selects.
    chosen = disc is not None and disc in defaults and defaults[disc] == variant.value
    schema = object_schema(variant.fields, defaults if chosen else {})
    if disc is not None and disc not in schema["properties"]:
        schema["properties"][disc] = {"const": variant.value}
        schema.setdefault("required", []).append(disc)
    if variant.name:
        schema = {"title": variant.name, **schema}
    return schema


def own_variants(node: NodeDef) -> tuple[Variant, ...]:
    """The branches of the node's data type its variant value (`variant_field`) selects: all
    of them when none does (the data type does not tell the variants apart)."""
    data_type = node.data_type
    if node.variant_field is None or node.variant is None:
        return data_type.variants
    own = tuple(v for v in data_type.variants if node.variant in _variant_values(v, node))
    return own or data_type.variants


def _own_branch(node: NodeDef) -> NodeDef:
    """The node with only the data-type variants its variant value selects."""
    data_type = node.data_type
    own = own_variants(node)
    if len(own) == len(data_type.variants):
        return node
    return node.model_copy(update={"data_type": data_type.model_copy(update={"variants": own})})


def _variant_values(variant: Variant, node: NodeDef) -> set[str]:
    """The texts the variant field may take in this branch of the data type."""
    field = node.variant_field
    values = {variant_text(v) for v in _literals(variant.fields, field)}
    if variant.discriminant == field:
        values.add(variant_text(variant.value))
    return {v for v in values if v is not None}


def _literals(fields: Sequence[DataField], name: str | None) -> list[Any]:
    """The literal values a field's type allows (none when it is not made of literals)."""
    ref = next((f.type for f in fields if f.name == name), None)
    members = () if ref is None else ref.types if ref.kind == "union" else (ref,)
    return [m.value for m in members if m.kind == "literal"]


def _pinned(schema: Schema, node: NodeDef) -> Schema:
    """The variant field held to the node's value, where the data carries that field (the data
    type declares it, or the default data has it); required only if the type says so."""
    field = node.variant_field
    assert field is not None
    declared = [b for b in (schema, *schema.get("oneOf", ()), *schema.get("anyOf", ()))
                if field in b.get("properties", {})]
    if not declared and field not in node.default_data:
        return schema
    value = _variant_value(node)
    for branch in declared or [schema]:
        props = branch.setdefault("properties", {})
        kept = {k: v for k, v in props.get(field, {}).items() if k in _ANNOTATIONS}
        props[field] = {"const": value, **kept}
    if node.data_type.via == "none":
        schema["additionalProperties"] = True  # still "any object": only the field is known
    return schema


def _variant_value(node: NodeDef) -> Any:
    """The node's variant value as JSON writes it (a number stays a number)."""
    data_type = node.data_type
    candidates = [node.default_data.get(node.variant_field or ""),
                  *_literals(data_type.fields, node.variant_field),
                  *(v for b in data_type.variants for v in _literals(b.fields, node.variant_field)),
                  *(b.value for b in data_type.variants if b.discriminant == node.variant_field)]
    return next((c for c in candidates if variant_text(c) == node.variant), node.variant)


def _may_be_absent(ref: TypeRef) -> bool:
    """True when the value may be undefined (or a function): JSON drops such keys."""
    if ref.kind in ("undefined", "any", "unknown", "function"):
        return True
    if ref.kind == "union":
        return any(_may_be_absent(m) for m in ref.types)
    return ref.kind == "unresolved" and "undefined" in (ref.text or "")


def _unique(values: Iterable[Any]) -> list[Any]:
    # Keyed by JSON type too: True and 1 are equal in Python but not in JSON.
    seen: set[tuple[str, Any]] = set()
    out = []
    for value in values:
        key = (type_name(value), value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def tag_disagrees(field: DataField, default: Any) -> bool:
    """Whether the field's `@default` tag names a value other than the default data's."""
    if field.default_tag is None:
        return False
    tagged = _parse_default_tag(field.default_tag, type_schema(field.type))
    return tagged is _MISSING or tagged != default


def _parse_default_tag(text: str, schema: Schema) -> Any:
    """The `@default` value, when it is JSON (or 'quoted') and fits the field's own schema."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        value: Any = text[1:-1]
    else:
        try:
            value = jsonread.loads(text, "@default")
        except JsonInputError:
            return _MISSING
    from jsonschema import Draft202012Validator

    return value if Draft202012Validator(schema).is_valid(value) else _MISSING


_BUILT: IdentityMemo[NodeDef, Schema] = IdentityMemo(_node_data_schema)
