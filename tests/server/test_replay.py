"""The HTTP replay of kept answers: a repeated read-only request gets exactly the bytes the SDK
would write for it, never an answer of skills that were reloaded since, and never an answer
to a request that differs in anything but its id (a header, the body)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
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

from pygen.server import replay
from pygen.server.app import build_server, swap_content
from pygen.server.replay import ReplayCache
from pygen.server.store import load_store


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    return small_skills(tmp_path / "skills")




@asynccontextmanager
async def running(server: MCPServer) -> AsyncIterator[tuple[ReplayCache, Counted, Any]]:
    """(replaying app, the SDK app behind it, a second SDK app answering everything fresh)."""
    app, fresh = app_of(server), app_of(server)
    counted = Counted(app)
    async with app.router.lifespan_context(app), fresh.router.lifespan_context(fresh):
        yield ReplayCache(counted, server), counted, fresh


def run(body: Callable[[], Any]) -> Any:
    return anyio.run(body)


@pytest.mark.parametrize("protocol", [HANDSHAKE, MODERN])
def test_a_repeated_call_is_the_sdk_answer_byte_for_byte(skills: Path, protocol: str) -> None:
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (app, sdk, fresh):
            for call_id in (1, "b-2", 33, "b-2"):
                for node_type in ("loop", "crop", "nope"):
                    scope, data = request(tool_call(call_id, node_type, protocol), protocol)
                    assert await ask(app, scope, data) == await ask(fresh, scope, data)
            assert sdk.calls == 3  # one per node type; every other answer was replayed

    run(main)


def test_a_reload_is_never_answered_from_the_old_skills(skills: Path) -> None:
    async def main() -> None:
        live = build_server(load_store(skills))
        async with running(live) as (app, sdk, _fresh):
            scope, data = request(tool_call(1, "loop"))
            assert b"Repeats its input" in (await ask(app, scope, data))[2]
            write(skills / "nodes" / "loop.md", "# Loop\n\nNow loops forever.\n")
            swap_content(live, build_server(load_store(skills)))
            _, _, body = await ask(app, scope, data)
            assert b"Now loops forever" in body and b"Repeats" not in body
            assert sdk.calls == 2 and len(app._kept) == 1

    run(main)


def test_requests_that_differ_but_for_the_id_are_answered_each_by_the_sdk(
        skills: Path) -> None:
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (app, sdk, _fresh):
            scope, data = request(tool_call(1, "loop"))
            assert (await ask(app, scope, data))[0] == 200
            # Another Host: refused by the SDK's own check, as if nothing had been kept.
            bad = {**scope, "headers": [(k, b"evil.example" if k == b"host" else v)
                                        for k, v in scope["headers"]]}
            assert (await ask(app, bad, data))[0] != 200
            other, _ = request(tool_call(1, "loop"), extra=((b"origin", b"http://evil"),))
            assert (await ask(app, other, data))[0] != 200
            assert sdk.calls == 3

    run(main)


@pytest.mark.parametrize("call_id", [1.5, "ü", "a b", True, None])
def test_an_unusual_id_is_always_answered_by_the_sdk(skills: Path, call_id: Any) -> None:
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (app, sdk, fresh):
            scope, data = request(tool_call(call_id, "loop"))
            for _ in range(2):
                assert await ask(app, scope, data) == await ask(fresh, scope, data)
            assert sdk.calls == 2 and not app._kept

    run(main)


def test_a_tool_that_may_change_things_is_never_replayed(skills: Path) -> None:
    server = build_server(load_store(skills))
    count = []

    def bump(node_type: str) -> str:
        count.append(node_type)
        return str(len(count))

    server.add_tool(bump, name="bump")

    async def main() -> list[bytes]:
        async with running(server) as (app, sdk, _fresh):
            scope, data = request(tool_call(1, "loop", name="bump"))
            bodies = [(await ask(app, scope, data))[2] for _ in range(2)]
            assert sdk.calls == 2
            return bodies

    first, second = run(main)
    assert first != second and b'"text":"2"' in second


def test_kept_answers_stay_within_their_budget(skills: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "MAX_KEPT", 2)

    async def main() -> None:
        async with running(build_server(load_store(skills))) as (app, sdk, fresh):
            for detail in ("minimal", "standard", "full"):
                for node_type in ("loop", "crop"):
                    body = tool_call(1, node_type)
                    body["params"]["arguments"]["detail"] = detail
                    scope, data = request(body)
                    assert await ask(app, scope, data) == await ask(fresh, scope, data)
            assert sdk.calls == 6 and len(app._kept) == 2
            assert app._kept_bytes == sum(len(key) + len(k.rest) for key, k in app._kept.items())

    run(main)


def test_a_large_or_unsized_request_goes_to_the_sdk_whole(skills: Path) -> None:
    async def main() -> None:
        async with running(build_server(load_store(skills))) as (app, sdk, fresh):
            body = tool_call(1, "loop")
            body["params"]["_meta"] = {"pad": "x" * (replay.MAX_REQUEST_BYTES + 10)}
            scope, data = request(body)
            for _ in range(2):
                answer = await ask(app, scope, data)
                assert answer == await ask(fresh, scope, data) and answer[0] == 200
            unsized, small = request(tool_call(2, "loop"))
            unsized["headers"] = [(k, v) for k, v in unsized["headers"]
                                  if k != b"content-length"]
            assert (await ask(app, unsized, small))[0] == 200
            assert sdk.calls == 3 and not app._kept

    run(main)


def test_a_listing_is_replayed_until_a_reload_changes_it(skills: Path) -> None:
    async def main() -> None:
        live = build_server(load_store(skills))
        async with running(live) as (app, sdk, fresh):
            scope, data = request({"jsonrpc": "2.0", "id": 1, "method": "resources/list"})
            first = await ask(app, scope, data)
            assert first == await ask(app, scope, data) == await ask(fresh, scope, data)
            write(skills / "nodes" / "trim.md", "# Trim\n")
            swap_content(live, build_server(load_store(skills)))
            after = await ask(app, scope, data)
            assert b"skill://nodes/trim" in after[2] and b"skill://nodes/trim" not in first[2]
            assert sdk.calls == 2

    run(main)
