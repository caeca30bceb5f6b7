"""The one strict JSON reader for every input pygen parses: files, stdin, MCP arguments.

Python's `json` accepts what is not JSON (NaN, Infinity, 1e999, duplicate keys where the last
silently wins, lone surrogates) and crashes on what is hostile (nesting 100,000 deep, integers
of 5,000 digits). This reader refuses each with one line naming the source and the JSON path
or the byte offset, so no input ever reaches a caller as an "internal error".
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pygen import files
from pygen.errors import PygenError, json_error, located

MAX_DEPTH = 512
MAX_INT_DIGITS = 1000
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonInputError(PygenError):
    """Input that is not strict JSON; callers may re-raise the message as their own error."""


class _Rejected:
    """Stands in for a value the parser must not accept, so the walk can name its path."""

    def __init__(self, why: str) -> None:
        self.why = why


class _Object(dict[str, Any]):
    duplicate: str | None = None


class _Hooks:
    """Parser hooks that mark rejected values for the walk, and note that one is needed."""

    def __init__(self) -> None:
        self.flagged = False

    def pairs(self, pairs: list[tuple[str, Any]]) -> _Object:
        result = _Object()
        for key, value in pairs:
            if key in result and result.duplicate is None:
                result.duplicate = key
                self.flagged = True
            result[key] = value
        return result

    def integer(self, text: str) -> int | _Rejected:
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS:
            return self._reject(f"an integer of {digits} digits (the limit is {MAX_INT_DIGITS})")
        return int(text)

    def number(self, text: str) -> float | _Rejected:
        value = float(text)
        return value if math.isfinite(value) else self._reject(f"{text[:20]} overflows a number")

    def constant(self, text: str) -> _Rejected:
        return self._reject(f"{text} is not JSON; write a finite number or null")

    def _reject(self, why: str) -> _Rejected:
        self.flagged = True
        return _Rejected(why)


def decode(data: bytes, source: str) -> str:
    """UTF-8 text without a leading BOM (pygen.files.decode), its error as JsonInputError."""
    try:
        return files.decode(data, source)
    except PygenError as exc:
        raise JsonInputError(str(exc)) from None


def loads(data: str | bytes, source: str) -> Any:
    """Parse strict JSON; `source` names the input (a path, `<stdin>`, an argument) in errors."""
    text = decode(data, source) if isinstance(data, bytes) else data.removeprefix(files.BOM)
    hooks = _Hooks()
    try:
        value = json.loads(text, object_pairs_hook=hooks.pairs, parse_int=hooks.integer,
                           parse_float=hooks.number, parse_constant=hooks.constant)
    except json.JSONDecodeError as exc:
        raise JsonInputError(json_error(source, exc)) from None
    except RecursionError:
        raise JsonInputError(_too_deep(text, source)) from None
    if hooks.flagged or _suspect(text):
        _check(value, source)
    return value


def loads_own(data: str | bytes, source: str) -> Any:
    """Parse JSON pygen wrote itself (its cache, its extractor's reply, the schema document it
    regenerates and compares byte for byte): errors as from `loads`, without the hostile-input
    checks, which cost three times the parse on a catalog of thousands of nodes."""
    text = decode(data, source) if isinstance(data, bytes) else data.removeprefix(files.BOM)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonInputError(json_error(source, exc)) from None
    except RecursionError:
        raise JsonInputError(_too_deep(text, source)) from None


def load_file(path: Path, source: str | None = None) -> Any:
    """Read and parse a JSON file; an unreadable file is one line too."""
    try:
        data = files.read_bytes(path)
    except PygenError as exc:
        raise JsonInputError(str(exc).replace(str(path), source or str(path), 1)) from None
    if data is None:
        raise JsonInputError(f"{source or path}: cannot read (No such file or directory)")
    return loads(data, source or str(path))


def _suspect(text: str) -> bool:
    """Whether the slower walk is needed; plain input of any size skips it."""
    return (_SURROGATE_ESCAPE.search(text) is not None
            or text.count("[") + text.count("{") > MAX_DEPTH)


def _too_deep(text: str, source: str) -> str:
    """Where the nesting first passes MAX_DEPTH, found without recursion."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                return located(source, line, f"invalid JSON: nested deeper than {MAX_DEPTH} "
                               "levels", col)
        elif char in "]}":
            depth -= 1
    return f"{source}: invalid JSON: nested deeper than {MAX_DEPTH} levels"


def _check(value: Any, source: str) -> None:
    for trail, item, depth in _walk(value):
        problem = _problem(item, depth)
        if problem:
            raise JsonInputError(f"{source}: invalid JSON at {_path(trail)}: {problem}")


def _problem(item: Any, depth: int) -> str | None:
    if isinstance(item, _Rejected):
        return item.why
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(item, _Object) and item.duplicate is not None:
        return f"duplicate key {json.dumps(item.duplicate)}; keep one"
    if isinstance(item, str) and _SURROGATE.search(item):
        return "a lone surrogate (\\ud800-\\udfff) is not text"
    return None


# A path is kept as a linked trail (parent trail, key) and spelled out only for an error.
Trail = tuple[Any, str | int] | None


def _walk(value: Any) -> Iterator[tuple[Trail, Any, int]]:
    """Every value and key with its trail and depth, depth-first, without recursion."""
    stack: list[tuple[Trail, Any, int]] = [(None, value, 0)]
    while stack:
        trail, item, depth = stack.pop()
        yield trail, item, depth
        if isinstance(item, dict):
            for key, child in item.items():
                if _SURROGATE.search(key):
                    yield (trail, key), key, depth + 1
                stack.append(((trail, key), child, depth + 1))
        elif isinstance(item, list):
            stack.extend(((trail, index), child, depth + 1) for index, child in enumerate(item))


def _path(trail: Trail) -> str:
    parts: list[str] = []
    while trail is not None:
        trail, key = trail
        if isinstance(key, int):
            parts.append(f"[{key}]")
        else:
            parts.append(f".{key}" if key.isidentifier() else f"[{json.dumps(key)}]")
    path = "$" + "".join(reversed(parts))
    # A path 600 levels deep is no help on one line; its ends are.
    return path if len(path) <= 120 else f"{path[:60]}…{path[-50:]} (depth {len(parts)})"
