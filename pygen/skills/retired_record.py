"""Retired names: what was a name of the catalog and no longer is, kept until a person is done.

The schema document (`schemas/nodes.schema.json`) records, under `x-retired`, each node's
names that left it: fields, handle ids, enum values, the node type itself, and the name and
parameters of the MCP tool that fills it (kept under `x-tool-names`).
Each run carries the record forward from the committed document, adds what this run's
change removes, and drops what came back or what a person let go (`pygen gen --forget
NAME`, `forget` in the config). So prose that still names a renamed field is reported by
every later `check`, not only by the run that renamed it.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from pygen import jsonread
from pygen.jsonread import JsonInputError
from pygen.model import Model

KEY = "x-retired"
# Not `x-tools` (the tools' input schemas, pygen.schema.document): names only, per node,
# and under "*" every tool's, for the files that list all tools.
TOOLS = "x-tool-names"
ALL = "*"
DEFS = "$defs"
HANDLES = "x-handles"


def schema_names(schema: Any) -> Iterator[str]:
    """Property names and string enum/const values anywhere in a JSON Schema."""
    if isinstance(schema, dict):
        properties = schema.get("properties")
        if isinstance(properties, dict):
            yield from (key for key in properties if isinstance(key, str))
        for key in ("enum", "const"):
            values = schema.get(key)
            for value in values if isinstance(values, list) else [values]:
                if isinstance(value, str):
                    yield value
        for value in schema.values():
            yield from schema_names(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from schema_names(item)


def handle_ids(handles: Any) -> set[str]:
    """The ids under a node's `x-handles` entry (its `inputs` and `outputs` lists)."""
    if not isinstance(handles, dict):
        return set()
    ids: set[str] = set()
    for side in ("inputs", "outputs"):
        for item in handles.get(side) or []:
            handle = item.get("id") if isinstance(item, dict) else item
            if isinstance(handle, str):
                ids.add(handle)
    return ids


def doc_tools(doc: Mapping[str, Any]) -> dict[str, set[str]]:
    """Node type → its tool's name and parameters, as the document's `x-tool-names` has them."""
    tools = doc.get(TOOLS)
    if not isinstance(tools, dict):
        return {}
    return {t: {n for n in names if isinstance(n, str)}
            for t, names in tools.items() if isinstance(names, list)}


def _parts(doc: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A document's `$defs` and `x-handles`, each {} when it is not an object."""
    defs, handles = doc.get(DEFS), doc.get(HANDLES)
    return (defs if isinstance(defs, dict) else {}, handles if isinstance(handles, dict) else {})


def _names(doc: Mapping[str, Any], node_type: str, tools: Mapping[str, set[str]]) -> set[str]:
    defs, handles = _parts(doc)
    return {node_type, *schema_names(defs.get(node_type)),
            *handle_ids(handles.get(node_type)), *tools.get(node_type, ())}


def tool_names(model: Model) -> dict[str, list[str]]:
    """Node type → the name and parameters of the tool that fills it, for nodes with one;
    under ALL, those of every tool the run knows."""
    names = {node.type: sorted({node.tool.name, *schema_names(node.tool.input_schema)})
             for node in model.nodes if node.tool is not None}
    every = {n for tool in model.tools for n in (tool.name, *schema_names(tool.input_schema))}
    return {**names, ALL: sorted(every)} if every else names


@functools.lru_cache(maxsize=4)
def load(text: str | None) -> dict[str, Any]:
    """A schema document's JSON, or {} when there is none or it does not parse (a damaged
    document is rewritten by `gen` and reported as drift by `check`). Parsed once per text
    in a run (the planner and the gate both read the old and the new document): shared, so
    never changed by a caller."""
    try:
        doc = jsonread.loads_own(text, "the schema document") if text else {}
    except JsonInputError:
        return {}
    return doc if isinstance(doc, dict) else {}


def recorded(doc: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """The `x-retired` record of a document: node type → names it no longer has."""
    record = doc.get(KEY)
    if not isinstance(record, dict):
        return {}
    return {t: frozenset(n for n in names if isinstance(n, str))
            for t, names in record.items() if isinstance(names, list)}


def retire(old: Mapping[str, Any], new: Mapping[str, Any],
           forget: Collection[str] = ()) -> dict[str, list[str]]:
    """The record for `new`: `old`'s record plus the names `old` had and `new` lacks, minus
    names a node has again and names let go. A tool's names retire only while the node still
    has a tool: a run without tools configured knows nothing about them, and retires none."""
    new_tools, carried = doc_tools(new), recorded(old)
    old_tools = {t: n for t, n in doc_tools(old).items() if t in new_tools}
    (old_defs, old_handles), (new_defs, new_handles) = _parts(old), _parts(new)
    record: dict[str, list[str]] = {}
    for node_type in sorted(set(old_defs) | set(carried)):
        # An entry as it was, with nothing carried, retires nothing: its names are not walked.
        if node_type not in carried and node_type in new_defs \
                and old_defs[node_type] == new_defs[node_type] \
                and old_handles.get(node_type) == new_handles.get(node_type) \
                and old_tools.get(node_type) == new_tools.get(node_type):
            continue
        before = _names(old, node_type, old_tools) if node_type in old_defs else set()
        after = _names(new, node_type, new_tools) if node_type in new_defs else set()
        names = (set(carried.get(node_type, ())) | (before - after)) - after
        names -= set(forget)
        if names:
            record[node_type] = sorted(names)
    return record


def add_record(doc: Mapping[str, Any], old_text: str | None, forget: Collection[str] = (),
               tools: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The schema document `doc` with the tools' names (`x-tool-names`) and the `x-retired`
    record carried over from `old_text`, before the document is written."""
    out = dict(doc)
    if tools:
        out[TOOLS] = dict(tools)
    record = retire(load(old_text), out, forget)
    if record:
        out[KEY] = record
    return out
