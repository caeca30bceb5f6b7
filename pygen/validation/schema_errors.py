"""jsonschema errors turned into findings an agent can act on.

A union error is reported against the branch that was meant (the variant its discriminant
names, or the one branch that accepted the value's type) instead of listing every branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pygen.jsonvalues import same, show
from pygen.skills.schema_doc import Schema
from pygen.validation.findings import (
    Finding,
    child,
    close_value,
    describe,
    error_at,
    kind,
    listed,
    path_of,
)

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


def error_findings(error: ValidationError, base: str) -> Iterator[Finding]:
    path = path_of(base, error.absolute_path)
    check, expected = error.validator, _expected(error)
    if check == "required":
        yield from _missing(error, path)
    elif check in ("oneOf", "anyOf"):
        yield from _union_findings(error, base, path)
    elif check == "enum":
        options = list(expected)
        yield error_at(path, f"{show(error.instance)} is not one of {listed(options)}",
                       close_value(error.instance, options))
    elif check == "const":
        yield error_at(path, f"expected {show(expected)}, got {show(error.instance)}",
                       close_value(error.instance, [expected]))
    elif check == "type":
        yield error_at(path, f"expected {describe(error.schema)}, got {kind(error.instance)}")
    elif check == "not":
        yield error_at(path, "must be left out (its type has no JSON value)")
    else:
        yield error_at(path, error.message)


def _expected(error: ValidationError) -> Any:
    """The keyword's value in the schema (`required` names, `enum` options, union branches)."""
    return error.validator_value


def _missing(error: ValidationError, path: str) -> Iterator[Finding]:
    props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    for name in _expected(error):
        if isinstance(error.instance, dict) and name not in error.instance:
            expected = describe(props.get(name, {}))
            yield error_at(child(path, name), f"missing required field ({expected})")


def _union_findings(error: ValidationError, base: str, path: str) -> Iterator[Finding]:
    branches: list[Schema] = _expected(error)
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        by_branch.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    disc = _discriminant(branches)
    if disc is not None and isinstance(error.instance, dict):
        yield from _by_discriminant(disc, branches, by_branch, error.instance, base, path)
        return
    # A branch whose errors all lie deeper accepted the value's type: it is the one meant.
    deeper = [i for i, subs in by_branch.items() if all(s.relative_path for s in subs)]
    if len(deeper) == 1:
        for sub in by_branch[deeper[0]]:
            yield from error_findings(sub, base)
        return
    yield error_at(path, f"expected {describe(error.schema)}, got {kind(error.instance)}",
                   close_value(error.instance, _union_literals(branches)))


def _by_discriminant(disc: str, branches: list[Schema],
                     by_branch: dict[int, list[ValidationError]], instance: dict[str, Any],
                     base: str, path: str) -> Iterator[Finding]:
    """Report against the variant the discriminant names, or on the discriminant itself."""
    values = [b["properties"][disc]["const"] for b in branches]
    where = child(path, disc)
    if disc not in instance:
        yield error_at(where, f"missing required field (one of {listed(values)})")
        return
    match = next((i for i, v in enumerate(values) if same(instance[disc], v)), None)
    if match is None:
        yield error_at(where, f"{show(instance[disc])} is not one of {listed(values)}",
                       close_value(instance[disc], values))
        return
    for sub in by_branch.get(match, ()):
        yield from error_findings(sub, base)


def _discriminant(branches: list[Schema]) -> str | None:
    first = branches[0].get("properties", {}) if branches else {}
    for name, prop in first.items():
        if "const" in prop and all("const" in b.get("properties", {}).get(name, {})
                                   for b in branches):
            return str(name)
    return None


def _union_literals(branches: list[Schema]) -> list[Any]:
    values: list[Any] = []
    for branch in branches:
        values += [branch["const"]] if "const" in branch else branch.get("enum", [])
    return values
