"""Rules on one node beyond its data schema: what the skills promise and JSON Schema cannot say.

Each rule reads the node's data schema as written in the schema document (`deprecated`,
`x-runner`, `x-result`, `x-nodeIds` on a property) and yields findings with a rule id and, where
the repair is mechanical, a `Fix`. `at` is the node's location in the workflow, as path parts.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from pygen.jsonvalues import show
from pygen.schema.fields import is_runner_owned, properties
from pygen.schema.node_schema import Schema
from pygen.suggest import guess, words
from pygen.validation.findings import Finding, Fix, error_at, path_of, warning_at

_COMPLETED = "completed"
_GRID = 320  # horizontal spacing of positions the position fix lays out


def node_rules(data: object, base: tuple[str | int, ...], schema: Schema,
               node_ids: Collection[str] | None) -> Iterator[Finding]:
    """Findings of every rule here for one node's data (at `base`); `node_ids` None skips
    the id references."""
    if not isinstance(data, dict):
        return
    props = properties(schema)
    yield from deprecated_fields(data, props, base)
    yield from runner_fields(data, props, base)
    if node_ids is not None:
        yield from node_id_refs(data, props, base, node_ids)


def deprecated_fields(data: Mapping[str, Any], props: Mapping[str, Schema],
                      base: tuple[str | int, ...]) -> Iterator[Finding]:
    for name, value in data.items():
        prop = props.get(name)
        if not prop or not prop.get("deprecated"):
            continue
        instead = replacement(name, prop, props)
        at = (*base, name)
        if instead is None:
            yield warning_at(path_of("$", at), "deprecated field; leave it out",
                             rule="deprecated", fix=Fix("remove", at))
            continue
        fix = Fix("remove", at) if instead in data else Fix("rename", at, to=instead)
        yield warning_at(path_of("$", at), f"deprecated field; put {show(value, 30)} in "
                         f"`{instead}` instead", instead, rule="deprecated", fix=fix)


def replacement(name: str, prop: Schema, props: Mapping[str, Schema]) -> str | None:
    """The field a deprecation names (`@deprecated Use referenceImageUrl.`), if it exists."""
    text = str(prop.get("x-deprecated") or prop.get("description", ""))
    text = text.split("Deprecated:", 1)[-1]
    for word in re.findall(r"[A-Za-z_$][\w$]*", text):
        if word != name and word in props:
            return str(word)
    return None


def runner_fields(data: Mapping[str, Any], props: Mapping[str, Schema],
                  base: tuple[str | int, ...]) -> Iterator[Finding]:
    """Runner-owned fields set by hand; a completed status with every result empty."""
    owned = [n for n in data if n in props and is_runner_owned(props[n])]
    # The run status: the field whose values include "completed" (runner-owned or not).
    status = next((n for n in data if _COMPLETED in props.get(n, {}).get("enum", ())), None)
    # What a completed status implies: a result that shows the asset, not a job id.
    results = [n for n, p in props.items()
               if p.get("x-result") and n != status and "id" not in words(n)]
    shown = any(_filled(data.get(n)) for n in results)
    if status is not None and data[status] == _COMPLETED and results and not shown:
        at = (*base, status)
        yield error_at(path_of("$", at), f"says {show(_COMPLETED)} but no result field holds a "
                       f"value ({', '.join(results)}); set the result or leave the status out",
                       rule="completed-without-result", fix=Fix("remove", at))
        if status in owned:
            owned.remove(status)
    if status is not None and data.get(status) == _COMPLETED and shown:
        return  # the documented way to show an asset generated outside the editor
    for name in owned:
        if name in data and _filled(data[name]):
            at = (*base, name)
            yield warning_at(path_of("$", at), "the runner writes this field; leave it out "
                             "(set it only to show a finished result, with a completed status)",
                             rule="runner-owned", fix=Fix("remove", at))


def _filled(value: object) -> bool:
    return value not in (None, "", [], {})


def node_id_refs(data: Mapping[str, Any], props: Mapping[str, Schema],
                 base: tuple[str | int, ...], node_ids: Collection[str]) -> Iterator[Finding]:
    for name, value in data.items():
        prop = props.get(name)
        if not prop or not prop.get("x-nodeIds"):
            continue
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            if not isinstance(item, str) or item in node_ids:
                continue
            at = (*base, name, i) if isinstance(value, list) else (*base, name)
            near = guess(item, node_ids)
            yield error_at(path_of("$", at), f"no node has id {show(item)}",
                           near.name if near else None, rule="node-id-ref",
                           fix=Fix("set", at, near.name) if near and near.mechanical
                           else Fix("remove", at) if isinstance(value, list) else None)


def position(node: Mapping[str, Any], at: tuple[str | int, ...], index: int) -> Iterator[Finding]:
    """`position` with numeric x and y; the fix lays missing ones out left to right."""
    where = (*at, "position")
    value = node.get("position")
    if isinstance(value, dict) and all(_number(value.get(k)) for k in ("x", "y")):
        return
    laid_out = {"x": index * _GRID, "y": 0}
    if isinstance(value, dict):
        laid_out = {k: value[k] if _number(value.get(k)) else laid_out[k] for k in ("x", "y")}
    got = "it is missing" if value is None else f"got {show(value, 40)}"
    yield error_at(path_of("$", where), f"expected {{\"x\": number, \"y\": number}}, {got}",
                   rule="position", fix=Fix("set", where, laid_out))


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
