"""Capture the tools of a Python MCP server object: run in a subprocess by pygen.tools.sources.

Usage: python -P capture.py <root> <module> <attr>

Imports <module> with <root> first on sys.path, takes <attr> (an MCPServer, a low-level
Server, or a zero-argument function returning one) and lists its tools in-process: no
transport is started and nothing listens. Runs as a script in its own process so that a
module whose import blocks can be killed by the parent's timeout; it therefore imports
nothing from pygen.

Protocol, one JSON object per line on the original stdout (the module's own prints are
redirected to stderr so they cannot corrupt it):
  {"stage": "imported"}   the module imported; a timeout after this is in the listing
  {"tools": [...]}        the tools/list result, in wire form
  {"error": "..."}        one-line reason, then exit 1
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
from typing import Any, TextIO


class CaptureError(Exception):
    pass


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _import(root: str, module: str) -> Any:
    sys.path.insert(0, root)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            raise CaptureError(
                f"cannot import {module}: no module named '{exc.name}' under {root} "
                "(module paths are relative to the config's directory)"
            ) from None
        raise CaptureError(f"cannot import {module}: {_one_line(exc)}") from None
    except BaseException as exc:  # a module may raise anything, SystemExit included
        raise CaptureError(f"cannot import {module}: {_one_line(exc)}") from None


def _a(value: Any) -> str:
    name = type(value).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _resolve(obj: Any, module: str, attr: str) -> Any:
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise CaptureError(f"module {module} has no attribute '{attr}'")
        obj = getattr(obj, part)
    return obj


def _server(value: Any, name: str) -> Any:
    """The server object itself, calling a factory function first when given one."""
    from mcp.server import Server
    from mcp.server.mcpserver import MCPServer

    if isinstance(value, MCPServer | Server):
        return value
    if not callable(value) or isinstance(value, type):
        raise CaptureError(
            f"{name} is {_a(value)}, not an MCP server (MCPServer or Server) "
            "or a function returning one"
        )
    try:
        made = value()
        if inspect.iscoroutine(made):
            made = _run(made)
    except BaseException as exc:
        raise CaptureError(f"{name}() raised {_one_line(exc)}") from None
    if not isinstance(made, MCPServer | Server):
        raise CaptureError(
            f"{name}() returned {_a(made)}, not an MCP server (MCPServer or Server)"
        )
    return made


async def _list(server: Any) -> list[dict[str, Any]]:
    from mcp.client import Client
    from mcp.server.mcpserver import MCPServer

    if isinstance(server, MCPServer):
        # Its own listing: no lifespan, no session, nothing started.
        tools = await server.list_tools()
    else:
        # A low-level Server only answers through its handler; the in-process client calls
        # it directly (no streams, no JSON-RPC framing) and follows nextCursor.
        tools = []
        async with Client(server) as client:
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor)
                tools.extend(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    break
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def capture(root: str, module: str, attr: str, out: TextIO) -> None:
    def emit(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    try:
        loaded = _import(root, module)
        emit({"stage": "imported"})
        server = _server(_resolve(loaded, module, attr), f"{module}:{attr}")
        try:
            tools = _run(_list(server))
        except BaseException as exc:
            raise CaptureError(f"listing the tools of {module}:{attr} failed: "
                               f"{_one_line(_leaf(exc))}") from None
        emit({"tools": tools})
    except CaptureError as exc:
        emit({"error": str(exc)})
        raise SystemExit(1) from None


def _run(coroutine: Any) -> Any:
    import anyio

    async def wait() -> Any:
        return await coroutine

    return anyio.run(wait)


def _leaf(exc: BaseException) -> BaseException:
    """The first real exception inside (possibly nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def main(argv: list[str]) -> None:
    root, module, attr = argv
    # Keep the protocol channel private: fd 1 now goes to stderr for whatever the module prints.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    capture(root, module, attr, out)


if __name__ == "__main__":
    main(sys.argv[1:])
