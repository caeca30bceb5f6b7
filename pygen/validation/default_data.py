"""Data as the editor creates it is valid (conventions `default_data_valid`).

An editor that makes every new node from its default data (`addNode` copying the entry's
`defaultData`) creates nodes without the fields that data leaves out, and with the values it
holds: neither can make a saved node invalid. Under the `runtime` profile a required field
the default data leaves out, or leaves at a value the editor treats as not set, and that the
node does not set either, is a note (level `info`) instead of an error; `strict` reports it
as an error (profiles). A value equal to the default data's at the same path is accepted by
every profile: the editor writes it itself.
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
