"""Workflow validation: the nodes and edges of a `{nodes, edges}` document, and each node's data.

Findings carry a JSON path, a message written for an agent to act on, and a "did you mean"
suggestion where one exists; they come in document order (nodes, then edges).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from pygen import jsonread
from pygen.conventions import canonical_node
from pygen.jsonread import JsonInputError
from pygen.jsonvalues import show
from pygen.model import Model
from pygen.suggest import NEAREST_TYPES, guess, ranked
from pygen.validation.catalog import Catalog, NodeSpec, as_catalog
from pygen.validation.checks import workflow_rules
from pygen.validation.default_data import judged_by_defaults, read_with_fallback
from pygen.validation.edges import check_edge, id_problem
from pygen.validation.empty import View, editor_view, empty_required, name_unset
from pygen.validation.expressions import (
    accept_expressions,
    expression_findings,
    runtime_test,
)
from pygen.validation.findings import (
    Finding,
    Fix,
    child,
    error_at,
    kind,
    listed,
    parts_of,
    path_of,
)
from pygen.validation.load_step import migrated, rewritten_in_code
from pygen.validation.output_index import output_index
from pygen.validation.profiles import DEFAULT_PROFILE, Profile, apply_profile
from pygen.validation.rules import node_rules
from pygen.validation.saved_form import canonical_workflow, in_saved_form
from pygen.validation.schema_errors import error_findings
from pygen.validation.unknown_fields import unknown_fields


def validate_workflow(workflow: object, source: Catalog | Model,
                      profile: Profile = DEFAULT_PROFILE) -> list[Finding]:
    """Every finding for a workflow under a profile: schema and structure in document order
    (nodes, then edges), then the rules the skills promise (see `checks`)."""
    catalog = as_catalog(source)
    conv = catalog.conventions
    if not isinstance(workflow, dict):
        edges = (f"a \"{conv.connections_key}\" map" if conv.connections_key
                 else "an \"edges\" array")
        return [error_at("$", f"a workflow must be a JSON object with a \"nodes\" array and "
                              f"{edges}, got {kind(workflow)}", rule="workflow-shape")]
    canonical, origins = canonical_workflow(workflow, conv, catalog.handle_ids)
    # Judged as the editor loads it: the legacy names its load step rewrites are warnings.
    canonical, renamed = migrated(canonical, catalog.load_step, catalog.handle_ids)
    kept = rewritten_in_code(_workflow_findings(canonical, catalog), canonical,
                             catalog.load_step)
    found = _connections_shape([*renamed, *kept], workflow, conv.connections_key)
    nodes = canonical.get("nodes")
    beyond, judged = output_index(workflow, nodes if isinstance(nodes, list) else [], catalog)
    saved = in_saved_form(apply_profile(found, profile, conv.editor_fills_defaults), conv,
                          origins=origins)
    # An output of a connections map is output-index's to judge (an error output included).
    return [*(f for f in saved if not (f.rule == "edge-handle" and f.path in judged)),
            *beyond]


def _connections_shape(found: list[Finding], workflow: dict[str, Any],
                       key: str | None) -> list[Finding]:
    """Where edges are kept as a connections map, a missing or malformed map is reported as
    that map (the edges read from it are what the other findings speak of)."""
    if key is None:
        return found
    value = workflow.get(key)
    kept = [f for f in found if not (f.rule == "workflow-shape" and f.path == "$.edges")]
    if isinstance(value, dict):
        return kept
    got = "it is missing" if key not in workflow else f"got {kind(value)}"
    return [error_at(path_of("$", (key,)), f"expected the connections map, an object keyed by "
                     f"source node, {got}", rule="workflow-shape"), *kept]


def _workflow_findings(workflow: dict[str, Any], catalog: Catalog) -> list[Finding]:
    findings: list[Finding] = []
    nodes, edges = workflow.get("nodes"), workflow.get("edges")
    for key, value in (("nodes", nodes), ("edges", edges)):
        if not isinstance(value, list):
            got = "it is missing" if key not in workflow else f"got {kind(value)}"
            findings.append(error_at(f"$.{key}", f"expected an array of {key}, {got}",
                                     rule="workflow-shape"))
    index: dict[str, tuple[str, NodeSpec | None]] = {}
    for i, node in enumerate(nodes if isinstance(nodes, list) else ()):
        findings += _check_node(node, f"$.nodes[{i}]", catalog, index)
    edge_ids: dict[str, str] = {}
    for j, edge in enumerate(edges if isinstance(edges, list) else ()):
        findings += check_edge(edge, f"$.edges[{j}]", index, edge_ids)
    findings += workflow_rules(workflow, catalog)
    return findings


def validate_node(node: object, source: Catalog | Model, path: str = "$",
                  profile: Profile = DEFAULT_PROFILE) -> list[Finding]:
    """Findings for one node on its own (a skill example): its id is optional here."""
    catalog = as_catalog(source)
    conv = catalog.conventions
    node = canonical_node(node, conv)
    findings = list(_check_node(node, path, catalog, None))
    spec = catalog.node_spec(node)
    if spec is not None and isinstance(node, dict):
        findings += node_rules(node.get("data"), (*parts_of(path), "data"),
                               catalog.resolved(spec.type), None)
    found = apply_profile(findings, profile, conv.editor_fills_defaults)
    return in_saved_form(found, conv, one_node=path)


def validate_node_data(node_type: str, data: object, catalog: Catalog,
                       profile: Profile = DEFAULT_PROFILE) -> list[Finding]:
    """Findings for a node type's (or variant's) `data` object on its own (paths start at the
    data); a type of variants checks the data against the variant it names."""
    name = catalog.spec_for(node_type, data).type
    findings = validate_data(name, data, catalog, "$")
    findings += node_rules(data, (), catalog.resolved(name), None)
    return apply_profile(findings, profile, catalog.conventions.editor_fills_defaults)


def validate_data(node_type: str, data: object, catalog: Catalog, path: str) -> list[Finding]:
    """Schema errors and unknown-field warnings for the `data` of a node of a known type."""
    findings: dict[Finding, None] = {}  # ordered and de-duplicated
    conv = catalog.conventions
    # Judged as the editor reads it: unset values left out, numeric strings as numbers.
    view = editor_view(data, catalog.resolved(node_type), conv, path) if (
        conv.unset or conv.numeric_strings) else View(data)
    quick = catalog.quick(node_type)
    prefix = conv.expression_prefix
    if quick is None or not quick(view.data):  # valid data, the common case, skips jsonschema
        validator = catalog.validator(node_type)
        runtime = runtime_test(validator.schema, prefix)
        for error in validator.iter_errors(view.data):
            findings.update(dict.fromkeys(error_findings(error, path, runtime)))
    if conv.required_nonempty:
        # Empty values pass the schema: the check runs on every node, not only failing ones.
        findings = dict.fromkeys(empty_required(findings, data, path,
                                                catalog.validator(node_type),
                                                catalog.nonempty(node_type)))
    found = name_unset(findings, view, conv.unset_values)
    defaults = catalog.default_data(node_type) if conv.default_data_valid else None
    if defaults is not None:
        found = list(judged_by_defaults(found, data, defaults, conv.unset, path))
    if node_type in conv.fallback_fields:
        found = list(read_with_fallback(found, data, conv.fallback_fields[node_type], path))
    findings = dict.fromkeys(found)
    findings = dict.fromkeys(accept_expressions(findings, data, path, prefix))
    findings.update(dict.fromkeys(expression_findings(data, path, prefix)))
    label = f"for \"{node_type}\" data"
    misplaced = _other_variants_fields(node_type, data, catalog, path)
    for finding in unknown_fields(catalog.shape(node_type), data, path, label):
        finding = misplaced.get(finding.path, finding)
        findings[_owner_named(finding, node_type, data, catalog, path)] = None
    return list(findings)


def _owner_named(finding: Finding, node_type: str, data: object, catalog: Catalog,
                 path: str) -> Finding:
    """An unknown top-level field without a mechanical rename names the node types it
    belongs to: the agent most likely meant one of those nodes."""
    if finding.rule != "unknown-field" or finding.fix is not None or not isinstance(data, dict):
        return finding
    key = next((k for k in data if child(path, k) == finding.path), None)
    owners = [t for t in catalog.field_owners.get(key or "", ())
              if t not in (node_type, catalog.variant_of.get(node_type))]
    if not owners:
        return finding
    return replace(finding, message=f"{finding.message}; {show(key)} is a field of "
                                    f"{listed(owners, 5)}")


def _other_variants_fields(name: str, data: object, catalog: Catalog,
                           path: str) -> dict[str, Finding]:
    """Errors, by path, for the keys of a variant's data that only other variants have: the
    node is not of the variant the agent had in mind (unlike a stray key, a warning)."""
    parent = catalog.variant_of.get(name)
    own = catalog.shape(name).fields
    if parent is None or own is None or not isinstance(data, dict):
        return {}
    spec = catalog.specs[parent]
    # Where the node names its variant: its version key (`typeVersion`) when declared.
    named_by = catalog.conventions.node_version_key or spec.variant_field
    others = {n: v for v, n in spec.variants.items() if n != name and n in catalog.specs}
    out = {}
    for key in data:
        owners = [n for n in others if key not in own and key in (catalog.shape(n).fields or ())]
        if owners:
            where = child(path, key)
            values = listed([others[n] for n in owners])
            choose = values if len(owners) == 1 else f"one of {values}"
            out[where] = error_at(where, f"{show(key)} is a field of {listed(owners)}, not of "
                                         f"{show(name)}; drop it, or set {named_by} "
                                         f"to {choose}", rule="variant-field")
    return out


def _check_node(node: object, path: str, catalog: Catalog,
                index: dict[str, tuple[str, NodeSpec | None]] | None) -> Iterator[Finding]:
    if not isinstance(node, dict):
        yield error_at(path, f"expected a node object, got {kind(node)}", rule="node-shape")
        return
    spec, type_finding = _node_spec(node, path, catalog)
    if index is not None:
        yield from _check_node_id(node, path, index, spec, catalog.conventions.connection_node_key)
    if type_finding is not None:
        yield type_finding
    if spec is None:
        return
    unknown = catalog.unknown_version(node)
    if unknown is not None:
        yield _unknown_version(node, path, catalog, *unknown)
    data = node.get("data")
    if not isinstance(data, dict):
        yield _data_not_object(node, path, spec.type)
        return
    yield from validate_data(spec.type, data, catalog, f"{path}.data")


def _unknown_version(node: dict[str, Any], path: str, catalog: Catalog, version: object,
                     versions: list[str]) -> Finding:
    """A version the node's type does not have: the editor cannot load the node as it is."""
    key = catalog.conventions.node_version_key or ""
    default = catalog.specs[node["type"]].default_variant
    checked = (f"; it is checked as version {show(default.removeprefix(node['type'] + '.'))}"
               if default else "")
    return error_at(path_of(path, key.split(".")), f"{show(node['type'])} has no version "
                    f"{show(version)}; its versions are {listed(versions, None)}{checked}",
                    rule="unknown-version")


def _data_not_object(node: dict[str, Any], path: str, node_type: str) -> Finding:
    """`data` missing or not an object; a JSON string holding the object is parsed by the fix."""
    data = node.get("data")
    parsed = _json_object(data)
    got = ("got a JSON string holding it; send the object itself" if parsed is not None
           else ("it is missing" if "data" not in node else f"got {kind(data)}")
           + f"; start from the default data of \"{node_type}\"")
    return error_at(f"{path}.data", f"expected the node's data object, {got}", rule="node-shape",
                    fix=Fix("set", (*parts_of(path), "data"), parsed) if parsed is not None
                    else None)


def _json_object(value: object) -> dict[str, Any] | None:
    if not isinstance(value, str) or not value.lstrip().startswith("{"):
        return None
    try:
        parsed = jsonread.loads(value, "a JSON text value")
    except JsonInputError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _node_spec(node: dict[str, Any], path: str,
               catalog: Catalog) -> tuple[NodeSpec | None, Finding | None]:
    node_type = node.get("type")
    types = catalog.types
    spec = catalog.node_spec(node)
    if spec is not None:
        return spec, None
    if isinstance(node_type, str) and node_type in catalog.variant_of:
        return None, _variant_as_type(node, f"{path}.type", catalog)
    where = f"{path}.type"
    if node_type is None:
        return None, error_at(where, f"missing node type; one of {listed(types, NEAREST_TYPES)}",
                              rule="unknown-node-type")
    if not isinstance(node_type, str):
        return None, error_at(where, f"expected a node type string, got {kind(node_type)}",
                              rule="unknown-node-type")
    near = guess(node_type, types)
    return None, error_at(where, f"unknown node type {show(node_type)}; "
                                 f"{_types_text(node_type, types)}", near.name if near else None,
                          rule="unknown-node-type",
                          fix=Fix("set", parts_of(where), near.name) if near and near.mechanical
                          else None)


def _types_text(node_type: str, types: Sequence[str]) -> str:
    """Every valid type of a small catalog; of a large one, the nearest NEAREST_TYPES (a
    catalog of hundreds in one message is a wall no one reads)."""
    if len(types) <= NEAREST_TYPES:
        return f"valid types: {listed(types, None)}"
    near = ranked(node_type, list(types), NEAREST_TYPES)
    return (f"the nearest of the {len(types)} types: {listed(near, None)}" if near
            else f"none of the {len(types)} types is close")


def _variant_as_type(node: dict[str, Any], where: str, catalog: Catalog) -> Finding:
    """A workflow node typed `<type>.<value>`: the editor knows only `<type>`. Naming the
    type is the fix when the data already names the variant."""
    name = node["type"]
    parent = catalog.specs[catalog.variant_of[name]]
    field = parent.variant_field
    # The value the variant is named by (the latest of those it covers).
    value = name.removeprefix(f"{parent.type}.")
    chosen = catalog.node_spec({**node, "type": parent.type})
    named = field is None or (chosen is not None and chosen.type == name)
    key = catalog.conventions.node_version_key
    also = f" and {key} {show(value)}" if key else f" and data.{field} {show(value)}" if (
        field) else ""
    return error_at(where, f"{show(name)} is a variant, not a node type: write type "
                           f"{show(parent.type)}{also}", rule="unknown-node-type",
                    fix=Fix("set", parts_of(where), parent.type) if named else None)


def _check_node_id(node: dict[str, Any], path: str,
                   index: dict[str, tuple[str, NodeSpec | None]],
                   spec: NodeSpec | None, key: str) -> Iterator[Finding]:
    problem = id_problem(node, path, "node", lambda i: index[i][0] if i in index else None,
                          key)
    if problem is not None:
        yield problem
    else:
        index[node["id"]] = (path, spec)
