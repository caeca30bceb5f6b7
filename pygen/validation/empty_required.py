"""Required, as the editor means it: a required field empty once defaults are applied is
missing (conventions `required_nonempty`; n8n's NodeHelpers `addToIssuesIfMissing` flags a
required `string`/`options`/`dateTime` parameter that is "" or unset after its defaults are
applied, and a `multiOptions` one that is []). The fields it applies to carry `x-nonempty`
(read from the field list's preset). A left-out field whose default is empty, and a field
that holds an empty value where the values chosen for others show it, are errors (rule
`required-empty`); the `runtime` profile does not soften them as it softens `required`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pygen.validation.findings import Finding, child, parts_of
from pygen.validation.schema_errors import error_findings

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

RULE = "required-empty"
_EMPTY: tuple[Any, ...] = ("", [])


def nonempty_fields(schema: object) -> set[str]:
    """The top-level fields that may not be left empty (any listing of one marks it)."""
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return {name for name, prop in props.items() if isinstance(prop, dict) and (
        prop.get("x-nonempty") is True or any(
            isinstance(b, dict) and b.get("x-nonempty") is True
            for b in prop.get("anyOf", ())))}


def empty_required(findings: Iterable[Finding], data: object, path: str,
                   validator: Draft202012Validator) -> list[Finding]:
    """The findings, with the left-out nonempty fields that no default fills as errors,
    plus an error for each empty value where a required field is visible."""
    names = nonempty_fields(validator.schema)
    if not names or not isinstance(data, dict):
        return list(findings)
    base = parts_of(path)
    out = []
    for f in findings:
        at = parts_of(f.path)
        if (f.rule == "required" and f.level != "info" and f.fix is None and at[:-1] == base
                and at[-1] in names):
            f = replace(f, level="error", rule=RULE,
                        message=f"{f.message}; left out it takes its default, which is "
                                f"empty: the editor reports it as missing")
        out.append(f)
    empties = [k for k in sorted(names) if k in data and any(data[k] == e for e in _EMPTY)]
    if empties:
        kept = {k: v for k, v in data.items() if k not in empties}
        where = {child(path, k) for k in empties}
        for error in validator.iter_errors(kept):
            if error.validator != "required" or error.absolute_path:
                continue
            for f in error_findings(error, path):
                if f.path in where:
                    out.append(replace(f, level="error", rule=RULE, fix=None, message=(
                        f.message.replace("missing required field", "required field is "
                                          "empty", 1))))
    return out
