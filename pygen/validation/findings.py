"""Findings: what validation reports (a JSON path, a message, a suggestion) and how it words them.

The helpers here write the parts every message shares: JSON paths, values shown short, lists
cut at a limit, what a schema accepts, and the "did you mean" guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired

# pydantic (the MCP output schema) needs this TypedDict on Python < 3.12.
from typing_extensions import TypedDict

from pygen.errors import located
from pygen.jsonvalues import show, type_name
from pygen.suggest import closest, hint

_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_LIST_LIMIT = 12


class FindingDict(TypedDict):
    level: Literal["error", "warning"]
    path: str
    message: str
    suggestion: str | None
    file: NotRequired[str]
    line: NotRequired[int | None]


class Report(TypedDict):
    valid: bool
    errors: int
    warnings: int
    findings: list[FindingDict]


@dataclass(frozen=True)
class Finding:
    level: Literal["error", "warning"]
    path: str
    message: str
    suggestion: str | None = None
    # Set for findings in a file holding several JSON documents (skill examples).
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        text = f"{self.path}: {self.message}"
        if self.suggestion is not None:
            text += hint(show(self.suggestion))
        return located(self.file, self.line, text) if self.file else text

    def to_dict(self) -> FindingDict:
        out: FindingDict = {"level": self.level, "path": self.path, "message": self.message,
                            "suggestion": self.suggestion}
        if self.file is not None:
            out["file"], out["line"] = self.file, self.line
        return out


def is_valid(findings: Iterable[Finding]) -> bool:
    return all(f.level != "error" for f in findings)


def report(findings: Sequence[Finding]) -> Report:
    """The JSON result shared by `validate-workflow --json` and the MCP tool."""
    errors = sum(f.level == "error" for f in findings)
    return {"valid": errors == 0, "errors": errors, "warnings": len(findings) - errors,
            "findings": [f.to_dict() for f in findings]}


def error_at(path: str, message: str, suggestion: str | None = None) -> Finding:
    return Finding("error", path, message, suggestion)


def warning_at(path: str, message: str, suggestion: str | None = None) -> Finding:
    return Finding("warning", path, message, suggestion)


def path_of(base: str, parts: Iterable[str | int]) -> str:
    for part in parts:
        base = child(base, part)
    return base


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
