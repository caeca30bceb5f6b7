"""`stdio:<command line>` tool sources: any MCP server started as a process, asked for
`initialize` and every page of `tools/list` through the official client. The server gets
`tool_timeout` to answer; the SDK then shuts it down as the MCP spec asks (close its stdin,
wait, then terminate its process tree), with the wait cut to SHUTDOWN_GRACE so even a server
that ignores its stdin closing fails within the timeout. The SDK is imported only here."""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import pydantic

from pygen import __version__
from pygen.errors import ToolSchemaError
from pygen.tools.source_entry import SOURCE_HELP, RawTools, stderr_tail

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

# A server that keeps answering with new cursors is broken, not large.
MAX_PAGES = 1000
# Seconds a stdio server may take to exit once its stdin closes, before it is killed.
SHUTDOWN_GRACE = 0.25


def load(rest: str, root: Path, timeout: float, source: str) -> RawTools:
    try:
        argv = shlex.split(rest)
    except ValueError as exc:
        raise ToolSchemaError(f"tools entry '{source}': cannot split the command: {exc}") from None
    if not argv or not argv[0]:
        raise ToolSchemaError(f"tools entry '{source}': empty command; {SOURCE_HELP}")
    # Which request is outstanding, for the timeout message.
    stage = ["initialize"]
    import anyio

    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog, \
            _sdk_log() as garbage:
        try:
            return anyio.run(_list_stdio, argv, root, timeout, errlog, stage)
        except Exception as exc:
            leaf = _leaf(exc)
            if isinstance(leaf, TimeoutError):
                raise ToolSchemaError(
                    f"{source}: no answer to {stage[0]} within {timeout:g}s (tool_timeout); "
                    "is it an MCP server speaking stdio?") from None
            detail = stderr_tail(_read_all(errlog))
            if garbage:
                detail = (f"; it wrote {garbage[0]} to stdout, where only MCP messages may go"
                          f"{detail}")
            raise ToolSchemaError(f"{source}: {_stdio_failure(leaf, stage[0], argv)}"
                                  f"{detail}") from None


@contextlib.contextmanager
def _sdk_log() -> Iterator[list[str]]:
    """Keep the SDK's log records (tracebacks for non-JSON stdout lines) off the terminal.

    Yields the offending stdout lines, shortened, for the error message.
    """
    logger = logging.getLogger("mcp")
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            error = record.exc_info[1] if record.exc_info else None
            if isinstance(error, pydantic.ValidationError) and error.errors():
                lines.append(_short(error.errors()[0].get("input")))

    handler, propagate = Collect(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


async def _list_stdio(argv: list[str], root: Path, timeout: float, errlog: TextIO,
                      stage: list[str]) -> RawTools:
    import anyio
    import mcp_types
    from mcp.client import stdio as mcp_stdio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    # The server is the user's own program: give it the user's environment, not the SDK's
    # minimal one, so it starts the same way it does for them.
    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=root, env=dict(os.environ))
    info = mcp_types.Implementation(name="pygen", version=__version__)
    # The SDK gives a server 2 s to exit after stdin closes before killing it; a listing
    # that must end within tool_timeout keeps a short grace: the server's work is done.
    with _setting(mcp_stdio, "PROCESS_TERMINATION_TIMEOUT", SHUTDOWN_GRACE), \
            anyio.fail_after(timeout):
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            stage[0] = "tools/list"
            return await _all_pages(session)


@contextlib.contextmanager
def _setting(module: Any, name: str, value: object) -> Iterator[None]:
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


async def _all_pages(session: ClientSession) -> RawTools:
    import mcp_types

    tools: RawTools = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await session.list_tools(params=mcp_types.PaginatedRequestParams(cursor=cursor))
        tools.extend(t.model_dump(mode="json", by_alias=True, exclude_none=True)
                     for t in page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return tools
    raise RuntimeError(f"tools/list still returned a nextCursor after {MAX_PAGES} pages")


def _stdio_failure(exc: BaseException, stage: str, argv: list[str]) -> str:
    if isinstance(exc, FileNotFoundError):
        return f"cannot start '{argv[0]}': command not found"
    if isinstance(exc, OSError):
        return f"cannot start '{argv[0]}': {exc.strerror or exc}"
    text = " ".join(str(exc).split())
    if text == "Connection closed":
        return f"the server closed the connection during {stage}"
    return f"{stage} failed: {text or type(exc).__name__}"


def _leaf(exc: BaseException) -> BaseException:
    """The first real exception inside (possibly nested) anyio exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _read_all(stream: TextIO) -> str:
    stream.seek(0)
    return stream.read()
