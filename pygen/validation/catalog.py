"""The catalog: per node type, the data schema and handle ids validation checks against.

It comes either from the model (`build_catalog`) or from the schema document `pygen gen`
writes (`Catalog.from_json`, `load_catalog_file`), so the validator can run without Node.
Compiled validators, fast checks and shapes are cached per type (compiling is the slow part).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygen import files, jsonread
from pygen.conventions import DEFAULT as DEFAULT_CONVENTIONS
from pygen.conventions import Conventions, get_path, split
from pygen.errors import PygenError, UnknownNodeType
from pygen.files import refuse_links
from pygen.jsonvalues import variant_text
from pygen.load_renames import LoadRenames
from pygen.model import Model
from pygen.schema.doc_index import DocumentIndex, Lazy, lazy_entries, open_beside
from pygen.schema.document import (
    CONVENTIONS_KEY,
    DEFAULTS_KEY,
    DRAFT,
    HANDLES_KEY,
    LOAD_KEY,
    NODES_KEY,
    TOOLS_KEY,
    VARIANTS_KEY,
    VERSIONS_KEY,
    WORKFLOW_KEY,
    document_extras,
    document_text,
    entries,
    ref_name,
)
from pygen.schema.fastcheck import Check, compile_check
from pygen.schema.node_schema import Schema
from pygen.suggest import did_you_mean
from pygen.validation.empty import nonempty_fields
from pygen.validation.schema_refs import check_schema, malformed_errors, refs, resolves
from pygen.validation.unknown_fields import Shape, shape_of
from pygen.validation.wiring import HandleTypes

# The document keys a catalog keeps beside its node entries, however the document is opened.
EXTRA_KEYS = (NODES_KEY, TOOLS_KEY, WORKFLOW_KEY, CONVENTIONS_KEY, LOAD_KEY, DEFAULTS_KEY)

if TYPE_CHECKING:
    # jsonschema loads only when data is invalid: a clean `check` never needs it.
    from jsonschema import Draft202012Validator


class WorkflowInputError(PygenError):
    """The workflow or schema document could not be read at all (not a validation finding)."""


@dataclass(frozen=True)
class NodeSpec:
    type: str
    schema: Schema
    # Handle ids; None is an unnamed handle, which an edge reaches by naming no handle.
    inputs: tuple[str | None, ...]
    outputs: tuple[str | None, ...]
    # The schema document's `x-handles` entry (declared types, `declared`), kept as written.
    handles: dict[str, Any] = field(default_factory=dict)

    @property
    def variants(self) -> dict[str, str]:
        """For a type whose entries are variants: the name of each variant by its value."""
        entry = self.schema.get(VARIANTS_KEY)
        return dict(entry.get("values") or {}) if isinstance(entry, dict) else {}

    @property
    def variant_field(self) -> str | None:
        """The data field whose value names the variant (None when the data does not)."""
        entry = self.schema.get(VARIANTS_KEY)
        field = entry.get("field") if isinstance(entry, dict) else None
        return field if isinstance(field, str) else None

    @property
    def default_variant(self) -> str | None:
        """The variant a node that names none is of (the latest version), if the type has one."""
        entry = self.schema.get(VARIANTS_KEY)
        name = entry.get("default") if isinstance(entry, dict) else None
        return name if isinstance(name, str) else None

    def declared(self, side: str) -> bool:
        """False when the definitions do not declare this side's handles: nothing to check."""
        value = self.handles.get("declared", True)
        return value.get(side, True) is not False if isinstance(value, dict) else value is not False

    def dynamic(self, side: str) -> tuple[str, ...] | None:
        """The id patterns of this side's handles computed from data or at run time (`*`: any
        run of characters; empty: any id); None when the side has none."""
        value = self.handles.get("dynamic")
        patterns = value.get(side) if isinstance(value, dict) else None
        if not isinstance(patterns, list):
            return None
        return tuple(p for p in patterns if isinstance(p, str))

    @cached_property
    def handle_types(self) -> HandleTypes:
        """Declared handle types and connection rules (`x-handles` optional keys)."""
        return HandleTypes.from_doc(self.handles)


class Catalog:
    """Node specs by type, with compiled validators cached per type (compiling is the slow part)."""

    def __init__(self, specs: Iterable[NodeSpec] | Mapping[str, NodeSpec],
                 extras: Mapping[str, Any] | None = None,
                 variant_of: Mapping[str, str] | None = None) -> None:
        # Node types and variants (`<type>.<value>`) alike; a Mapping given (one read through
        # the document's index) is kept as it is, so its specs are made when first asked for.
        self.specs: Mapping[str, NodeSpec] = specs if isinstance(specs, Mapping) else {
            s.type: s for s in specs}
        # The document's other keys (x-nodes, x-tools, x-workflow), kept for the round trip.
        self.extras: Mapping[str, Any] = extras if isinstance(extras, Lazy) else dict(
            extras or {})
        # Each variant's type.
        self.variant_of: dict[str, str] = dict(variant_of) if variant_of is not None else {
            name: s.type for s in self.specs.values() for name in s.variants.values()
            if name in self.specs}
        # The node types a workflow may name (a variant is named by its data, not its type).
        self.types: list[str] = [t for t in self.specs if t not in self.variant_of]
        self._validators: dict[str, Draft202012Validator] = {}
        self._shapes: dict[str, Shape] = {}
        self._quick: dict[str, Check | None] = {}
        self._nonempty: dict[str, frozenset[str]] = {}

    def node_spec(self, node: object) -> NodeSpec | None:
        """The spec a workflow node is checked against: its variant's, when its type has
        variants and its data names one; None when its type is unknown (or is a variant's)."""
        if not isinstance(node, dict):
            return None
        node_type = node.get("type")
        if not isinstance(node_type, str) or node_type not in self.specs or (
                node_type in self.variant_of):
            return None
        key = self.conventions.node_version_key
        found, version = get_path(node, split(key)) if key else (False, None)
        return self.spec_for(node_type, node.get("data"), version if found else None)

    def unknown_version(self, node: dict[str, Any]) -> tuple[object, list[str]] | None:
        """The version a node names at `node_version_key` and the versions its type has,
        when it names none of them (it is then checked against the default)."""
        key = self.conventions.node_version_key
        spec = self.specs.get(node.get("type"))  # type: ignore[arg-type]
        own = spec.schema.get(VERSIONS_KEY) if spec is not None else None
        versions = list(spec.variants) if spec is not None and spec.variants else (
            [str(v) for v in own] if isinstance(own, list) else [])
        if key is None or not versions:
            return None
        found, version = get_path(node, split(key))
        if not found or variant_text(version) in versions:
            return None
        return version, versions

    def spec_for(self, node_type: str, data: object, version: object = None) -> NodeSpec:
        """The spec of the variant the node's version (`typeVersion`, when the conventions
        name it) or its data (by the variant field) names, else of the type's default variant
        (the latest version), else the type's."""
        spec = self.specs[node_type]
        field = spec.variant_field
        if version is None and field is not None and isinstance(data, dict):
            version = data.get(field)
        # The latest version is the default only where a node can name another one.
        named = self.conventions.node_version_key is not None or field in self.field_owners
        name = spec.variants.get(variant_text(version) or "",
                                 spec.default_variant if named else None)
        return self.specs[name] if name is not None and name in self.specs else spec

    def resolved(self, name: str) -> Schema:
        """The schema of a type or variant with its variants' `$ref`s replaced by their
        schemas: one self-contained schema, as the fast check and the shapes need."""
        schema = self.specs[name].schema
        if VARIANTS_KEY not in schema and VERSIONS_KEY not in schema:
            return schema
        out = {k: v for k, v in schema.items() if k not in (VARIANTS_KEY, VERSIONS_KEY)}
        for keyword in ("oneOf", "anyOf"):
            if keyword in out:
                out[keyword] = [self._target(branch) for branch in out[keyword]]
        return out

    def _target(self, branch: Schema) -> Schema:
        name = ref_name(branch.get("$ref"))
        return self.specs[name].schema if name is not None and name in self.specs else branch

    def validator(self, node_type: str) -> Draft202012Validator:
        if node_type not in self._validators:
            from jsonschema import Draft202012Validator

            self._validators[node_type] = Draft202012Validator(self.resolved(node_type))
        return self._validators[node_type]

    def quick(self, node_type: str) -> Check | None:
        """A fast validity predicate for the type's data, when its schema allows one."""
        if node_type not in self._quick:
            self._quick[node_type] = compile_check(self.resolved(node_type))
        return self._quick[node_type]

    def shape(self, node_type: str) -> Shape:
        if node_type not in self._shapes:
            self._shapes[node_type] = shape_of(self.resolved(node_type))
        return self._shapes[node_type]

    def nonempty(self, node_type: str) -> frozenset[str]:
        """The type's top-level fields that may not be left empty (`x-nonempty`), read once
        per type: convention `required_nonempty` asks for them on every node."""
        if node_type not in self._nonempty:
            self._nonempty[node_type] = nonempty_fields(self.resolved(node_type))
        return self._nonempty[node_type]

    @cached_property
    def field_owners(self) -> dict[str, list[str]]:
        """Data field name → the node types (and variants) whose data lists it, so an unknown
        field can say which node it belongs to."""
        owners: dict[str, list[str]] = {}
        for name, spec in self.specs.items():
            props = spec.schema.get("properties")
            for key in props if isinstance(props, dict) else ():
                owners.setdefault(key, []).append(name)
        return owners

    def to_json(self) -> str:
        """The schema document `pygen gen` writes and `pygen schema` prints."""
        return document_text({t: s.schema for t, s in self.specs.items()},
                             {t: s.handles for t, s in self.specs.items()}, self.extras)

    @property
    def workflow_schema(self) -> Schema | None:
        """The schema of the workflow document's own keys, when the config names its type."""
        value = self.extras.get(WORKFLOW_KEY)
        return value if isinstance(value, dict) else None

    @cached_property
    def conventions(self) -> Conventions:
        """The editor's declared conventions (`x-conventions`); unreadable ones are none."""
        value = self.extras.get(CONVENTIONS_KEY)
        try:
            return Conventions.model_validate(value) if isinstance(value, dict) else (
                DEFAULT_CONVENTIONS)
        except ValueError:
            return DEFAULT_CONVENTIONS

    def default_data(self, name: str) -> dict[str, Any] | None:
        """A type's (or variant's) default data (`x-defaults`), when the document keeps it."""
        table = self.extras.get(DEFAULTS_KEY)
        value = table.get(name) if isinstance(table, dict) else None
        return value if isinstance(value, dict) else None

    @cached_property
    def load_step(self) -> LoadRenames:
        """The legacy names the editor's load step rewrites (`x-load`); unreadable: none."""
        value = self.extras.get(LOAD_KEY)
        try:
            return LoadRenames.model_validate(value) if isinstance(value, dict) else (
                LoadRenames())
        except ValueError:
            return LoadRenames()

    def handle_ids(self, node_type: str, side: str) -> tuple[str | None, ...]:
        """A type's handle ids of one side (`inputs`/`outputs`), in order; () if unknown."""
        spec = self.specs.get(node_type)
        return (spec.inputs if side == "inputs" else spec.outputs) if spec else ()

    @classmethod
    def from_json(cls, text: str | bytes, source: str) -> Catalog:
        doc = parse_json(text, source)
        doc = doc if isinstance(doc, dict) else {}
        defs, handles = doc.get("$defs"), doc.get(HANDLES_KEY)
        if not isinstance(defs, dict) or not isinstance(handles, dict):
            raise WorkflowInputError(
                f"{source}: not a node schema document (needs '$defs' and '{HANDLES_KEY}'); "
                "regenerate it with `pygen gen`")
        extras = {k: v for k, v in doc.items() if k in EXTRA_KEYS}
        return cls((_spec_from_doc(t, s, handles.get(t), source, defs) for t, s in defs.items()),
                   extras)

    @classmethod
    def from_index(cls, source: DocumentIndex, name: str) -> Catalog:
        """The catalog of a document opened through its index: each type's spec is made (and
        its schema checked, as `from_json` checks every one) when validation first asks."""
        defs, handles = lazy_entries(source, source.defs), lazy_entries(source, source.handles)
        catalog = cls(Lazy(defs, lambda t: _spec_from_doc(t, defs[t], handles.get(t), name, defs)),
                      lazy_entries(source, {k: v for k, v in source.top.items()
                                           if k in EXTRA_KEYS}),
                      source.variant_of)
        catalog.__dict__["field_owners"] = source.field_owners  # the cached property's value
        return catalog


def _spec_from_doc(node_type: str, schema: Any, handles: Any, source: str,
                   defs: Mapping[str, Any]) -> NodeSpec:
    try:
        if not isinstance(schema, dict):  # a node's data is an object: `true` says nothing
            raise TypeError(node_type)
        check_schema(schema)
        spec = NodeSpec(node_type, schema, tuple(handles["inputs"]), tuple(handles["outputs"]),
                        dict(handles))
    except malformed_errors() as exc:  # evaluated only when something was raised
        raise WorkflowInputError(
            f"{source}: schema of node type '{node_type}' is malformed ({type(exc).__name__}); "
            "regenerate it with `pygen gen`") from None
    # A type of variants points at their entries in the document's `$defs`.
    dangling = next((ref for ref in refs(schema) if not resolves(schema, ref)
                     and ref_name(ref) not in defs), None)
    if dangling is not None:
        raise WorkflowInputError(
            f"{source}: schema of node type '{node_type}' has a $ref '{dangling}' that points "
            "nowhere inside it; regenerate it with `pygen gen`")
    return spec


def build_catalog(model: Model) -> Catalog:
    schemas, handles = entries(model)
    return Catalog((NodeSpec(name, schema, tuple(handles[name]["inputs"]),
                             tuple(handles[name]["outputs"]), handles[name])
                    for name, schema in schemas.items()), document_extras(model))


def node_schema_text(catalog: Catalog, name: str) -> str:
    """The data schema of one node type or variant as a standalone document (`pygen schema
    TYPE`); a type of variants brings their schemas under its own `$defs`."""
    if name not in catalog.specs:
        mean = did_you_mean(name, list(catalog.specs))
        raise UnknownNodeType(f"unknown node type '{name}'{mean}; valid types: "
                              f"{', '.join(catalog.specs)}")
    schema = catalog.specs[name].schema
    doc = {"$schema": DRAFT, **schema}
    refs = [ref_name(b.get("$ref")) for k in ("oneOf", "anyOf") for b in schema.get(k, ())]
    if any(refs):
        doc["$defs"] = {r: catalog.specs[r].schema for r in refs
                        if r is not None and r in catalog.specs}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def load_catalog_file(path: Path, within: Path | None = None) -> Catalog:
    """The catalog from a schema document written by `pygen gen` (no Node needed): through
    the index gen writes beside it when that index is this document's, else parsed whole."""
    text = read_document(path, within)
    opened = open_beside(path, text, within)
    return Catalog.from_index(opened, str(path)) if opened else Catalog.from_json(text, str(path))


def read_document(path: Path, within: Path | None = None) -> bytes:
    """The schema document's bytes; WorkflowInputError when it cannot be read."""
    try:
        refuse_links(path, within)
        text = files.read_bytes(path, what="a schema document")
    except PygenError as exc:
        raise WorkflowInputError(str(exc)) from None
    if text is None:
        raise WorkflowInputError(f"{path}: cannot read the node schemas (No such file or "
                                 "directory); run `pygen gen` to write them")
    return text




def as_catalog(source: Catalog | Model) -> Catalog:
    return source if isinstance(source, Catalog) else build_catalog(source)


def parse_json(text: str | bytes, source: str) -> Any:
    """Strict JSON (pygen.jsonread), its errors as WorkflowInputError."""
    try:
        return jsonread.loads(text, source)
    except jsonread.JsonInputError as exc:
        raise WorkflowInputError(str(exc)) from None
