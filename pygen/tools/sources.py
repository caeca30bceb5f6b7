"""Tool schemas from the sources in config `tools`: Python server objects, stdio servers, JSON.

Each source yields the `tools` of a `tools/list` answer in wire form (`inputSchema`, ...);
`load_tool_schemas` turns them into ToolSchema and combines the sources. Every failure is a
one-line ToolSchemaError that starts with the source as written in the config.

Timeouts (`tool_timeout`): a `python:` capture runs in a child process that is killed, with
its process group, when the timeout passes; the message says whether the import or the
listing was still running. A `stdio:` server gets the timeout to answer `initialize` and
`tools/list`; the SDK then shuts it down as the MCP spec asks (close its stdin, wait, then
terminate its process tree), with the wait cut to SHUTDOWN_GRACE so even a server that
ignores its stdin closing fails within the timeout. The MCP SDK is imported only when a
stdio source is read.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import pydantic

from pygen import __version__, jsonread
from pygen.errors import ToolSchemaError
from pygen.model import ToolSchema

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

CAPTURE_SCRIPT = Path(__file__).resolve().parent / "capture.py"
SOURCE_HELP = "write python:<module>:<attr>, stdio:<command line> or json:<path>"
# A dotted Python name: a module (`app.server`) or an attribute path (`mcp`, `app.tools`).
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*\Z")
# A server that keeps answering with new cursors is broken, not large.
MAX_PAGES = 1000
# Seconds a stdio server may take to exit once its stdin closes, before it is killed.
SHUTDOWN_GRACE = 0.25

RawTools = list[Any]
Loader = Callable[[str, Path, float, str], RawTools]


def load_tool_schemas(sources: Sequence[str], root: Path, timeout: float) -> tuple[ToolSchema, ...]:
    """Every tool of every source, sorted by name; a name declared twice is an error."""
    seen: dict[str, ToolSchema] = {}
    for source in sources:
        for tool in load_source(source, root, timeout):
            other = seen.get(tool.name)
            if other is not None:
                where = (f"twice by {source}" if other.source == source
                         else f"by both {other.source} and {source}")
                raise ToolSchemaError(f"tool '{tool.name}' is declared {where}; keep one")
            seen[tool.name] = tool
    return tuple(sorted(seen.values(), key=lambda tool: tool.name))


def parse_source(source: str) -> tuple[str, str]:
    """A `tools` entry `kind:rest` as (kind, rest), both stripped; kind is '' without a colon."""
    kind, colon, rest = source.partition(":")
    return (kind.strip(), rest.strip()) if colon else ("", "")


def load_source(source: str, root: Path, timeout: float) -> tuple[ToolSchema, ...]:
    kind, rest = parse_source(source)
    loader = _LOADERS.get(kind)
    if loader is None:
        raise ToolSchemaError(f"tools entry '{source}': unknown source kind; {SOURCE_HELP}")
    if not rest:
        # Only blanks follow the colon, so this is the entry up to and with its colon.
        raise ToolSchemaError(f"tools entry '{source}': nothing after '{source.rstrip()}'; "
                              f"{SOURCE_HELP}")
    return tools_from_wire(loader(rest, root, timeout, source), source)


def tools_from_wire(raw: RawTools, source: str) -> tuple[ToolSchema, ...]:
    """ToolSchemas from `tools/list` entries, checking the fields pygen reads."""
    return tuple(_tool(entry, index, source) for index, entry in enumerate(raw))


def _tool(entry: Any, index: int, source: str) -> ToolSchema:
    name = entry.get("name") if isinstance(entry, dict) else None
    if not isinstance(name, str) or not name:
        raise ToolSchemaError(f"{source}: tool #{index + 1} has no name")
    input_schema = entry.get("inputSchema", {})
    output_schema = entry.get("outputSchema")
    description = entry.get("description") or ""
    if not isinstance(input_schema, dict):
        raise ToolSchemaError(f"{source}: tool '{name}': inputSchema is not an object")
    if output_schema is not None and not isinstance(output_schema, dict):
        raise ToolSchemaError(f"{source}: tool '{name}': outputSchema is not an object")
    if not isinstance(description, str):
        raise ToolSchemaError(f"{source}: tool '{name}': description is not a string")
    return ToolSchema(name=name, description=description, input_schema=input_schema,
                      output_schema=output_schema, source=source)


# --- json:<path> ---------------------------------------------------------------------------

def _load_json(rest: str, root: Path, timeout: float, source: str) -> RawTools:
    path = root / rest
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ToolSchemaError(f"{path}: cannot read ({source}): {exc.strerror}") from None
    try:
        data = jsonread.loads(data, str(path))
    except jsonread.JsonInputError as exc:
        raise ToolSchemaError(str(exc)) from None
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise ToolSchemaError(f"{path}: expected a tools/list result, "
                              '{"tools": [...]}, or a list of tools')
    return tools


# --- python:<module>:<attr> ----------------------------------------------------------------

def _load_python(rest: str, root: Path, timeout: float, source: str) -> RawTools:
    module, _, attr = rest.partition(":")
    module, attr = module.strip(), attr.strip()
    if not DOTTED.match(module) or not DOTTED.match(attr):
        raise ToolSchemaError(f"tools entry '{source}': write python:<module>:<attr>, "
                              "e.g. python:app.server:mcp")
    command = [sys.executable, "-P", str(CAPTURE_SCRIPT), str(root), module, attr]
    try:
        code, out, err = _run(command, root, timeout, _capture_env())
    except subprocess.TimeoutExpired as exc:
        raise ToolSchemaError(_python_timeout(source, module, attr, exc, timeout)) from None
    messages = _messages(out)
    final = messages[-1] if messages else {}
    if "error" in final:
        raise ToolSchemaError(f"{source}: {final['error']}")
    if code != 0 or "tools" not in final:
        raise ToolSchemaError(f"{source}: capturing the tools failed (exit code {code})"
                              f"{_tail(err)}")
    tools: RawTools = final["tools"]
    return tools


def _python_timeout(source: str, module: str, attr: str, exc: subprocess.TimeoutExpired,
                    timeout: float) -> str:
    imported = any(m.get("stage") == "imported" for m in _messages(_text(exc.stdout)))
    if imported:
        return (f"{source}: listing the tools of {module}:{attr} did not finish within "
                f"{timeout:g}s (tool_timeout)")
    return (f"{source}: importing {module} did not finish within {timeout:g}s (tool_timeout); "
            "does it block at import time, e.g. connecting to a service?")


def _capture_env() -> dict[str, str]:
    # Reading schemas must leave the project as it was: no __pycache__ left behind.
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def _run(command: list[str], cwd: Path, timeout: float,
         env: dict[str, str]) -> tuple[int, str, str]:
    """Run with a timeout; on timeout kill the whole process group, children included.

    Not pygen.proc.run: the timeout message needs the output read so far (did the import
    finish?), and a module may have started processes of its own.
    """
    with subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, encoding="utf-8",
                          errors="replace", start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            _kill_group(process)
            try:
                out, err = process.communicate(timeout=2)
            except subprocess.TimeoutExpired:
                # A grandchild that left the group still holds the pipes; what was read is enough.
                out, err = _text(exc.stdout), _text(exc.stderr)
            raise subprocess.TimeoutExpired(command, timeout, out, err) from exc
    return process.returncode, out, err


def _kill_group(process: subprocess.Popen[str]) -> None:
    if sys.platform == "win32":
        process.kill()
    else:
        os.killpg(process.pid, signal.SIGKILL)


def _messages(out: str) -> list[dict[str, Any]]:
    messages = []
    for line in out.splitlines():
        try:
            message = jsonread.loads(line, "a stdio message")
        except jsonread.JsonInputError:
            continue
        if isinstance(message, dict):
            messages.append(message)
    return messages


def _text(data: str | bytes | None) -> str:
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data or ""


def _tail(err: str) -> str:
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    return f": {lines[-1]}" if lines else ""


# --- stdio:<command line> ------------------------------------------------------------------

def _load_stdio(rest: str, root: Path, timeout: float, source: str) -> RawTools:
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
            detail = _tail(_read_all(errlog))
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


_LOADERS: dict[str, Loader] = {
    "python": _load_python,
    "stdio": _load_stdio,
    "json": _load_json,
}
