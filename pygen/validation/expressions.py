"""Values the editor computes when the workflow runs: an expression stands in any typed field.

An editor that declares an expression prefix (conventions `expression_prefix`; n8n's is `=`,
as in `={{ $json.id }}`) evaluates such a string when the node runs, so a number, boolean or
option field holding one is not a type error: its value is not known until then. What can be
checked is the expression's own syntax: every `{{` closed by a `}}` after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pygen.validation.findings import Finding, child, error_at, parts_of

# The rules about a value's type and range: an expression's value is known only at run time.
VALUE_RULES = frozenset({"type", "enum", "range", "length", "pattern", "schema"})


def is_expression(value: object, prefix: str | None) -> bool:
    return prefix is not None and isinstance(value, str) and value.startswith(prefix)


def accept_expressions(findings: Iterable[Finding], data: object, path: str,
                       prefix: str | None) -> list[Finding]:
    """The findings, less those about the value of a field that holds an expression."""
    if prefix is None:
        return list(findings)
    base = parts_of(path)
    return [f for f in findings
            if f.rule not in VALUE_RULES or not is_expression(_at(data, f.path, base), prefix)]


def expression_findings(data: object, path: str, prefix: str | None) -> Iterator[Finding]:
    """An error for each expression whose `{{ … }}` do not pair up."""
    if prefix is None:
        return
    for where, value in _strings(data, path):
        if value.startswith(prefix):
            problem = _unbalanced(value[len(prefix):])
            if problem:
                yield error_at(where, f"the expression {problem}", rule="expression")


def _unbalanced(text: str) -> str | None:
    opened = text.count("{{")
    closed = text.count("}}")
    last_open, first_close = text.rfind("{{"), text.find("}}")
    if opened > closed or (last_open >= 0 and text.find("}}", last_open) < 0):
        return "opens `{{` and never closes it with `}}`"
    if opened == 0 and first_close >= 0:
        return "closes `}}` with no `{{` before it"
    return None


def _strings(value: object, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, child(path, str(key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, child(path, i))


def _at(data: object, path: str, base: tuple[str | int, ...]) -> Any:
    parts = parts_of(path)
    if parts[:len(base)] != base:
        return None
    value: Any = data
    for part in parts[len(base):]:
        value = _step(value, part)
    return value


def _step(value: Any, part: str | int) -> Any:
    if isinstance(value, list) and isinstance(part, int):
        return value[part] if part < len(value) else None
    if isinstance(value, dict) and isinstance(part, str):
        return value.get(part)
    return None
