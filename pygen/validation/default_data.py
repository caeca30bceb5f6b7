"""Data as the editor creates it is valid (conventions `default_data_valid`).

An editor that makes every new node from its default data (`addNode` copying the entry's
`defaultData`) creates nodes without the fields that data leaves out, and with the values it
holds: neither can make a saved node invalid. Under the `runtime` profile a required field
the default data leaves out, or leaves at a value the editor treats as not set, and that the
node does not set either, is a note (level `info`) instead of an error; `strict` reports it
as an error (profiles). A value equal to the default data's at the same path is accepted by
every profile: the editor writes it itself.

Conventions `fallback_fields` name, per node type, the fields the editor's code reads only with
a fallback or never reads: a saved node that leaves a required one out runs with the fallback,
so under `runtime` that is a note too, naming the convention (`strict`: an error). Only a field
left out is answered for: one written with a wrong value, or with a value the editor treats as
not set, is still judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from pygen.validation.empty import default_at, is_unset
from pygen.validation.expressions import VALUE_RULES
from pygen.validation.findings import Finding, parts_of


def judged_by_defaults(findings: Iterable[Finding], data: object, defaults: Mapping[str, Any],
                       unset: tuple[Any, ...], path: str) -> Iterator[Finding]:
    """The findings on a node's data, with those its default data answers for changed."""
    base = parts_of(path)
    for finding in findings:
        parts = parts_of(finding.path)
        found, default = default_at(defaults, base, parts)
        if finding.rule == "required" and found and is_unset(default, unset):
            continue  # not set, as the default data leaves it: the node is at its default
        if finding.rule == "required" and not found:
            yield replace(finding, level="info", strict_error=True, message=(
                f"not set, as in a new node of this type (its default data leaves it out); "
                f"{finding.message}"))
            continue
        if finding.rule in VALUE_RULES and found:
            saved = default_at(data if isinstance(data, dict) else {}, base, parts)
            if saved[0] and same_json(saved[1], default):
                continue
        yield finding


def same_json(a: object, b: object) -> bool:
    """JSON equality all the way down (true is not 1)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return (not isinstance(a, dict | list) and isinstance(a, bool) == isinstance(b, bool)
            and a == b)


def read_with_fallback(findings: Iterable[Finding], data: object, fields: Iterable[str],
                       path: str) -> Iterator[Finding]:
    """The findings, with a required field of `fields` (top level) that the data leaves out
    turned into a note: the editor's code reads it with a fallback (`fallback_fields`)."""
    names = set(fields)
    base = parts_of(path)
    for finding in findings:
        parts = parts_of(finding.path)
        left_out = (isinstance(data, dict) and len(parts) == len(base) + 1
                    and parts[:len(base)] == base and parts[-1] not in data)
        if (finding.rule == "required" and finding.level != "info" and left_out
                and parts[-1] in names):
            yield replace(finding, level="info", strict_error=True, message=(
                f"left out, and the editor's code reads it with a fallback (conventions "
                f"fallback_fields): the node runs with its default; {finding.message}"))
            continue
        yield finding
