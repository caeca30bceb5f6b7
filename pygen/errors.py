"""The one family of user-facing errors; the CLI turns them into one line and exit 2."""

from __future__ import annotations

import json


class PygenError(Exception):
    """A failure the user can fix; its message is shown as is, without a traceback."""

    exit_code = 2


class ConfigError(PygenError):
    pass


class ExtractionError(PygenError):
    pass


class MarkerError(PygenError):
    pass


class ToolSchemaError(PygenError):
    pass


class UnknownNodeType(PygenError):
    """A node type outside the known set; the message lists the valid ones."""


def json_error(source: str, exc: json.JSONDecodeError) -> str:
    """`file:line:col: invalid JSON: …`, the same for every JSON input pygen reads."""
    return located(source, exc.lineno, f"invalid JSON: {exc.msg}", exc.colno)


def located(path: str, line: int | None, message: str, col: int | None = None) -> str:
    """Compiler-style `file:line:col: message`, the shape every located error uses."""
    where = path
    if line is not None:
        where += f":{line}"
        if col is not None:
            where += f":{col}"
    return f"{where}: {message}"
