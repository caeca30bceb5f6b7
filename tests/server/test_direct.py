"""Read-only handshake-era requests answered by the SDK's driver in their own task: the bytes
are the SDK path's bytes, a reload is seen at once, and every request the SDK would refuse or
that is not read-only reaches the SDK's app and gets its own answer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from asgi_helpers import (
    HANDSHAKE,
    MODERN,
    Counted,
    app_of,
    ask,
    request,
    small_skills,
    tool_call,
    write,
)
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

from pygen.server import limits
from pygen.server.app import build_server, swap_content
from pygen.server.direct import DirectCalls
from pygen.server.store import load_store


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    return small_skills(tmp_path / "skills")


@asynccontextmanager
async def running(server: MCPServer) -> AsyncIterator[tuple[DirectCalls, Counted, Any]]:
    """(direct app, the SDK app behind it counting what reaches it, the SDK app itself)."""
    app = app_of(server)
    counted = Counted(app)
    direct = DirectCalls(counted, server)
    async with app.router.lifespan_context(app):
        yield direct, counted, app


async def same(direct: DirectCalls, sdk: Any, body: Any, protocol: str | None = HANDSHAKE,
               extra: tuple[tuple[bytes, bytes], ...] = ()) -> tuple[int, bytes]:
    """Ask both with the same request (no revision header when `protocol` is None); assert
    the same status, headers and bytes."""
    scope, data = request(body, protocol or HANDSHAKE, extra)
    if protocol is None:
        scope["headers"] = [(k, v) for k, v in scope["headers"]
                            if k != b"mcp-protocol-version"]
    answer = await ask(direct, scope, data)
    assert answer == await ask(sdk, scope, data)
    return answer[0], answer[2]


def run(main: Any) -> None:
    anyio.run(main)


def call(call_id: Any, node_type: Any = "loop", **arguments: Any) -> dict[str, Any]:
    body = tool_call(call_id, "loop")
    body["params"]["arguments"] = {"node_type": node_type, **arguments}
    return body


def test_read_only_requests_are_answered_directly_with_the_sdk_bytes(skills: Path) -> None:
    bodies = [call(1), call("b-2", "crop"), call(3, "nope"), call(4, "loop", detail="full"),
              call(5, node_types=["loop", "crop"]),
              call(6, ["not", "a", "name"]),  # the SDK's argument validation error
              call(7, node_types=["x"] * (limits.MAX_NODE_TYPES + 1)),  # a size limit
              {"jsonrpc": "2.0", "id": 8, "method": "tools/call",
               "params": {"name": "start_workflow_editor"}},
              {"jsonrpc": "2.0", "id": 10, "method": "tools/list"},
              {"jsonrpc": "2.0", "id": 11, "method": "resources/list", "params": {}},
              {"jsonrpc": "2.0", "id": 12, "method": "resources/read",
               "params": {"uri": "skill://nodes/loop"}},
              {"jsonrpc": "2.0", "id": 13, "method": "resources/read",
               "params": {"uri": "skill://nodes/nope"}},
              {"jsonrpc": "2.0", "id": "ü", "method": "resources/templates/list"}]

    async def main() -> None:
        async with running(build_server(load_store(skills))) as (direct, counted, sdk):
            for body in bodies:
                status, answer = await same(direct, sdk, body)
                assert status == 200 and json.loads(answer)["id"] == body["id"]
            assert counted.calls == 0

    run(main)


@pytest.mark.parametrize("protocol", [None, "2025-03-26", "2025-06-18", HANDSHAKE])
def test_every_handshake_revision_and_none_is_answered_directly(skills: Path,
                                                                protocol: str | None) -> None:
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (direct, counted, sdk):
            status, answer = await same(direct, sdk, call(1), protocol)
            assert status == 200 and b"Repeats its input" in answer
            assert counted.calls == 0

    run(main)


def test_a_session_id_is_ignored_as_the_stateless_sdk_ignores_it(skills: Path) -> None:
    """No session is kept: an unknown session id, or none after no initialize, is answered
    as the SDK answers it (the SDK's stateless path checks no session)."""
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (direct, counted, sdk):
            for extra in (((b"mcp-session-id", b"no-such-session"),), ()):
                status, _ = await same(direct, sdk, call(1), extra=extra)
                assert status == 200
            assert counted.calls == 0

    run(main)


def test_a_reload_is_answered_at_once(skills: Path) -> None:
    async def main() -> None:
        live = build_server(load_store(skills))
        async with running(live) as (direct, counted, sdk):
            _, before = await same(direct, sdk, call(1))
            write(skills / "nodes" / "loop.md", "# Loop\n\nNow loops forever.\n")
            swap_content(live, build_server(load_store(skills)))
            _, after = await same(direct, sdk, call(1))
            assert b"Repeats its input" in before and b"Now loops forever" in after
            assert b"Repeats" not in after and counted.calls == 0

    run(main)


NOT_OURS: list[tuple[str, Any, str | None, tuple[tuple[bytes, bytes], ...], tuple[bytes, ...]]] = [
    ("a foreign host", call(1), HANDSHAKE, ((b"host", b"evil.example"),), (b"host",)),
    ("a foreign origin", call(1), HANDSHAKE, ((b"origin", b"http://evil"),), ()),
    ("an SSE-only client", call(1), HANDSHAKE, ((b"accept", b"text/event-stream"),),
     (b"accept",)),
    ("no accept", call(1), HANDSHAKE, (), (b"accept",)),
    ("another content type", call(1), HANDSHAKE, ((b"content-type", b"text/plain"),),
     (b"content-type",)),
    ("an unknown revision", call(1), "1999-01-01", (), ()),
    ("two revision headers", call(1), HANDSHAKE, ((b"mcp-protocol-version", HANDSHAKE.encode()),),
     ()),
    ("a progress token", {**call(1), "params": {**call(1)["params"], "_meta": {
        "progressToken": "p"}}}, HANDSHAKE, (), ()),
    ("a notification", {"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 1}}, HANDSHAKE, (), ()),
    ("a batch", [call(1), call(2)], HANDSHAKE, (), ()),
    ("initialize", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": HANDSHAKE, "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}, HANDSHAKE, (), ()),
    ("an unknown tool", {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                         "params": {"name": "nope", "arguments": {}}}, HANDSHAKE, (), ()),
    ("a ping", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, HANDSHAKE, (), ()),
    ("an id of the wrong type", call(1.5), HANDSHAKE, (), ()),
    ("broken JSON", None, HANDSHAKE, (), ()),
]


@pytest.mark.parametrize("case", NOT_OURS, ids=[c[0] for c in NOT_OURS])
def test_what_the_sdk_refuses_or_may_not_be_read_only_reaches_it(skills: Path,
                                                                   case: Any) -> None:
    _, body, protocol, extra, drop = case

    async def main() -> None:
        async with running(build_server(load_store(skills))) as (direct, counted, sdk):
            scope, data = request(call(1) if body is None else body, protocol or HANDSHAKE,
                                  extra)
            scope["headers"] = [(k, v) for k, v in scope["headers"] if k not in drop] + [
                (k, v) for k, v in extra if k in drop]
            if body is None:
                data = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {'
                scope["headers"] = [(k, str(len(data)).encode() if k == b"content-length"
                                     else v) for k, v in scope["headers"]]
            assert await ask(direct, scope, data) == await ask(sdk, scope, data)
            assert counted.calls == 1

    run(main)


def test_a_tool_that_may_change_things_goes_to_the_sdk(skills: Path) -> None:
    server = build_server(load_store(skills))
    server.add_tool(lambda node_type: node_type, name="echo")

    async def main() -> None:
        async with running(server) as (direct, counted, sdk):
            body = tool_call(1, "loop", name="echo")
            assert (await same(direct, sdk, body))[0] == 200
            assert counted.calls == 1

    run(main)


def test_the_modern_revision_goes_to_the_sdk(skills: Path) -> None:
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (direct, counted, sdk):
            assert (await same(direct, sdk, tool_call(1, "loop", MODERN), MODERN))[0] == 200
            assert counted.calls == 1

    run(main)


def test_a_server_kept_with_sessions_or_streams_is_left_to_the_sdk(skills: Path) -> None:
    """Sessions or SSE answers are the SDK's alone: a request for one reaches it."""
    async def main(stateless: bool, json_response: bool) -> None:
        server = build_server(load_store(skills))
        app = server.streamable_http_app(stateless_http=stateless, json_response=json_response)
        counted = Counted(app)
        direct = DirectCalls(counted, server)
        async with app.router.lifespan_context(app):
            scope, data = request(call(1))
            scope["headers"] = [(k, b"127.0.0.1:8000" if k == b"host" else v)
                                for k, v in scope["headers"]]
            await ask(direct, scope, data)
        assert counted.calls == 1

    for stateless, json_response in ((False, True), (True, False)):
        anyio.run(main, stateless, json_response)


def test_outside_its_lifespan_the_sdk_answers(skills: Path) -> None:
    server = build_server(load_store(skills))
    counted = Counted(app_of(server))
    scope, data = request(call(1))
    with pytest.raises(RuntimeError, match="Task group is not initialized"):
        anyio.run(ask, DirectCalls(counted, server), scope, data)
    assert counted.calls == 1


def test_a_failure_past_the_tool_is_answered_as_the_sdks_dispatcher_answers_it(
        skills: Path) -> None:
    """The error ladder: an MCP error keeps its code; anything else is code 0 and its text."""
    server = build_server(load_store(skills))

    async def failing(ctx: Any, call_next: Any) -> Any:
        arguments = (ctx.params or {}).get("arguments") or {}
        if arguments.get("node_type") == "mcp-error":
            raise MCPError(code=-32001, message="refused here", data={"why": "test"})
        if arguments.get("node_type") == "crash":
            raise RuntimeError("broke · here")
        return await call_next(ctx)

    server.middleware.append(failing)

    async def main() -> None:
        async with running(server) as (direct, counted, sdk):
            for node_type, code in (("mcp-error", -32001), ("crash", 0)):
                status, answer = await same(direct, sdk, call(1, node_type))
                assert status == 200 and json.loads(answer)["error"]["code"] == code
            assert counted.calls == 0

    run(main)
