"""ASGI requests to the MCP HTTP app without a socket, for the server's HTTP layer tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

from pygen.server.http import sdk_app
from pygen.server.replay import ASGIApp, Message, Scope

HOST = "127.0.0.1:9"
HANDSHAKE, MODERN = "2025-11-25", "2026-07-28"
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def small_skills(root: Path) -> Path:
    """A skills folder of two nodes (one description with a non-ASCII character)."""
    write(root / "workflow-editor.md", "# Editor\n")
    write(root / "nodes" / "loop.md", "# Loop\n\nRepeats its input · twice.\n")
    write(root / "nodes" / "crop.md", "# Crop\n\nCuts the edges.\n")
    return root


def app_of(server: MCPServer) -> ASGIApp:
    """The SDK's app as `serve --http` builds it, for HOST."""
    app: ASGIApp = sdk_app(server, "127.0.0.1", allowed_hosts=[HOST],
                           allowed_origins=[f"http://{HOST}"])
    return app


class Counted:
    """The SDK's app, counting the requests that reach it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app, self.calls = app, 0

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        self.calls += 1
        await self.app(scope, receive, send)


def request(body: dict[str, Any], protocol: str = HANDSHAKE,
            extra: tuple[tuple[bytes, bytes], ...] = ()) -> tuple[Scope, bytes]:
    data = json.dumps(body).encode()
    headers = [(b"host", HOST.encode()), (b"mcp-protocol-version", protocol.encode()),
               (b"accept", b"application/json, text/event-stream"),
               (b"content-type", b"application/json"),
               (b"content-length", str(len(data)).encode()), *extra]
    if protocol == MODERN:
        headers += [(b"mcp-method", body["method"].encode()),
                    (b"mcp-name", body["params"]["name"].encode())]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/mcp", "raw_path": b"/mcp",
             "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 5), "server": ("127.0.0.1", 9)}
    return scope, data


def tool_call(call_id: Any, node_type: str, protocol: str = HANDSHAKE,
              name: str = "get_node_skill") -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": {"node_type": node_type}}
    if protocol == MODERN:
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": protocol,
                           "io.modelcontextprotocol/clientCapabilities": {}}
    return {"jsonrpc": "2.0", "id": call_id, "method": "tools/call", "params": params}


async def ask(app: ASGIApp, scope: Scope, data: bytes) -> Answer:
    pending = [{"type": "http.request", "body": data, "more_body": False}]
    status, headers, parts = 0, [], []

    async def receive() -> Message:
        if pending:
            return pending.pop()
        await anyio.sleep_forever()
        raise AssertionError

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], list(message["headers"])
        else:
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, sorted(headers), b"".join(parts)
