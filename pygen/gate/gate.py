"""What needs a person in a skill catalog: the checks behind `pygen check` and `pygen doctor`.

Pure functions over the config, the planned files and the model; the commands print them.
`gate` is what `check` and `gen` enforce (hand edits, stale prose, orphans); `diagnose` is
the full `doctor` report, which adds the model's and the tools' health, prose coverage,
token sizes and node ↔ tool schema agreement.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pygen import files
from pygen.config import Config
from pygen.gate import orphans, prose_lint
from pygen.gate.orphans import Orphan
from pygen.gate.prose_lint import StaleName
from pygen.model import DataField, Model, NodeDef, ToolSchema, TypeRef
from pygen.skills import digests
from pygen.skills.digests import HandEdit

PROSE_SECTIONS = ("When to use", "Common gotchas")
CHARS_PER_TOKEN = 4
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


# --- the gate `check` and `gen` enforce -----------------------------------------------------

@dataclass(frozen=True)
class Gate:
    hand_edits: tuple[HandEdit, ...]
    stale_names: tuple[StaleName, ...]
    orphans: tuple[Orphan, ...]
    stale_prose: Literal["error", "warn", "off"]

    @property
    def failed(self) -> bool:
        """Whether something here needs a person (warn-level prose does not)."""
        prose = bool(self.stale_names) and self.stale_prose == "error"
        return bool(self.hand_edits or self.orphans) or prose


def stale_prose(config: Config, model: Model, planned: Sequence[digests.Planned],
                written: bool) -> tuple[StaleName, ...]:
    if config.settings.stale_prose == "off":
        return ()
    return tuple(prose_lint.lint_skills(config.skills_dir, model, planned, written,
                                        extra=[config.settings.definitions]))


def gate(config: Config, model: Model, planned: Sequence[digests.Planned]) -> Gate:
    """For `check`: hand edits among the planned files, stale prose, orphaned node files."""
    return Gate(tuple(digests.find(planned)), stale_prose(config, model, planned, False),
                tuple(orphans.find(config.skills_dir, model)), config.settings.stale_prose)


def after_gen(config: Config, model: Model, written: Sequence[digests.Planned],
              refused: Sequence[HandEdit], prune: bool) -> tuple[Gate, tuple[Orphan, ...]]:
    """For `gen`, once it has written: what is left for a person, and the orphans pruned.

    `written` are the files gen wrote (or left); `refused` the hand edits it would not touch.
    """
    found = orphans.find(config.skills_dir, model)
    deleted, kept = orphans.prune(found) if prune else ([], found)
    stale = stale_prose(config, model, written, True)
    return Gate(tuple(refused), stale, tuple(kept), config.settings.stale_prose), tuple(deleted)


# --- prose coverage -------------------------------------------------------------------------

@dataclass(frozen=True)
class ProseGap:
    node_type: str
    path: Path
    # The sections of PROSE_SECTIONS that are missing or hold no text.
    empty: tuple[str, ...]


def section_text(text: str, title: str) -> str | None:
    """The text under the heading `title` up to the next heading or block; None if absent."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = HEADING.match(line)
        if match and match.group(2).strip().lower() == title.lower():
            body = []
            for following in lines[index + 1:]:
                if HEADING.match(following) or "AUTO-GEN:START" in following:
                    break
                body.append(following)
            return COMMENT.sub("", "\n".join(body)).strip()
    return None


def prose_gaps(nodes: Iterable[NodeDef], texts: Mapping[str, tuple[Path, str | None]]
               ) -> list[ProseGap]:
    gaps = []
    for node in nodes:
        path, text = texts[node.type]
        empty = tuple(title for title in PROSE_SECTIONS
                      if not (text is not None and section_text(text, title)))
        if empty:
            gaps.append(ProseGap(node.type, path, empty))
    return gaps


def coverage(node_count: int, gaps: Iterable[ProseGap]) -> float:
    """Percent of the nodes' prose sections that hold text."""
    total = node_count * len(PROSE_SECTIONS)
    if total == 0:
        return 100.0
    missing = sum(len(gap.empty) for gap in gaps)
    return round(100.0 * (total - missing) / total, 1)


# --- token sizes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class TokenSize:
    path: Path
    chars: int

    @property
    def tokens(self) -> int:
        """Estimated tokens: characters / 4, the usual rule of thumb for English and code."""
        return math.ceil(self.chars / CHARS_PER_TOKEN)


def token_sizes(texts: Mapping[Path, str]) -> list[TokenSize]:
    sizes = [TokenSize(path, len(text)) for path, text in texts.items()]
    return sorted(sizes, key=lambda s: (-s.chars, str(s.path)))


# --- node data ↔ tool input schema ----------------------------------------------------------

@dataclass(frozen=True)
class Mismatch:
    node_type: str
    field: str
    tool: str
    param: str
    kind: Literal["enum", "type"]
    node_side: str
    tool_side: str

    def text(self) -> str:
        return (f"{self.node_type}.{self.field} ↔ {self.tool}.{self.param}: {self.kind} "
                f"differs: node {self.node_side}, tool {self.tool_side}")


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).replace("-", "_").lower()


def json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null" if value is None else "string"


_TS_KINDS = {"string": "string", "number": "number", "boolean": "boolean", "null": "null",
             "array": "array", "tuple": "array", "object": "object", "record": "object"}


def ts_types(ref: TypeRef) -> frozenset[str] | None:
    """The JSON types a TypeScript type admits; None when that is not known (any, unresolved)."""
    if ref.kind == "literal":
        return frozenset({json_type(ref.value)})
    if ref.kind == "undefined":
        return frozenset()
    if ref.kind == "union":
        parts = [ts_types(member) for member in ref.types]
        return None if any(p is None for p in parts) else frozenset().union(*parts)  # type: ignore[arg-type]
    kind = _TS_KINDS.get(ref.kind)
    return frozenset({kind}) if kind else None


def resolve(schema: Any, root: Mapping[str, Any]) -> Any:
    """Follow a local `$ref` (`#/$defs/X`, `#/definitions/X`) once or more."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 20:
        parts = schema["$ref"].removeprefix("#/").split("/")
        target: Any = root
        for part in parts:
            target = target.get(part) if isinstance(target, dict) else None
        if target is None:
            return schema
        schema, seen = target, seen + 1
    return schema


def _members(schema: Mapping[str, Any], root: Mapping[str, Any]) -> list[Any] | None:
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return [resolve(m, root) for m in schema[key]]
    return None


def schema_types(schema: Any, root: Mapping[str, Any]) -> frozenset[str] | None:
    schema = resolve(schema, root)
    if not isinstance(schema, dict):
        return None
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({"number" if declared == "integer" else declared})
    if isinstance(declared, list):
        return frozenset("number" if t == "integer" else str(t) for t in declared)
    if "const" in schema:
        return frozenset({json_type(schema["const"])})
    if isinstance(schema.get("enum"), list):
        return frozenset(json_type(v) for v in schema["enum"])
    members = _members(schema, root)
    if members is None:
        return None
    parts = [schema_types(m, root) for m in members]
    return None if any(p is None for p in parts) else frozenset().union(*parts)  # type: ignore[arg-type]


def schema_enum(schema: Any, root: Mapping[str, Any]) -> frozenset[Any] | None:
    """The values a schema allows when it is an enum (null aside), else None."""
    schema = resolve(schema, root)
    if not isinstance(schema, dict):
        return None
    if isinstance(schema.get("enum"), list):
        return frozenset(v for v in schema["enum"] if v is not None) or None
    if "const" in schema:
        return frozenset({schema["const"]}) if schema["const"] is not None else None
    members = _members(schema, root)
    if members is None:
        return None
    values: set[Any] = set()
    for member in members:
        if isinstance(member, dict) and member.get("type") == "null":
            continue
        sub = schema_enum(member, root)
        if sub is None:
            return None
        values |= sub
    return frozenset(values) or None


def _shown(values: Iterable[Any]) -> str:
    return " | ".join(sorted(repr(v) if not isinstance(v, str) else f'"{v}"' for v in values))


def param_for(name: str, properties: Mapping[str, Any]) -> str | None:
    for candidate in (name, snake(name)):
        if candidate in properties:
            return candidate
    return next((p for p in properties if prose_lint.norm(p) == prose_lint.norm(name)), None)


def compare_field(node: NodeDef, tool: ToolSchema, data_field: DataField, param: str,
                  schema: Any) -> Mismatch | None:
    root = tool.input_schema
    mine = data_field.type.literal_values()
    theirs = schema_enum(schema, root)
    if mine is not None and theirs is not None and set(mine) != set(theirs):
        only_node, only_tool = set(mine) - set(theirs), set(theirs) - set(mine)
        return Mismatch(node.type, data_field.name, tool.name, param, "enum",
                        f"only {_shown(only_node)}" if only_node else "—",
                        f"only {_shown(only_tool)}" if only_tool else "—")
    node_types = ts_types(data_field.type)
    tool_types = schema_types(schema, root)
    if node_types is None or tool_types is None:
        return None
    node_types, tool_types = node_types - {"null"}, tool_types - {"null"}
    if node_types and tool_types and node_types != tool_types:
        return Mismatch(node.type, data_field.name, tool.name, param, "type",
                        " | ".join(sorted(node_types)), " | ".join(sorted(tool_types)))
    return None


def node_fields(node: NodeDef) -> list[DataField]:
    fields = list(node.data_type.fields)
    for variant in node.data_type.variants:
        fields += [f for f in variant.fields if f.name not in {g.name for g in fields}]
    return fields


def compare_fields(node: NodeDef, tool: ToolSchema, fields: Iterable[DataField],
                   schema: Any, prefix: tuple[str, str] = ("", "")) -> list[Mismatch]:
    """Mismatches between data fields and the properties of an object schema, recursively
    into object-typed fields (`camera.motion` ↔ `camera.motion`)."""
    schema = resolve(schema, tool.input_schema)
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    found = []
    for data_field in fields:
        param = param_for(data_field.name, properties)
        if param is None:
            continue
        named = data_field.model_copy(update={"name": prefix[0] + data_field.name})
        mismatch = compare_field(node, tool, named, prefix[1] + param, properties[param])
        if mismatch is not None:
            found.append(mismatch)
        elif data_field.type.kind == "object" and data_field.type.fields:
            found += compare_fields(node, tool, data_field.type.fields, properties[param],
                                    (f"{named.name}.", f"{prefix[1]}{param}."))
    return found


def mismatches(model: Model) -> list[Mismatch]:
    found = []
    for node in model.nodes:
        if node.tool is not None:
            found += compare_fields(node, node.tool, node_fields(node), node.tool.input_schema)
    return found


# --- the doctor report ----------------------------------------------------------------------

@dataclass(frozen=True)
class Report:
    node_count: int
    unresolved: tuple[str, ...]
    tools_configured: bool
    nodes_without_tool: tuple[str, ...]
    # Tools no node maps to, and those of them that no skill file names either.
    unused_tools: tuple[str, ...]
    unmentioned_tools: tuple[str, ...]
    prose_gaps: tuple[ProseGap, ...]
    prose_coverage: float
    gate: Gate
    tokens: tuple[TokenSize, ...]
    mismatches: tuple[Mismatch, ...]
    drift: tuple[Path, ...]

    @property
    def total_tokens(self) -> int:
        return sum(size.tokens for size in self.tokens)

    @property
    def needs_person(self) -> bool:
        """Exit 1 for `doctor`: anything a run of `pygen gen` cannot fix by itself.

        Empty prose sections, token sizes and drift are reported but do not count.
        """
        return bool(self.unresolved or self.nodes_without_tool or self.unmentioned_tools
                    or self.mismatches or self.gate.failed
                    or (self.gate.stale_names and self.gate.stale_prose != "off"))


def current_texts(skills_dir: Path, planned: Sequence[digests.Planned]) -> dict[Path, str]:
    """Each skill file as it will be after `pygen gen` (planned files) or as it is."""
    texts = {path: files.read_text(path) or "" for path in prose_lint.skill_files(skills_dir)}
    texts.update({u.path: u.new for u in planned})
    return dict(sorted(texts.items()))


def mentioned(names: Iterable[str], texts: Iterable[str]) -> set[str]:
    joined = "\n".join(texts)
    return {name for name in names if f"`{name}`" in joined or f"`{name}(" in joined}


def tool_health(model: Model, texts: Mapping[Path, str]
                ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    from pygen.tools import unmapped_report

    mapping = {n.type: n.tool for n in model.nodes if n.tool is not None}
    report = unmapped_report(model.nodes, model.tools, mapping)
    named = mentioned(report.unused_tools, texts.values())
    unmentioned = tuple(t for t in report.unused_tools if t not in named)
    return report.nodes_without_tool, report.unused_tools, unmentioned


def agent_read(skills_dir: Path, texts: Mapping[Path, str]) -> dict[Path, str]:
    """The Markdown an agent fetches: not the server's fallback copy, not the schema JSON."""
    return {p: t for p, t in texts.items() if p.suffix == ".md" and p.is_relative_to(skills_dir)}


def diagnose(config: Config, model: Model, planned: Sequence[digests.Planned]) -> Report:
    skills = config.skills_dir
    texts = current_texts(skills, planned)
    by_type = {n.type: (skills / "nodes" / f"{n.type}.md",
                        texts.get(skills / "nodes" / f"{n.type}.md")) for n in model.nodes}
    gaps = prose_gaps(model.nodes, by_type)
    configured = bool(config.settings.tools)
    without, unused, unmentioned = tool_health(model, texts) if configured else ((), (), ())
    return Report(
        node_count=len(model.nodes),
        unresolved=tuple(n.type for n in model.nodes if n.data_type.via == "none"),
        tools_configured=configured,
        nodes_without_tool=without, unused_tools=unused, unmentioned_tools=unmentioned,
        prose_gaps=tuple(gaps), prose_coverage=coverage(len(model.nodes), gaps),
        gate=gate(config, model, planned),
        tokens=tuple(token_sizes(agent_read(skills, texts))),
        mismatches=tuple(mismatches(model)),
        drift=tuple(u.path for u in planned if u.old != u.new),
    )
