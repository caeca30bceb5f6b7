"""Field lists: a node's data described by a list of field descriptors in its entry (n8n's
`properties: INodeProperties[]`, Flowise's `inputs: INodeParams[]`) instead of a TypeScript
type. Config `field_list` says where the list is and which descriptor key holds the name,
type, default, options, required flag, nested fields, visibility and description; a preset
fills them for a known dialect. The result is the same DataType the TypeScript path gives,
so skills, the schema document, search and validation read it unchanged; visibility
conditions become each field's `shown_when`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from pygen.config import FieldList, TypeWordMeaning
from pygen.extract import value_shapes, versioned
from pygen.model import Condition, DataField, DataType, Scalar, TypeRef

# Descriptor key of each part, per dialect; None: the dialect has no such key.
PRESETS: dict[str | None, dict[str, str | None]] = {
    None: {"name": "name", "label": "label", "type": "type", "default": "default",
           "description": "description", "options": "options", "option_value": "value",
           "required": "required", "optional": None, "show": "show", "hide": "hide",
           "version": None, "internal": None},
    "n8n": {"name": "name", "label": "displayName", "type": "type", "default": "default",
            "description": "description", "options": "options", "option_value": "value",
            "required": "required", "optional": None, "show": "displayOptions.show",
            "hide": "displayOptions.hide", "version": "@version", "internal": None},
    "flowise": {"name": "name", "label": "label", "type": "type", "default": "default",
                "description": "description", "options": "options", "option_value": "name",
                "required": None, "optional": "optional", "show": "show", "hide": "hide",
                # `hidden: true` inputs are never drawn (packages/ui/src/views/canvas/
                # CanvasNode.jsx:230 keeps `!inputParam.hidden`): the node fills them itself.
                "version": None, "internal": "hidden"},
}

# Descriptor type words and what each means for the value: a JSON scalar, `enum` (one of the
# descriptor's options), `enum_list` (a list of them), `object`, `list`, the n8n nestings
# `collection`/`fixed_collection`, or `not_data` (shown in the editor, holds no data).
Meaning = str
MEANINGS = frozenset(get_args(TypeWordMeaning))
_N8N_WORDS: dict[str, Meaning] = {
    "string": "string", "password": "string", "code": "string", "color": "string",
    "dateTime": "string", "hidden": "string", "asyncOptions": "string", "file": "string",
    "folder": "string", "number": "number", "boolean": "boolean", "options": "enum",
    "multiOptions": "enum_list", "collection": "collection",
    "fixedCollection": "fixed_collection", "notice": "not_data", "callout": "not_data",
    "button": "not_data",
}
# The words form builders use (`{key, label, type: "text" | "select" | "json", options}`).
GENERIC_WORDS: dict[str, Meaning] = {
    **_N8N_WORDS,
    "text": "string", "textarea": "string", "email": "string", "url": "string",
    "tel": "string", "date": "string", "time": "string", "datetime": "string",
    "markdown": "string", "richtext": "string", "prompt": "string", "template": "string",
    "integer": "number", "int": "number", "float": "number", "slider": "number",
    "range": "number", "checkbox": "boolean", "switch": "boolean", "toggle": "boolean",
    "bool": "boolean", "select": "enum", "radio": "enum", "dropdown": "enum",
    "multiselect": "enum_list", "multiSelect": "enum_list", "checkboxes": "enum_list",
    "json": "object", "object": "object", "keyvalue": "object", "array": "list",
    "list": "list", "tags": "list", "divider": "not_data", "info": "not_data",
}
# Per preset, as data: each dialect's own words (Flowise's are n8n's, so far).
TYPE_WORDS: dict[str | None, dict[str, Meaning]] = {
    None: GENERIC_WORDS, "n8n": _N8N_WORDS, "flowise": _N8N_WORDS,
}
_SCALARS = {"string", "number", "boolean"}
# Per preset: the type words whose empty value (`""`, an empty list) a required field may not
# keep: n8n-workflow's `addToIssuesIfMissing` (NodeHelpers) flags a required `string`,
# `options` or `dateTime` parameter that is "" or unset after defaults, and a `multiOptions`
# one that is []; the tag `nonempty` carries it (conventions `required_nonempty` enforces it).
EMPTY_IS_MISSING: dict[str | None, frozenset[str]] = {
    "n8n": frozenset({"string", "options", "dateTime", "multiOptions"}),
}


@dataclass
class Reading:
    """What reading one node's list found: fields, and what it could not read."""

    keys: Mapping[str, str | None]
    words: Mapping[str, Meaning] = field(default_factory=lambda: GENERIC_WORDS)
    problems: list[str] = field(default_factory=list)
    # The node's own version, when its visibility conditions can name one (`@version`).
    version: float | None = None
    # The dialect, for the value shapes it fixes (pygen.extract.value_shapes).
    preset: str | None = None
    # The type words whose empty value a required field may not keep (EMPTY_IS_MISSING).
    nonempty: frozenset[str] = frozenset()


def keys_for(config: FieldList) -> dict[str, str | None]:
    """The descriptor keys: the preset's, each overridden by the key set in the config."""
    keys = dict(PRESETS[config.preset])
    for name in keys:
        value = getattr(config, name)
        if value is not None:
            keys[name] = value
    return keys


def words_for(config: FieldList) -> dict[str, Meaning]:
    """The type-word map: the preset's, each word overridden or added by `type_words`."""
    return {**TYPE_WORDS[config.preset], **(config.type_words or {})}


def data_type(descriptors: Any, config: FieldList,
              version: str | None = None) -> tuple[DataType, list[str]]:
    """The node's data type from its descriptor list, and one problem per unreadable item.
    `version`: the node's version (its variant), which picks the fields a dialect's version
    condition shows."""
    reading = Reading(keys_for(config), words_for(config), version=_number(version),
                      preset=config.preset,
                      nonempty=EMPTY_IS_MISSING.get(config.preset, frozenset()))
    fields = read_fields(descriptors, reading, f"'{config.entry_field}'")
    return DataType(via="field-list", fields=fields), reading.problems


def read_fields(descriptors: Any, reading: Reading, where: str) -> tuple[DataField, ...]:
    descriptors = _named_list(descriptors, reading.keys["name"])
    if not isinstance(descriptors, list):
        reading.problems.append(f"{where} is not a list of field descriptors")
        return ()
    out = []
    for i, item in enumerate(descriptors):
        read = read_field(item, reading, f"{where}[{i}]")
        if read is not None:
            out.append(read)
    return _handled(out)


def _handled(fields: list[DataField]) -> tuple[DataField, ...]:
    """A choice's values its own list no longer offers but its siblings' conditions still
    show fields for: values the node still handles (n8n's Code node offers `pythonNative`,
    yet shows `pythonCode` for `python` too and runs it, "keep legacy `python` for backwards
    compatibility" in Code.node.js). Kept as the `handled` tag: accepted with a warning,
    never taught."""
    named: dict[str, list[Scalar]] = {}
    for f in fields:
        for c in f.shown_when:
            if not c.hide:
                named.setdefault(c.field, []).extend(c.values)
    # A field listed once per condition offers what any of its listings offers.
    offers: dict[str, list[Scalar]] = {}
    for f in fields:
        offers.setdefault(f.name, []).extend(_literals(f.type))
    out = []
    for f in fields:
        offered = offers[f.name]
        extra = [v for v in dict.fromkeys(named.get(f.name, ())) if v not in offered]
        if _literals(f.type) and extra:
            f = f.model_copy(update={"tags": (*f.tags, ("handled", json.dumps(extra)))})
        out.append(f)
    return tuple(out)


def _literals(ref: TypeRef) -> list[Scalar]:
    """The values of a choice (a literal or a union of literals); empty for anything else."""
    if ref.kind == "literal":
        return [ref.value]
    if ref.kind == "union" and ref.types and all(t.kind == "literal" for t in ref.types):
        return [t.value for t in ref.types]
    return []


def _named_list(descriptors: Any, name_key: str | None) -> Any:
    """A record of descriptors (`{method: {defaultValue, editorType}}`) as the list it means:
    each key is the field's name (its own name key, when it has one, wins). Anything else is
    returned as it was."""
    if not isinstance(descriptors, dict) or not descriptors or name_key is None or not all(
            isinstance(v, dict) for v in descriptors.values()):
        return descriptors
    return [{name_key: key, **value} for key, value in descriptors.items()]


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def _get(item: Mapping[str, Any], key: str | None) -> Any:
    """The value at a (dotted) descriptor key, or None."""
    if key is None:
        return None
    if key in item:
        return item[key]
    value: Any = item
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def read_field(item: Any, reading: Reading, where: str) -> DataField | None:
    keys = reading.keys
    name = _get(item, keys["name"]) if isinstance(item, dict) else None
    if not isinstance(name, str) or not name:
        reading.problems.append(f"{where} has no string '{keys['name']}'")
        return None
    kind = _get(item, keys["type"])
    show, hide = _get(item, keys["show"]), _get(item, keys["hide"])
    meaning = reading.words.get(kind) if isinstance(kind, str) else None
    shown = versioned.shown_in(show, hide, keys["version"], reading.version)
    if meaning == "not_data" or not shown:
        return None
    ref = type_ref(item, kind, reading, f"{where} ({name})")
    default = _get(item, keys["default"])
    required = _required(item, keys)
    # A list of such values (`multipleValues`) is checked item by item in n8n: [] passes.
    nonempty = required and kind in reading.nonempty and (
        _get(item, "typeOptions.multipleValues") is not True)
    return DataField(
        name=name, type_text=type_text(ref, kind), type=ref, optional=not required,
        description=_description(item, keys),
        default_tag=_default_text(default), tags=(("nonempty", ""),) if nonempty else (),
        shown_when=(*conditions(show, False, keys["version"]),
                    *conditions(hide, True, keys["version"])))


def _required(item: Mapping[str, Any], keys: Mapping[str, str | None]) -> bool:
    if keys["internal"] is not None and _get(item, keys["internal"]) is True:
        return False  # never shown, so never the person's to fill in
    if keys["required"] is not None:
        return _get(item, keys["required"]) is True
    return keys["optional"] is not None and _get(item, keys["optional"]) is not True


def _description(item: Mapping[str, Any], keys: Mapping[str, str | None]) -> str:
    label = _get(item, keys["label"])
    text = _get(item, keys["description"])
    parts = [p.strip() for p in (label, text) if isinstance(p, str) and p.strip()]
    return ". ".join(" ".join(p.split()) for p in parts) if parts else ""


def _default_text(value: Any) -> str | None:
    """A default worth showing: a scalar, or a non-empty list or object."""
    if value is None or value == "" or value in ([], {}):
        return None
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def type_ref(item: Mapping[str, Any], kind: Any, reading: Reading, where: str) -> TypeRef:
    """The JSON type of a descriptor's value, by what its dialect's type word means."""
    meaning = reading.words.get(kind) if isinstance(kind, str) else None
    if meaning in _SCALARS:
        scalar = TypeRef(kind=meaning)  # type: ignore[arg-type]
        # `typeOptions.multipleValues` on a plain value: the value is a list of them.
        many = _get(item, "typeOptions.multipleValues") is True
        return TypeRef(kind="array", items=scalar) if many else scalar
    options = _get(item, reading.keys["options"])
    if meaning == "enum":
        return _choice(options, reading.keys)
    if meaning == "enum_list":
        return TypeRef(kind="array", items=_choice(options, reading.keys))
    if meaning == "object":
        return TypeRef(kind="object")
    if meaning == "list":
        return TypeRef(kind="array", items=TypeRef(kind="unknown"))
    if meaning == "collection":
        obj = TypeRef(kind="object", fields=tuple(
            f.model_copy(update={"optional": True})
            for f in read_fields(options or [], reading, f"{where}.options")))
        # `typeOptions.multipleValues`: the value is a list of such objects.
        many = _get(item, "typeOptions.multipleValues") is True
        return TypeRef(kind="array", items=obj) if many else obj
    if meaning == "fixed_collection":
        return _fixed_collection(item, options, reading, where)
    shaped = value_shapes.shape(reading.preset, kind) if meaning is None else None
    return shaped or TypeRef(kind="unknown", text=kind if isinstance(kind, str) else None)


def _choice(options: Any, keys: Mapping[str, str | None]) -> TypeRef:
    """A union of the option values; a string or number id when they are loaded at run time
    (n8n's `loadOptionsMethod`: a saved id is either)."""
    values: list[Scalar] = []
    for option in options if isinstance(options, list) else []:
        value = _get(option, keys["option_value"]) if isinstance(option, dict) else option
        if isinstance(value, str | int | float | bool) and value not in values:
            values.append(value)
    if not values:
        return TypeRef(kind="union", types=(TypeRef(kind="string"), TypeRef(kind="number")))
    if len(values) == 1:
        return TypeRef(kind="literal", value=values[0])
    return TypeRef(kind="union", types=tuple(TypeRef(kind="literal", value=v) for v in values))


def _fixed_collection(item: Mapping[str, Any], options: Any, reading: Reading,
                      where: str) -> TypeRef:
    """n8n's fixedCollection: one key per option group, each an object (a list of them when
    `typeOptions.multipleValues`) of the group's `values`."""
    many = _get(item, "typeOptions.multipleValues") is True
    groups = []
    for i, group in enumerate(options if isinstance(options, list) else []):
        name = group.get(reading.keys["name"] or "name") if isinstance(group, dict) else None
        if not isinstance(name, str):
            reading.problems.append(f"{where}.options[{i}] has no string name")
            continue
        inner = tuple(f.model_copy(update={"optional": True}) for f in read_fields(
            group.get("values", []), reading, f"{where}.options[{i}].values"))
        obj = TypeRef(kind="object", fields=inner)
        ref = TypeRef(kind="array", items=obj) if many else obj
        groups.append(DataField(name=name, type_text=type_text(ref, None), type=ref,
                                optional=True, description=_description(group, reading.keys)))
    return TypeRef(kind="object", fields=tuple(groups))


def conditions(value: Any, hide: bool, version_key: str | None = None) -> tuple[Condition, ...]:
    """`{resource: ["issue"], operation: ["create"]}` → one condition per key. Values that are
    not plain data (a rule object) are left out of the condition; a key left with none is
    dropped, and so is the dialect's version key (no data field: it picked the fields)."""
    if not isinstance(value, dict):
        return ()
    out = []
    for key, wanted in value.items():
        if key == version_key:
            continue
        items = wanted if isinstance(wanted, list) else [wanted]
        kept = tuple(v for v in items if v is None or isinstance(v, str | int | float | bool))
        if kept:
            out.append(Condition(field=str(key).lstrip("/"), values=kept, hide=hide))
    return tuple(out)


def type_text(ref: TypeRef, kind: Any) -> str:
    """How a field's type reads in a skill."""
    if ref.kind == "literal":
        return json.dumps(ref.value)
    if ref.kind == "union":
        return " | ".join(type_text(t, None) for t in ref.types)
    if ref.kind == "array" and ref.items is not None:
        inner = type_text(ref.items, None)
        return f"({inner})[]" if ref.items.kind == "union" else f"{inner}[]"
    if ref.kind == "object":
        return "object"
    if ref.kind == "unknown":
        return ref.text or (kind if isinstance(kind, str) else "unknown")
    return ref.kind


def count(fields: tuple[DataField, ...]) -> tuple[int, int]:
    """Top-level and nested fields, for the benchmark."""
    nested = 0
    for f in fields:
        target = f.type.items if f.type.kind == "array" and f.type.items else f.type
        if target.kind == "object":
            top, inner = count(target.fields)
            nested += top + inner
    return len(fields), nested
