"""`pygen serve --http` through the SDK's real client over real HTTP: every answer, byte for
byte, is what the SDK's app alone answers for the same skills (that app served by uvicorn
beside it), and a request the SDK refuses is refused alike."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from serve_helpers import free_port, serve_http, text_of

from pygen.server.app import build_server
from pygen.server.http import sdk_app
from pygen.server.store import load_store

HANDSHAKE = "2025-11-25"
Seen = list[tuple[str, int, str, bytes]]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write(root / "workflow-editor.md", "# Editor\n")
    for node_type in ("crop", "loop", "trim"):
        write(root / "nodes" / f"{node_type}.md", f"# {node_type}\n\nDoes {node_type} · once.\n")
    return root


@asynccontextmanager
async def sdk_alone(skills: Path) -> AsyncIterator[str]:
    """The SDK's app alone (no pygen front) for the same skills, served by uvicorn: its URL."""
    port = free_port()
    hosts = [f"127.0.0.1:{port}"]
    app = sdk_app(build_server(load_store(skills)), "127.0.0.1", allowed_hosts=hosts,
                  allowed_origins=[f"http://{hosts[0]}"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve)
        while not server.started:
            await anyio.sleep(0.02)
        yield f"http://127.0.0.1:{port}/mcp"
        server.should_exit = True


def recorder(seen: Seen) -> httpx2.AsyncClient:
    """A client noting every POST's revision header, status, content type and body."""
    async def note(response: httpx2.Response) -> None:
        if response.request.method == "POST":
            await response.aread()
            seen.append((response.request.headers.get("mcp-protocol-version", ""),
                         response.status_code, response.headers.get("content-type", ""),
                         response.content))

    return httpx2.AsyncClient(event_hooks={"response": [note]},
                              timeout=httpx2.Timeout(30, read=60))


async def agent(session: ClientSession) -> list[str]:
    """What an agent asks: each read-only request once, so none is answered from kept bytes."""
    texts = [(await session.list_tools()).tools[0].name]
    for node_type in ("loop", "crop", "nope"):
        texts.append(text_of(await session.call_tool("get_node_skill",
                                                     {"node_type": node_type})))
    for arguments in ({"node_types": ["trim", "loop"]}, {"node_type": "trim", "detail": "full"},
                      {"node_type": 3}, {}):
        texts.append(text_of(await session.call_tool("get_node_skill", arguments)))
    texts.append(text_of(await session.call_tool("start_workflow_editor", {})))
    texts.append(str((await session.read_resource("skill://nodes/crop")).contents[0]))
    texts.append(str(len((await session.list_resources()).resources)))
    return texts


async def through_client(url: str, run: Callable[[ClientSession], Awaitable[Any]]
                         ) -> tuple[Any, Seen]:
    seen: Seen = []
    async with recorder(seen) as http, \
            streamable_http_client(url, http_client=http) as (read, write_stream), \
            ClientSession(read, write_stream) as session:
        await session.initialize()
        return await run(session), seen


def test_the_real_client_gets_the_bytes_of_the_sdk_alone(skills: Path, tmp_path: Path) -> None:
    async def main() -> None:
        with serve_http(["--skills-dir", str(skills)], tmp_path / "http.log") as (url, _pid):
            ours, ours_seen = await through_client(url, agent)
        async with sdk_alone(skills) as reference:
            theirs, theirs_seen = await through_client(reference, agent)
        assert ours == theirs and ours_seen == theirs_seen
        # The calls went out at the handshake revision, each answered with one JSON body.
        calls = [s for s in ours_seen if b'"result":{"content"' in s[3]]
        assert len(calls) == 8 and {s[0] for s in calls} == {HANDSHAKE}
        assert {s[2] for s in calls} == {"application/json"}
        assert "Does loop · once." in ours[1] and "Unknown node_type 'nope'" in ours[3]

    anyio.run(main)


def raw_requests(port_url: str) -> list[tuple[str, dict[str, str], bytes]]:
    call = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "get_node_skill", "arguments": {"node_type": "loop"}}}).encode()
    host = port_url.split("/")[2]
    plain = {"Host": host, "Accept": "application/json, text/event-stream",
             "Content-Type": "application/json", "MCP-Protocol-Version": HANDSHAKE}
    return [("POST", {**plain, "Mcp-Session-Id": "no-such-session"}, call),  # unknown session
            ("POST", plain, call),  # never initialized
            ("POST", {**plain, "MCP-Protocol-Version": "2024-01-01"}, call),  # no such revision
            ("POST", {**plain, "Host": "evil.example"}, call),
            ("POST", {**plain, "Accept": "text/event-stream"}, call),
            ("GET", {**plain, "Mcp-Session-Id": "no-such-session"}, b""),
            ("DELETE", {**plain, "Mcp-Session-Id": "no-such-session"}, b"")]


async def ask_raw(url: str) -> list[tuple[int, str, bytes]]:
    answers = []
    async with httpx2.AsyncClient(timeout=5) as http:
        for method, headers, body in raw_requests(url):
            try:
                response = await http.request(method, url, headers=headers, content=body,
                                              timeout=1 if method == "GET" else 5)
                answers.append((response.status_code, response.headers.get("content-type", ""),
                                response.content))
            except httpx2.ReadTimeout:  # a GET stream the SDK holds open
                answers.append((0, "", b"open"))
    return answers


@pytest.mark.slow
def test_sessions_and_refusals_are_answered_as_the_sdk_alone_answers(
        skills: Path, tmp_path: Path) -> None:
    async def main() -> None:
        with serve_http(["--skills-dir", str(skills)], tmp_path / "http.log") as (url, _pid):
            ours = await ask_raw(url)
        async with sdk_alone(skills) as reference:
            theirs = await ask_raw(reference)
        assert ours == theirs
        assert [status for status, _, _ in ours[:2]] == [200, 200]
        assert all(status != 200 for status, _, _ in ours[2:5])

    anyio.run(main)
