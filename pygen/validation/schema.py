"""JSON Schema (draft 2020-12) for each node's `data`, built from the extracted TypeScript types.

The rule throughout: a schema may be looser than the TypeScript type, never stricter, so data
the editor accepts never fails. What JSON Schema cannot say (functions, unresolved references,
`any`) becomes `{}` with a `$comment`. Extra properties are allowed here; the validator reports
them as warnings instead, because the editor keeps unknown keys.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from pygen.model import DataField, NodeDef, TypeRef, Variant

DRAFT = "https://json-schema.org/draft/2020-12/schema"
Schema = dict[str, Any]

_PRIMITIVES = {"string": "string", "number": "number", "boolean": "boolean", "null": "null"}
# Kinds whose values JSON Schema cannot constrain faithfully.
_OPAQUE = {"any", "unknown", "function", "unresolved"}
_MISSING = object()


def node_data_schema(node: NodeDef) -> Schema:
    """The schema a node's `data` object must satisfy."""
    data_type = node.data_type
    schema: Schema = {"title": data_type.name or f"{node.label} data"}
    if node.description:
        schema["description"] = node.description
    if data_type.via == "none":
        schema.update(type="object", **{"$comment": "no data type found; any object passes"})
        return schema
    if data_type.fields or not data_type.variants:
        schema.update(object_schema(data_type.fields, node.default_data))
    else:
        schema["type"] = "object"
    if data_type.variants:
        schema.update(_variants_schema(data_type.variants, node.default_data))
    return schema


def object_schema(fields: Sequence[DataField], defaults: Mapping[str, Any]) -> Schema:
    properties = {f.name: field_schema(f, defaults.get(f.name, _MISSING)) for f in fields}
    required = [f.name for f in fields if not f.optional and not _may_be_absent(f.type)]
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
                     if m.kind == "literal" and _literal_type(m.value) not in type_names)
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
    keyword = "oneOf" if all(_disjoint(a, b) for a, b in combinations(branches, 2)) else "anyOf"
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


def _variants_schema(variants: Sequence[Variant], defaults: Mapping[str, Any]) -> Schema:
    return choice([_variant_schema(v, defaults) for v in variants])


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


def _may_be_absent(ref: TypeRef) -> bool:
    """True when the value may be undefined (or a function): JSON drops such keys."""
    if ref.kind in ("undefined", "any", "unknown", "function"):
        return True
    if ref.kind == "union":
        return any(_may_be_absent(m) for m in ref.types)
    return ref.kind == "unresolved" and "undefined" in (ref.text or "")


def _literal_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null" if value is None else "string"


def _unique(values: Iterable[Any]) -> list[Any]:
    # Keyed by JSON type too: True and 1 are equal in Python but not in JSON.
    seen: set[tuple[str, Any]] = set()
    out = []
    for value in values:
        key = (_literal_type(value), value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def _parse_default_tag(text: str, schema: Schema) -> Any:
    """The `@default` value, when it is JSON (or 'quoted') and fits the field's own schema."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        value: Any = text[1:-1]
    else:
        try:
            value = json.loads(text)
        except ValueError:
            return _MISSING
    check = compile_check(schema)
    if check is None:
        from jsonschema import Draft202012Validator

        return value if Draft202012Validator(schema).is_valid(value) else _MISSING
    return value if check(value) else _MISSING


# --- Disjointness, so that `oneOf` is only used where it cannot reject valid data ---------

def _json_types(schema: Schema) -> set[str] | None:
    """The JSON types a schema can accept, or None when it is not known."""
    if "const" in schema:
        return {_literal_type(schema["const"])}
    if "enum" in schema:
        return {_literal_type(v) for v in schema["enum"]}
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return set(kind)
    return None


def _disjoint(a: Schema, b: Schema) -> bool:
    types_a, types_b = _json_types(a), _json_types(b)
    if types_a is None or types_b is None:
        return False
    common = types_a & types_b
    if not common:
        return True
    if common == {"object"}:
        return _discriminated(a, b)
    if "const" in a or "enum" in a:
        return ("const" in b or "enum" in b) and not (_values(a) & _values(b))
    return False


def _discriminated(a: Schema, b: Schema) -> bool:
    """Both objects require a property whose literal values differ."""
    shared = set(a.get("required", ())) & set(b.get("required", ()))
    for name in shared:
        prop_a = a.get("properties", {}).get(name, {})
        prop_b = b.get("properties", {}).get(name, {})
        if _is_literal(prop_a) and _is_literal(prop_b) and not (_values(prop_a) & _values(prop_b)):
            return True
    return False


def _is_literal(schema: Schema) -> bool:
    return "const" in schema or "enum" in schema


def _values(schema: Schema) -> set[tuple[str, Any]]:
    values = [schema["const"]] if "const" in schema else schema.get("enum", [])
    return {(_literal_type(v), json.dumps(v)) for v in values}


# --- A fast yes/no check for the keywords these schemas use --------------------------------
#
# jsonschema spends most of its time building a validator per subschema; a plain closure tree
# answers "is this valid?" several times faster. It is only a fast path: when it says no (or
# meets a keyword it does not know) the caller runs jsonschema for the errors.

Check = Callable[[Any], bool]
_ANNOTATIONS = frozenset({"title", "description", "default", "deprecated", "$comment", "$schema",
                          "examples"})
_TYPE_TESTS: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def compile_check(schema: object) -> Check | None:
    """A predicate equal to `Draft202012Validator(schema).is_valid`, or None if unsupported."""
    if isinstance(schema, bool):
        return (lambda v: True) if schema else (lambda v: False)
    if not isinstance(schema, dict):
        return None
    checks: list[Check] = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        builder = _CHECK_BUILDERS.get(keyword)
        check = builder(value, schema) if builder else None
        if check is None:
            return None
        checks.append(check)
    return _all(checks)


def _all(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def check(v: Any) -> bool:
        return all(c(v) for c in checks)
    return check


def _subchecks(schemas: object) -> list[Check] | None:
    if not isinstance(schemas, list):
        return None
    checks = [compile_check(s) for s in schemas]
    return None if any(c is None for c in checks) else [c for c in checks if c is not None]


def _check_type(value: object, _: Schema) -> Check | None:
    names = value if isinstance(value, list) else [value]
    if not all(isinstance(n, str) and n in _TYPE_TESTS for n in names):
        return None
    tests = [_TYPE_TESTS[str(n)] for n in names]
    return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))


def _scalar_key(value: object) -> tuple[str, object] | None:
    """Hashable JSON-equality key: 1 == 1.0, but True is not 1."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, str) or value is None:
        return ("scalar", value)
    return None


def _check_enum(value: object, _: Schema) -> Check | None:
    if not isinstance(value, list):
        return None
    keys = {_scalar_key(v) for v in value}
    if None in keys:  # an object or array among the options: leave it to jsonschema
        return None
    return lambda v: _scalar_key(v) in keys


def _check_const(value: object, schema: Schema) -> Check | None:
    return _check_enum([value], schema)


def _check_properties(value: object, _: Schema) -> Check | None:
    if not isinstance(value, dict):
        return None
    pairs: list[tuple[str, Check]] = []
    for name, sub in value.items():
        check_sub = compile_check(sub)
        if check_sub is None:
            return None
        pairs.append((name, check_sub))

    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        return all(name not in v or c(v[name]) for name, c in pairs)
    return check


def _check_required(value: object, _: Schema) -> Check | None:
    if not isinstance(value, list):
        return None
    return lambda v: not isinstance(v, dict) or all(name in v for name in value)


def _check_additional(value: object, schema: Schema) -> Check | None:
    sub = compile_check(value)
    known = schema.get("properties", {})
    if sub is None or not isinstance(known, dict):
        return None
    return lambda v: not isinstance(v, dict) or all(
        k in known or sub(x) for k, x in v.items())


def _check_items(value: object, schema: Schema) -> Check | None:
    sub = compile_check(value)
    start = len(schema.get("prefixItems", ()))
    if sub is None:
        return None
    return lambda v: not isinstance(v, list) or all(sub(x) for x in v[start:])


def _check_prefix(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    if subs is None:
        return None
    return lambda v: not isinstance(v, list) or all(c(x) for c, x in zip(subs, v, strict=False))


def _check_one_of(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    return None if subs is None else (lambda v: sum(1 for c in subs if c(v)) == 1)


def _check_any_of(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    return None if subs is None else (lambda v: any(c(v) for c in subs))


def _check_all_of(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    return None if subs is None else (lambda v: all(c(v) for c in subs))


def _check_not(value: object, _: Schema) -> Check | None:
    sub = compile_check(value)
    return None if sub is None else (lambda v: not sub(v))


_CHECK_BUILDERS: dict[str, Callable[[object, Schema], Check | None]] = {
    "type": _check_type,
    "enum": _check_enum,
    "const": _check_const,
    "properties": _check_properties,
    "required": _check_required,
    "additionalProperties": _check_additional,
    "items": _check_items,
    "prefixItems": _check_prefix,
    "oneOf": _check_one_of,
    "anyOf": _check_any_of,
    "allOf": _check_all_of,
    "not": _check_not,
}
