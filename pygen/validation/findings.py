"""Findings: what validation reports (a JSON path, a rule id, a message, a suggestion, a fix)
and how it words them.

The helpers here write the parts every message shares: JSON paths, values shown short, lists
cut at a limit, what a schema accepts, and the "did you mean" guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, cast

# pydantic (the MCP output schema) needs this TypedDict on Python < 3.12.
from typing_extensions import TypedDict

from pygen import jsonread
from pygen.errors import located
from pygen.jsonvalues import show, type_name
from pygen.suggest import closest, hint

_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_LIST_LIMIT = 12


FixOp = Literal["set", "remove", "rename"]


class FixDict(TypedDict):
    op: FixOp
    path: str
    value: NotRequired[Any]
    to: NotRequired[str]


@dataclass(frozen=True)
class Fix:
    """A mechanical repair: set a value, remove a key or list item, or rename a key.

    `at` locates the value (or key) in the validated document, one part per level; the
    JSON path shown to agents is rendered from it.
    """

    op: FixOp
    at: tuple[str | int, ...]
    value: Any = None
    to: str | None = None

    def to_dict(self) -> FixDict:
        out: FixDict = {"op": self.op, "path": path_of("$", self.at)}
        if self.op == "set":
            out["value"] = self.value
        if self.to is not None:
            out["to"] = self.to
        return out


class FindingDict(TypedDict):
    level: Literal["error", "warning", "info"]
    path: str
    rule: str
    message: str
    suggestion: str | None
    fix: NotRequired[FixDict]
    file: NotRequired[str]
    line: NotRequired[int | None]


class Report(TypedDict):
    valid: bool
    errors: int
    warnings: int
    findings: list[FindingDict]


# Report as MCP tools declare it: findings as plain objects, so the tool list does not carry
# the finding and fix shapes (the tool descriptions name their keys).
class WireReport(TypedDict):
    valid: bool
    errors: int
    warnings: int
    findings: list[dict[str, Any]]


def wire_report(findings: Sequence[Finding]) -> WireReport:
    return cast(WireReport, report(findings))


@dataclass(frozen=True)
class Finding:
    # `info`: a note on what could not be checked; it never makes a workflow invalid.
    level: Literal["error", "warning", "info"]
    path: str
    message: str
    suggestion: str | None = None
    # Set for findings in a file holding several JSON documents (skill examples).
    file: str | None = None
    line: int | None = None
    # Which rule found it: an id of profiles.RULES (`pygen validate-workflow --rules`).
    rule: str = "schema"
    fix: Fix | None = field(default=None, compare=False)
    # A note the `strict` profile reports as an error (a field a new node lacks too).
    strict_error: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        text = f"{self.path}: {self.message}"
        if self.suggestion is not None:
            text += hint(show(self.suggestion))
        return located(self.file, self.line, text) if self.file else text

    def to_dict(self) -> FindingDict:
        out: FindingDict = {"level": self.level, "path": self.path, "rule": self.rule,
                            "message": self.message, "suggestion": self.suggestion}
        if self.fix is not None:
            out["fix"] = self.fix.to_dict()
        if self.file is not None:
            out["file"], out["line"] = self.file, self.line
        return out


def is_valid(findings: Iterable[Finding]) -> bool:
    return all(f.level != "error" for f in findings)


def report(findings: Sequence[Finding]) -> Report:
    """The JSON result shared by `validate-workflow --json` and the MCP tool."""
    errors = sum(f.level == "error" for f in findings)
    warnings = sum(f.level == "warning" for f in findings)
    return {"valid": errors == 0, "errors": errors, "warnings": warnings,
            "findings": [f.to_dict() for f in findings]}


def error_at(path: str, message: str, suggestion: str | None = None, *, rule: str = "schema",
             fix: Fix | None = None) -> Finding:
    return Finding("error", path, message, suggestion, rule=rule, fix=fix)


def info_at(path: str, message: str, *, rule: str = "schema") -> Finding:
    """A note: what validation could not check (a handle the catalog does not declare)."""
    return Finding("info", path, message, rule=rule)


def warning_at(path: str, message: str, suggestion: str | None = None, *, rule: str = "schema",
               fix: Fix | None = None) -> Finding:
    return Finding("warning", path, message, suggestion, rule=rule, fix=fix)


def path_of(base: str, parts: Iterable[str | int]) -> str:
    for part in parts:
        base = child(base, part)
    return base


_PART = re.compile(r"\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[(\"(?:[^\"\\\\]|\\\\.)*\")\]")


def parts_of(path: str) -> tuple[str | int, ...]:
    """The parts of a JSON path `child` wrote: `$.a[0]["b c"]` → ("a", 0, "b c")."""
    parts: list[str | int] = []
    for name, index, quoted in _PART.findall(path.removeprefix("$")):
        parts.append(name if name else int(index) if index
                     else jsonread.loads(quoted, "a JSON path"))
    return tuple(parts)


def child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if _IDENT.match(key) else f"{path}[{json.dumps(key)}]"


def kind(value: object) -> str:
    """`number 5`, `string "x"`, `object`: the JSON type, with short scalars shown."""
    name = type_name(value)
    return name if name in ("object", "array", "null") else f"{name} {show(value)}"


def listed(values: Sequence[Any], limit: int | None = _LIST_LIMIT) -> str:
    shown = ", ".join(show(v) for v in values[:limit])
    more = len(values) - len(values[:limit])
    return f"{shown}, … ({more} more)" if more > 0 else shown


def describe(schema: object) -> str:
    """Short text of what a schema accepts, for `expected …` messages."""
    if not isinstance(schema, dict):
        return "any value"
    if "const" in schema:
        return show(schema["const"])
    if "enum" in schema:
        return f"one of {listed(schema['enum'])}"
    for keyword in ("oneOf", "anyOf"):
        if keyword in schema:
            return " or ".join(dict.fromkeys(describe(b) for b in schema[keyword]))
    type_ = schema.get("type")
    if type_ == "object" and "title" in schema:
        return f"{schema['title']} object"
    if type_ == "array" and isinstance(schema.get("items"), dict):
        return f"array of {describe(schema['items'])}"
    if isinstance(type_, list):
        return " or ".join(type_)
    return str(type_) if type_ else "any value"


def close_value(value: object, options: Sequence[Any]) -> str | None:
    if not isinstance(value, str):
        return None
    return closest(value, [o for o in options if isinstance(o, str)])
