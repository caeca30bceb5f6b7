"""Helpers for tests that run `pygen serve` as a real process: stdio sessions through the SDK
client, and an HTTP server on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, TextContent

PYGEN = str(Path(sys.executable).parent / "pygen")


@asynccontextmanager
async def stdio_session(args: list[str], errlog: Path) -> AsyncIterator[ClientSession]:
    """`pygen serve ARGS` over stdio, initialized; its stderr goes to errlog."""
    # The whole environment: the SDK passes only a few variables, and PYTHONPATH decides
    # which checkout's pygen runs.
    params = StdioServerParameters(command=PYGEN, args=["serve", *args], env=dict(os.environ))
    with errlog.open("w", encoding="utf-8") as err:
        async with stdio_client(params, errlog=err) as (read, write_stream), \
                ClientSession(read, write_stream) as session:
            await session.initialize()
            yield session


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve_http(args: list[str], log: Path, env: Mapping[str, str] | None = None,
               cwd: Path | None = None) -> Iterator[tuple[str, int]]:
    """`pygen serve --http --port N *args` until the block ends: (its MCP URL, its pid)."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen([PYGEN, "serve", "--http", "--port", str(port), *args],
                                   stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, env=env, cwd=cwd)
        try:
            wait_listening(port, process)
            yield f"http://127.0.0.1:{port}/mcp", process.pid
        finally:
            process.terminate()
            process.wait(timeout=20)


@contextmanager
def http_serving(skills: Path, log: Path) -> Iterator[tuple[int, int]]:
    """`pygen serve --http` of a skills dir on a free port until the block ends: (port, pid)."""
    with serve_http(["--skills-dir", str(skills)], log) as (url, pid):
        yield int(url.split(":")[2].split("/")[0]), pid


def wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert process.poll() is None, "pygen serve --http exited early"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listening on port {port}")
