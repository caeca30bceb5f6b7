"""Values the editor computes when the workflow runs: an expression stands in any typed field.

An editor that declares an expression prefix (conventions `expression_prefix`; n8n's is `=`,
as in `={{ $json.id }}`) evaluates such a string when the node runs, so a number, boolean or
option field holding one is not a type error: its value is not known until then. What can be
checked is the expression's own syntax: every `{{` closed by a `}}` after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pygen.validation.findings import Finding, child, error_at, parts_of

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

# A schema error that rests on a value known only when the workflow runs (see `runtime_test`).
RuntimeTest = Callable[["ValidationError"], bool]

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


def runtime_test(root: object, prefix: str | None) -> RuntimeTest | None:
    """Whether a schema error (of a validator over `root`) rests on a run-time value: a value
    check on a field holding an expression, or a rule whose condition tests a field whose
    value, or absent, whose default, is an expression (n8n's Notion `type`, hidden, defaults
    to `={{$parameter["&key"].split("|")[1]}}`: which of its value fields shows is known
    only then). None without an expression prefix: then nothing is run-time."""
    if prefix is None:
        return None

    def test(error: ValidationError) -> bool:
        if error.validator in _VALUE_KEYWORDS and is_expression(error.instance, prefix):
            return True
        return _condition_is_runtime(error, root, prefix)

    return test


# The jsonschema keywords that judge a value itself (an expression's is known at run time).
_VALUE_KEYWORDS = frozenset({"type", "enum", "const", "minimum", "maximum",
                             "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                             "minItems", "maxItems", "pattern", "format", "anyOf", "oneOf",
                             "multipleOf"})


def _condition_is_runtime(error: ValidationError, root: object, prefix: str) -> bool:
    """A rule under an `if`/`then` (visible-and-required, hidden-must-be-left-out) whose
    condition tests a field holding, or defaulting to, an expression."""
    path = list(error.absolute_schema_path)
    if "then" not in path or not isinstance(error.instance, dict):
        return False
    at = len(path) - 1 - path[::-1].index("then")
    rule, owner = _walk(root, path[:at]), _walk(root, path[:max(at - 2, 0)])
    if not isinstance(rule, dict) or not isinstance(owner, dict):
        return False
    props = owner.get("properties", {})
    for name in _tested(rule.get("if")):
        values = [error.instance[name]] if name in error.instance else _defaults(props.get(name))
        if any(is_expression(v, prefix) for v in values):
            return True
    return False


def _tested(schema: object) -> Iterator[str]:
    """The fields a condition schema tests (its `properties`, through not/allOf/anyOf)."""
    if isinstance(schema, dict):
        yield from schema.get("properties", {})
        for key in ("not", "if"):
            yield from _tested(schema.get(key))
        for key in ("allOf", "anyOf", "oneOf"):
            for branch in schema.get(key, ()):
                yield from _tested(branch)


def _defaults(schema: object) -> list[Any]:
    """A property's default; of a field listed once per condition, each listing's."""
    if not isinstance(schema, dict):
        return []
    if "default" in schema:
        return [schema["default"]]
    return [b["default"] for b in schema.get("anyOf", ()) if isinstance(b, dict)
            and "default" in b]


def _walk(schema: object, path: list[str | int]) -> object:
    for part in path:
        if isinstance(schema, dict) and isinstance(part, str):
            schema = schema.get(part)
        elif isinstance(schema, list) and isinstance(part, int) and part < len(schema):
            schema = schema[part]
        else:
            return None
    return schema


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
