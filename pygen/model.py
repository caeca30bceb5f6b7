"""The merged model every renderer reads: node definitions, their data types, their tools.

Built from the Node extractor's JSON (snake_case keys match these fields) plus the tool
schemas. Immutable; rendering is a pure function of it.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pygen import layout
from pygen.conventions import DEFAULT as DEFAULT_CONVENTIONS
from pygen.conventions import Conventions
from pygen.dynamic_handles import DynamicHandles, HandleSide
from pygen.load_renames import LoadRenames

TypeKind = Literal[
    "string", "number", "boolean", "null", "undefined", "any", "unknown", "never",
    "literal", "union", "intersection", "array", "tuple", "object", "record",
    "function", "unresolved",
]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TypeRef(Frozen):
    """A resolved TypeScript type, structured enough to render and to build a JSON Schema."""

    kind: TypeKind
    # Alias, interface or enum name when the type has one (display only).
    name: str | None = None
    # `literal`: the value.
    value: str | int | float | bool | None = None
    # `union` / `intersection` members, `tuple` elements.
    types: tuple[TypeRef, ...] = ()
    # `array` element type, `record` value type.
    items: TypeRef | None = None
    # `object` properties.
    fields: tuple[DataField, ...] = ()
    # `unresolved` / `function`: the source text, for the reader.
    text: str | None = None

    def literal_values(self) -> tuple[str | int | float | bool, ...] | None:
        """The enum values when this is a literal or a union of literals (null/undefined aside)."""
        if self.kind == "literal" and self.value is not None:
            return (self.value,)
        if self.kind != "union":
            return None
        values: list[str | int | float | bool] = []
        for member in self.types:
            if member.kind in ("undefined", "null"):
                continue
            if member.kind != "literal" or member.value is None:
                return None
            values.append(member.value)
        return tuple(values) or None

    def object_members(self) -> tuple[TypeRef, ...]:
        """A union's members that are object types with fields."""
        return tuple(m for m in self.types if m.kind == "object" and m.fields)

    def discriminant(self) -> str | None:
        """The required property every object member of a union declares as a different
        literal (a discriminated union), if any."""
        shapes = self.object_members()
        if len(shapes) < 2:
            return None
        for first in shapes[0].fields:
            if first.optional or first.type.kind != "literal":
                continue
            values = [next((f.type.value for f in s.fields if f.name == first.name
                            and not f.optional and f.type.kind == "literal"), None)
                      for s in shapes]
            if None not in values and len(set(map(repr, values))) == len(values):
                return first.name
        return None


RULE_TAGS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern",
             "runner", "nodeIds", "handled", "nonempty")


Scalar = str | int | float | bool | None


class Condition(Frozen):
    """When a field is visible: `field` has one of `values` (`hide`: has none of them)."""

    field: str
    values: tuple[Scalar, ...]
    hide: bool = False


class DataField(Frozen):
    name: str
    # One-line type text as written in the source (alias names kept), for Markdown.
    type_text: str
    type: TypeRef
    optional: bool = False
    description: str = ""
    deprecated: str | None = None
    default_tag: str | None = None
    result: bool = False
    # JSDoc tags validation reads (`@minimum 0`, `@maxLength 80`, `@pattern`, `@runner`,
    # `@nodeIds`, see RULE_TAGS): (tag, text) pairs in source order, text "" for a bare tag.
    tags: tuple[tuple[str, str], ...] = ()
    # Conditions that must all hold for the field to be visible (field lists'
    # `displayOptions`); empty: always visible. A field of a field list may be listed more
    # than once, under different conditions.
    shown_when: tuple[Condition, ...] = ()

    def tag(self, name: str) -> str | None:
        return next((text for tag, text in self.tags if tag == name), None)


class Variant(Frozen):
    """One member of a discriminated-union data type."""

    name: str | None = None
    discriminant: str | None = None
    value: str | int | float | bool | None = None
    fields: tuple[DataField, ...] = ()


# How the data type was found: `config` (data_types), `cast` (the definition names it: `as`,
# `satisfies`, a typed constant, a generic argument), `name` (naming convention), `structural`
# (best fit to the default data), `inferred` (no type: fields read off the default data),
# `field-list` (the entry's list of field descriptors, config `field_list`), `zod` (the
# entry's zod schema, config `zod`). A TypeScript type written `z.infer<typeof schema>` keeps
# how it was found and is read from the schema.
DataTypeVia = Literal["config", "cast", "name", "structural", "inferred", "field-list", "zod",
                      "none"]


class Candidate(Frozen):
    """A type considered for a node's data and not taken, with the reason or its score."""

    name: str
    score: float | None = None
    reason: str | None = None


class DataType(Frozen):
    name: str | None = None
    via: DataTypeVia = "none"
    score: float | None = None
    fields: tuple[DataField, ...] = ()
    variants: tuple[Variant, ...] = ()
    # `[key: string]: unknown` when the type also accepts keys it does not name.
    index_signature: str | None = None
    # Structural matches: the next best candidate, so a person can judge the margin.
    runner_up: Candidate | None = None
    # Candidates passed over by name (e.g. the editor's union of every node's data).
    skipped: tuple[Candidate, ...] = ()


class Handle(Frozen):
    # None: an unnamed handle (`{ count: N }`); React Flow gives it the id `null`, so an edge
    # that names no handle reaches it.
    id: str | None
    label: str | None = None
    # The declared data type of what flows through it (`type` / `dataType` in the entry).
    type: str | None = None
    # Connection rules the definitions state (entry_fields handle_accepts / connects_to):
    # an input's accepted node types or output types; an output's allowed downstream node
    # types or input types. Empty: no rule.
    accepts: tuple[str, ...] = ()
    connects_to: tuple[str, ...] = ()
    # On an input: the most edges it takes (entry_fields handle_limit); None: no limit.
    limit: int | None = None


# Handle types that connect to anything.
WILDCARDS = frozenset({"any", "unknown", "*"})


def type_members(type_text: str) -> set[str]:
    """The members of a handle type: `image | video` → {image, video}."""
    return {part.strip() for part in type_text.split("|") if part.strip()}


def rule_allows(rule: tuple[str, ...], node_type: str, handle_type: str | None) -> bool:
    """A connection rule (`accepts`, `connectsTo`) allows the other end when it names its node
    type or a member of its handle's type (its id where it declares none), or a wildcard; an
    empty rule allows everything."""
    names = {node_type, *(type_members(handle_type) if handle_type else ())}
    return not rule or bool(set(rule) & (names | WILDCARDS))


def types_compatible(out_type: str | None, in_type: str | None) -> bool:
    """Declared handle types that may be wired: same type, a wildcard, overlapping unions
    (`image | video`), or either side undeclared."""
    if not out_type or not in_type:
        return True
    outs, ins = type_members(out_type), type_members(in_type)
    return bool(outs & WILDCARDS or ins & WILDCARDS or outs & ins)


def wire_allowed(source: NodeDef, out: Handle, target: NodeDef, into: Handle) -> bool:
    """Whether the declared handle types and the definitions' connection rules allow
    `source.out` → `target.into`."""
    return (types_compatible(out.type, into.type)
            and rule_allows(into.accepts, source.type, out.type or out.id)
            and rule_allows(out.connects_to or source.connects_to, target.type,
                            into.type or into.id))


class ComputedValue(Frozen):
    """A value in the definitions that only exists at run time (`crypto.randomUUID()`)."""

    # Where inside the entry it sits: `defaultData.id`, `outputs[1]`.
    path: str
    # The entry field it belongs to, by its config name (`default_data`, `inputs`, `label`).
    field: str | None = None
    # The source text, as written.
    text: str
    # The checker's type for it (`string`, `PinDefinition`).
    type_text: str
    file: str
    line: int


class Location(Frozen):
    file: str
    line: int


class Diagnostic(Frozen):
    level: Literal["warning", "error"]
    message: str
    file: str | None = None
    line: int | None = None
    node_type: str | None = None
    # What sort of problem this is (`computed`, `no-data-type`), for the summary of a run.
    kind: str | None = None

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return f"{where}{self.message}"


class ToolSchema(Frozen):
    name: str
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    # Where the schema came from (`python:…`, `stdio:…`, `json:…`), for messages.
    source: str = ""


class NodeDef(Frozen):
    type: str
    label: str
    category: str | None = None
    credit_cost: float | int | None = None
    description: str | None = None
    inputs: tuple[Handle, ...] = ()
    outputs: tuple[Handle, ...] = ()
    # False when the entry does not declare that side's handles: no such key, a value only
    # known at run time, or the config says the catalog declares none (`inputs = false`).
    # Nothing is then known about them, which is not the same as having none: only a side
    # the code declares empty (`inputs: []`) has none. See `side()`.
    inputs_declared: bool = True
    outputs_declared: bool = True
    # Handles computed from the node's data or at run time (beside any declared ones), with
    # the id patterns the code or the config gives; None: not dynamic.
    inputs_dynamic: DynamicHandles | None = None
    outputs_dynamic: DynamicHandles | None = None
    # The node types (or input types) every output may connect to; empty: no rule.
    connects_to: tuple[str, ...] = ()
    default_data: dict[str, Any] = Field(default_factory=dict)
    # False when the definition declares no default data pygen could read (not the same as {}).
    default_data_declared: bool = True
    # The default data's keys the zod schema's `.default(v)` filled in (the entry left them out).
    schema_defaults: tuple[str, ...] = ()
    # Values that are not static data, each listed instead of its value.
    computed: tuple[ComputedValue, ...] = ()
    # With `variant_field`: the value that tells this entry apart from others of its type.
    variant: str | None = None
    # Every value the variant covers when the entry lists several (`version: [1, 2]`; the
    # variant is named by the latest); empty: just `variant`.
    variant_values: tuple[str, ...] = ()
    # ... and the field that holds it (`variant_field`): in the entry, mostly in the data too.
    variant_field: str | None = None
    # The variant value the entry declares as its type's default (`entry_fields.default_variant`).
    default_variant: str | None = None
    # The values of `variant_field` a type's only entry covers (`version: [1, 1.1]`): it is
    # no variant, but a node naming another version can be told.
    versions: tuple[str, ...] = ()
    source: Location
    data_type: DataType = DataType()
    # Names of entry properties that were not static data and were skipped.
    skipped: tuple[str, ...] = ()
    # The MCP tool that fills this node, when one maps to it.
    tool: ToolSchema | None = None

    def side(self, side: Literal["inputs", "outputs"]) -> HandleSide:
        """What is known about one side's handles (see HandleSide)."""
        if getattr(self, f"{side}_dynamic") is not None:
            return "dynamic"
        return "declared" if getattr(self, f"{side}_declared") else "not-declared"

    @property
    def key(self) -> str:
        """The node's own name: its type, or `type.variant` for a variant of a shared type."""
        return f"{self.type}.{self.variant}" if self.variant is not None else self.type


class NodeSources(Frozen):
    """Where a node's data fields are declared and its default data values are written."""

    fields: dict[str, Location] = Field(default_factory=dict)
    defaults: dict[str, Location] = Field(default_factory=dict)


class SourceFile(Frozen):
    path: str
    sha256: str


class StandIn(Frozen):
    """A workspace package's source file read in place of a build output that is missing;
    `package` is the import specifier (`@acme/media` or a subpath, `@acme/media/codecs`)."""

    package: str
    # The path the package's manifest points at (relative to the project root).
    missing: str
    # The file read instead, and how it was found (`source`, `exports:development`, …).
    used: str
    how: str


class Model(Frozen):
    nodes: tuple[NodeDef, ...]
    # The workflow document's own type (config `workflow_type`): keys beside nodes and edges.
    workflow: DataType | None = None
    tools: tuple[ToolSchema, ...] = ()
    sources: tuple[SourceFile, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    # Node type → where its fields and default values are written, for findings on the code.
    locations: dict[str, NodeSources] = Field(default_factory=dict)
    stand_ins: tuple[StandIn, ...] = ()
    # The union of every node's data type, when found by itself (not configured).
    data_union: str | None = None
    # What the config declares beyond the types (`[tool.pygen.conventions]`).
    conventions: Conventions = DEFAULT_CONVENTIONS
    # The legacy names the editor's load step rewrites (config `load_step`).
    load_step: LoadRenames = LoadRenames()

    def node(self, node_type: str) -> NodeDef | None:
        return self._by_type.get(node_type)

    @cached_property
    def _by_type(self) -> dict[str, NodeDef]:
        # Built once: callers ask per node, and a scan each time is quadratic. The first
        # definition of a type wins, as a scan would find it.
        found: dict[str, NodeDef] = {}
        for n in self.nodes:
            found.setdefault(n.type, n)
        return found

    @cached_property
    def file_stems(self) -> dict[str, str]:
        """Node key → the stem of its skill file (pygen.layout.file_stems), built once."""
        return layout.file_stems(n.key for n in self.nodes)

    def untyped(self) -> list[str]:
        """Node types whose data type the code does not declare (fields inferred, or none)."""
        return [n.type for n in self.nodes if n.data_type.via in ("none", "inferred")]


TypeRef.model_rebuild()
