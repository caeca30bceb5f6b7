"""jsonschema errors turned into findings an agent can act on.

A union error is reported against the branch that was meant (the variant its discriminant
names, or of the branches that accepted the value's type the one with the fewest findings)
instead of listing every branch. Errors that rest on values known only at run time (see
`expressions.runtime_test`) are dropped first: a branch left without any accepted the value.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pygen.jsonvalues import same, show
from pygen.schema.conditional import SHOWN_WHEN
from pygen.schema.node_schema import Schema
from pygen.suggest import guess
from pygen.validation.expressions import RuntimeTest
from pygen.validation.findings import (
    Finding,
    Fix,
    child,
    close_value,
    describe,
    error_at,
    info_at,
    kind,
    listed,
    parts_of,
    path_of,
    warning_at,
)

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


# jsonschema keyword → rule id, for the keywords not handled one by one below.
_RULES = {"minimum": "range", "maximum": "range", "exclusiveMinimum": "range",
          "exclusiveMaximum": "range", "minLength": "length", "maxLength": "length",
          "minItems": "length", "maxItems": "length", "pattern": "pattern"}


def error_findings(error: ValidationError, base: str,
                   runtime: RuntimeTest | None = None) -> Iterator[Finding]:
    path = path_of(base, error.absolute_path)
    if runtime is not None and runtime(error):
        schema = error.schema if isinstance(error.schema, dict) else {}
        when = schema.get(SHOWN_WHEN)
        if when and error.validator in ("required", "not"):
            # Not known until the node runs: said, not judged.
            names = _expected(error) if error.validator == "required" else [schema.get("x-field")]
            field = next((n for n in names if isinstance(n, str)), None)
            yield info_at(child(path, field) if field else path,
                          f"not checked: this field's rule holds only when {when}, which "
                          f"rests on a value known when the node runs", rule="hidden"
                          if error.validator == "not" else "required")
        return
    check, expected = error.validator, _expected(error)
    if check == "required":
        yield from _missing(error, path)
    elif check in ("oneOf", "anyOf"):
        yield from _union_findings(error, base, path, runtime)
    elif check in ("enum", "const"):
        yield _enum_finding(error, path, list(expected) if check == "enum" else [expected])
    elif check == "type":
        yield error_at(path, f"expected {describe(error.schema)}, got {kind(error.instance)}",
                       rule="type")
    elif check == "not" and isinstance(error.schema, dict) and SHOWN_WHEN in error.schema:
        yield _hidden(error.schema, path)
    elif check == "not":
        yield error_at(path, "must be left out (its type has no JSON value)", rule="type")
    elif check in ("minimum", "maximum"):
        yield error_at(path, error.message, rule="range",
                       fix=Fix("set", parts_of(path), expected))
    else:
        yield error_at(path, error.message, rule=_RULES.get(str(check), "schema"))


def _enum_finding(error: ValidationError, path: str, options: list[Any]) -> Finding:
    """Not one of the options; the fix snaps to the nearest one (the closest name, or the
    nearest number), so an agent that asked for 12 seconds where 5 or 10 exist gets 10."""
    near = nearest_option(error.instance, options)
    schema = error.schema if isinstance(error.schema, dict) else {}
    handled = [v for b in (schema, *schema.get("anyOf", ()), *schema.get("oneOf", ()))
               if isinstance(b, dict) for v in b.get("x-handled", ())]
    if any(same(error.instance, v) for v in handled):
        # Still handled by the node (its own conditions show fields for it): it loads and
        # runs; the current options are what to write.
        return warning_at(path, f"{show(error.instance)} is a legacy value the node still "
                                f"handles; its options now are {listed(options)}", rule="enum",
                          fix=Fix("set", parts_of(path), near[0]) if near else None)
    text = (f"expected {show(options[0])}, got {show(error.instance)}" if len(options) == 1
            else f"{show(error.instance)} is not one of {listed(options)}")
    return error_at(path, text, near[0] if near and isinstance(near[0], str) else None,
                    rule="enum", fix=Fix("set", parts_of(path), near[0]) if near else None)


def nearest_option(value: Any, options: list[Any]) -> tuple[Any] | None:
    """The allowed value `value` most likely meant, in a 1-tuple (the option may be null);
    None when nothing is close: a number snaps to the nearest number, a string to the
    closest string."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        numbers = [o for o in options if isinstance(o, int | float) and not isinstance(o, bool)]
        return (min(numbers, key=lambda o: (abs(o - value), o)),) if numbers else None
    if isinstance(value, str):
        near = guess(value, [o for o in options if isinstance(o, str)])
        return (near.name,) if near else None
    return None


def _expected(error: ValidationError) -> Any:
    """The keyword's value in the schema (`required` names, `enum` options, union branches)."""
    return error.validator_value


def _missing(error: ValidationError, path: str) -> Iterator[Finding]:
    """A missing required field; its fix sets the default when the schema has one."""
    props = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    for name in _expected(error):
        if isinstance(error.instance, dict) and name not in error.instance:
            prop = props.get(name, {})
            where = child(path, name)
            fix = (Fix("set", parts_of(where), prop["default"])
                   if isinstance(prop, dict) and "default" in prop else None)
            yield error_at(where, f"missing required field ({required_detail(error, name)})",
                           rule="required", fix=fix)


def required_detail(error: ValidationError, name: str) -> str:
    """What a `required` error says of one field: the condition that makes it required,
    else the field's description; one text for "missing" and "empty" alike."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    when = schema.get(SHOWN_WHEN)
    props = schema.get("properties", {})
    return f"required when {when}" if when else describe(props.get(name, {}))


def _hidden(schema: dict[str, Any], path: str) -> Finding:
    """A field set where the values chosen for others hide it: the editor ignores it."""
    name = str(schema.get("x-field", ""))
    where = child(path, name) if name else path
    return warning_at(where, f"is hidden by the values chosen for other fields; it is shown "
                             f"only when {schema[SHOWN_WHEN]}", rule="hidden",
                      fix=Fix("remove", parts_of(where)))


def _union_findings(error: ValidationError, base: str, path: str,
                    runtime: RuntimeTest | None) -> Iterator[Finding]:
    branches: list[Schema] = _expected(error)
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        by_branch.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    # Notes (what a run-time value leaves unchecked) do not make a branch fail.
    found = {i: list(dict.fromkeys(f for sub in subs for f in error_findings(sub, base, runtime)
                                   if f.level != "info"))
             for i, subs in by_branch.items()}
    if any(not f for f in found.values()):
        return  # a branch fails only on values known at run time: it may well hold
    disc = _discriminant(branches)
    if disc is not None and isinstance(error.instance, dict):
        yield from _by_discriminant(disc, branches, found, error.instance, path)
        return
    # The branches that accepted the value's own type (or value); of those the one with the
    # fewest findings is the one meant, and its findings say what is wrong.
    fits = [i for i, subs in by_branch.items()
            if not any(not s.relative_path and s.validator in _OWN for s in subs)]
    if fits:
        yield from found[min(fits, key=lambda i: (len(found[i]), i))]
        return
    literals = _union_literals(branches)
    if literals and all(isinstance(b, dict) and ("enum" in b or "const" in b)
                        for b in branches):
        # Every branch a choice (a field listed once per condition, each listing its options):
        # the value is one of none of them, and the nearest of all is the likely meant one.
        yield _enum_finding(error, path, list(dict.fromkeys(literals)))
        return
    yield error_at(path, f"expected {describe(error.schema)}, got {kind(error.instance)}",
                   close_value(error.instance, _union_literals(branches)), rule="type")


# A branch failing on one of these at the value itself rejected the value's type or value.
_OWN = frozenset({"type", "enum", "const"})


def _by_discriminant(disc: str, branches: list[Schema], found: dict[int, list[Finding]],
                     instance: dict[str, Any], path: str) -> Iterator[Finding]:
    """Report against the variant the discriminant names, or on the discriminant itself."""
    values = [b["properties"][disc]["const"] for b in branches]
    where = child(path, disc)
    if disc not in instance:
        yield error_at(where, f"missing required field (one of {listed(values)})",
                       rule="required")
        return
    match = next((i for i, v in enumerate(values) if same(instance[disc], v)), None)
    if match is None:
        yield error_at(where, f"{show(instance[disc])} is not one of {listed(values)}",
                       close_value(instance[disc], values), rule="enum")
        return
    yield from found.get(match, ())


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
