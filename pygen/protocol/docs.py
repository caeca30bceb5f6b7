"""The protocol's JSON Schema and the AUTO-GEN blocks of `skills/protocol/skill-call.md`.

Pure functions of the models and the registry, so the docs cannot drift from the code.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from pygen.protocol.models import SceneSpec, SceneSpecPatch, SkillCallRequest, SkillCallResult
from pygen.protocol.registry import Registry, RegistrySkill

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_ROOTS = ("SkillCallRequest", "SkillCallResult")
# The AUTO-GEN blocks of skills/protocol/skill-call.md: the shapes, then the registry.
BLOCKS = ("protocol-shapes", "protocol-registry")


def protocol_schema() -> dict[str, Any]:
    """One JSON Schema document: `$defs` for every shape, a document is a request or a result."""
    models: list[type[BaseModel]] = [SkillCallRequest, SkillCallResult, SceneSpec, SceneSpecPatch]
    _, schema = models_json_schema(
        [(model, "validation") for model in models], by_alias=True, title="Skill Call Protocol"
    )
    return {
        "$schema": SCHEMA_DIALECT,
        **schema,
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in _ROOTS],
    }


def _ref_name(schema: dict[str, Any]) -> str:
    return str(schema["$ref"]).rsplit("/", 1)[-1]


def ts_type(schema: dict[str, Any]) -> str:
    """A TypeScript-like spelling of one JSON Schema; `null` members are dropped (optional)."""
    if "$ref" in schema:
        return _ref_name(schema)
    if "anyOf" in schema:
        members = [ts_type(m) for m in schema["anyOf"] if m.get("type") != "null"]
        return " | ".join(dict.fromkeys(members))  # integer and number both read `number`
    if "const" in schema:
        return f"'{schema['const']}'"
    if "enum" in schema:
        return " | ".join(f"'{value}'" for value in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        item = ts_type(schema.get("items", {}))
        return f"{item}[]" if item.isidentifier() else f"Array<{item}>"
    if kind in ("integer", "number"):
        return "number"
    if kind in ("string", "boolean"):
        return str(kind)
    if kind == "object":
        return "Record<string, unknown>"
    return "unknown"


def _comment(text: str | None, indent: str) -> list[str]:
    """The first paragraph of a description as `//` lines."""
    if not text:
        return []
    first = text.strip().split("\n\n", 1)[0]
    return [f"{indent}// {line.strip()}" for line in first.splitlines()]


def ts_declaration(name: str, schema: dict[str, Any]) -> str:
    lines = _comment(schema.get("description"), "")
    if "enum" in schema:
        return "\n".join([*lines, f"export type {name} = {ts_type(schema)};"])
    lines.append(f"export type {name} = {{")
    required = set(schema.get("required", ()))
    for prop, spec in schema.get("properties", {}).items():
        lines.extend(_comment(spec.get("description"), "  "))
        mark = "" if prop in required else "?"
        lines.append(f"  {prop}{mark}: {ts_type(spec)};")
    if schema.get("additionalProperties") is True:
        lines.append("  [key: string]: unknown;")
    lines.append("};")
    return "\n".join(lines)


def _refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        own = [_ref_name(value)] if "$ref" in value else []
        return own + [name for item in value.values() for name in _refs(item)]
    if isinstance(value, list):
        return [name for item in value for name in _refs(item)]
    return []


def _declaration_order(defs: dict[str, Any]) -> list[str]:
    """Request and result first, then what they reference, breadth-first, each once."""
    order: list[str] = []
    queue = [*_ROOTS]
    while queue:
        name = queue.pop(0)
        if name in order or name not in defs:
            continue
        order.append(name)
        queue.extend(_refs(defs[name]))
    return order + sorted(set(defs) - set(order))


def render_shapes() -> str:
    defs = protocol_schema()["$defs"]
    body = "\n\n".join(ts_declaration(name, defs[name]) for name in _declaration_order(defs))
    return f"```ts\n{body}\n```\n"


def compact_shapes() -> str:
    """The shapes an agent writes, one line each, without comments: `Name {a: T; b?: U}`.

    The compact form of the schema resource (a tenth of its size); `?` marks optional keys,
    `…` a shape that takes more keys than it lists.
    """
    defs = protocol_schema()["$defs"]
    lines = []
    for name in _declaration_order(defs):
        schema = defs[name]
        if "enum" in schema:
            lines.append(f"{name} = {ts_type(schema)}")
            continue
        required = set(schema.get("required", ()))
        props = [f"{prop}{'' if prop in required else '?'}: {ts_type(spec)}"
                 for prop, spec in schema.get("properties", {}).items()]
        if schema.get("additionalProperties") is True:
            props.append("…")
        lines.append(f"{name} {{{'; '.join(props)}}}")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _returns(skill: RegistrySkill) -> str:
    parts = [f"`{kind}`" for kind in skill.outputs]
    parts += [f"optional `{kind}`" for kind in skill.optional_outputs]
    parts += list(skill.also_returns)
    return ", ".join(parts)


def render_registry(registry: Registry) -> str:
    lines = [
        "| Skill | Request | Expected return | `plan` answers |",
        "|---|---|---|---|",
    ]
    for skill in registry.skills:
        status = "`planned`" if skill.ready else "`dryRun`"
        lines.append(
            f"| `{skill.name}` | {_cell(skill.asks)} | {_cell(_returns(skill))} | {status} |"
        )
    return "\n".join(lines) + "\n"


def render_protocol_blocks(registry: Registry) -> dict[str, str]:
    """AUTO-GEN block bodies for skills/protocol/skill-call.md, keyed by block id."""
    shapes, listing = BLOCKS
    return {shapes: render_shapes(), listing: render_registry(registry)}
