"""`pygen serve --http` under a flood of sessions that never close: no client is locked out.

Each flood request is a bare `initialize` POST that never sends DELETE, the way a broken or
hostile local page would; the server answers statelessly, so nothing accumulates.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from serve_helpers import http_serving

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "flood", "version": "1"}}}
MB = 1024 * 1024


def _rss(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    kilobytes = next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))
    return int(kilobytes) * 1024


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, int]]:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "loop.md").write_text("# loop\n")
    with http_serving(skills, tmp_path / "serve.log") as running:
        yield running


def _request(port: int) -> bytes:
    body = json.dumps(INITIALIZE).encode()
    return (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


async def _answer(reader: asyncio.StreamReader) -> int:
    """Read one HTTP/1.1 response (chunked or sized); its status code."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    sized = re.search(rb"(?i)content-length: *(\d+)", head)
    if sized is not None:
        await reader.readexactly(int(sized.group(1)))
        return status
    while True:
        size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
        await reader.readexactly(size + 2)
        if size == 0:
            return status


async def _flood(port: int, count: int, parallel: int = 16) -> dict[int, int]:
    """`count` initialize requests, never followed by a DELETE, on `parallel` keep-alive
    connections (a bare HTTP/1.1 client: the flood should cost the server, not the test)."""
    statuses: dict[int, int] = {}
    left = iter(range(count))
    request = _request(port)

    async def worker() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for _ in left:
                writer.write(request)
                status = await asyncio.wait_for(_answer(reader), 30)
                statuses[status] = statuses.get(status, 0) + 1
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(parallel)))
    return statuses


async def _tools_of_a_new_client(port: int) -> list[str]:
    async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        return sorted(tool.name for tool in (await session.list_tools()).tools)


# Sessions in the flood, and the memory they may add: 5 KB each. Kept, a session costs about
# 36 KB (measured with the SDK's stateful manager: 91 MB over 2,500), so 2,000 of them show a
# regression eight times over the bound; stateless, the flood adds about 1 MB.
SESSIONS = 2_000
GROWTH = 10 * MB


@pytest.mark.slow
def test_two_thousand_sessions_never_closed_lock_no_client_out(
        server: tuple[int, int]) -> None:
    port, pid = server
    sessions = SESSIONS
    assert "get_node_skill" in anyio.run(_tools_of_a_new_client, port)
    start = _rss(pid)
    began = time.monotonic()
    statuses = asyncio.run(_flood(port, sessions))
    assert statuses == {200: sessions}
    assert time.monotonic() - began < 120
    assert "get_node_skill" in anyio.run(_tools_of_a_new_client, port)
    grown = _rss(pid) - start
    assert grown < GROWTH, f"grew {grown / MB:.0f} MB over {sessions} sessions"
    assert os.path.exists(f"/proc/{pid}")
