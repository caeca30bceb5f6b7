"""Answers the MCP SDK wrote once, written again for the same request without redoing them.

Over HTTP most of a `get_node_skill` call's cost is not the answer (a lookup once warm) but
the SDK's per-request work around it: a transport, a dispatcher and a task per request,
every message validated and serialized. Agents ask the same questions again and again
(the same node types, the same listing), and every tool this server lists declares that it
only reads the loaded skills (read-only, closed world), so a request identical to an
earlier one in everything but its JSON-RPC id gets the same answer, bytes and all.

`ReplayCache` sits in front of the SDK's HTTP app: the first such request goes through the
SDK as any other; its successful answer is kept, and a later identical request is answered
with those bytes and its own id. What counts as identical is conservative: method, path,
every header but Content-Length, and the whole body but the id. Anything else (a large
body, an unusual id, an error, an answer that is not one JSON document, a tool that does
not declare itself read-only) goes through the SDK every time. A reload of the skills
swaps the server's tool and resource managers; the kept answers go with the old ones.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import MCPServer

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Request bodies considered: a tool call naming a few node types is well under this.
MAX_REQUEST_BYTES = 16_384
# Kept answers: one answer's bytes, all answers' and their keys' bytes, how many (past
# these, the oldest kept answer makes room; an answer larger than one share is never kept).
MAX_ANSWER_BYTES = 1_048_576
MAX_KEPT_BYTES = 64 * 1_048_576
MAX_KEPT = 4096
# Methods whose answer is a function of the request and the loaded tools or resources alone
# (the two a reload replaces, see app.swap_content).
PURE_METHODS = frozenset({"tools/list", "resources/list", "resources/templates/list",
                          "resources/read"})
# An id every JSON writer spells the same way, so the kept bytes can carry another one.
_PLAIN_ID = re.compile(r"[A-Za-z0-9_.:/+=-]{1,128}")
_HEAD = b'{"jsonrpc":"2.0","id":'


@dataclass(frozen=True)
class Kept:
    """One kept answer: status, headers without Content-Length, body after the id."""

    status: int
    headers: tuple[tuple[bytes, bytes], ...]
    rest: bytes


def plain_id(value: Any) -> bytes | None:
    """The id as JSON, when it is one every writer spells alike; else None."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2 ** 53:
        return str(value).encode()
    if isinstance(value, str) and _PLAIN_ID.fullmatch(value):
        return b'"' + value.encode() + b'"'
    return None


class ReplayCache:
    """ASGI middleware: identical read-only requests answered from the SDK's first answer."""

    def __init__(self, app: ASGIApp, server: MCPServer) -> None:
        self.app, self.server = app, server
        self._kept: dict[bytes, Kept] = {}
        self._kept_bytes = 0
        self._content = self._loaded()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not small_body(scope):
            await self.app(scope, receive, send)
            return
        body, complete = await read_body(receive)
        replayed = replayed_receive(body, complete, receive)
        request = self._request(scope, body) if complete else None
        if request is None:
            await self.app(scope, replayed, send)
            return
        key, id_json = request
        kept = self._kept.get(key)
        if kept is not None:
            await _send_kept(kept, id_json, send)
            return
        content = self._content
        answer = _Capture(send)
        await self.app(scope, replayed, answer)
        if _same(content, self._content) and _same(content, self._loaded()):
            self._keep(key, answer.kept(id_json))

    def _loaded(self) -> tuple[object, object]:
        """What answers are computed from; a reload replaces both (see app.swap_content)."""
        return (self.server._tool_manager, self.server._resource_manager)

    def _request(self, scope: Scope, body: bytes) -> tuple[bytes, bytes] | None:
        """(key, id as JSON) of a request whose answer may be kept; None for any other."""
        loaded = self._loaded()
        if not _same(loaded, self._content):  # reloaded: the kept answers are of other content
            self._kept.clear()
            self._kept_bytes = 0
            self._content = loaded
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return None
        if not isinstance(message, dict) or not read_only(self.server, message):
            return None
        id_json = plain_id(message.pop("id", None))
        if id_json is None:
            return None
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]
                   if k != b"content-length"]
        try:
            key = json.dumps([scope["path"], scope.get("query_string", b"").decode("latin-1"),
                              headers, message], sort_keys=True, ensure_ascii=True)
        except (ValueError, RecursionError):
            return None
        return key.encode(), id_json

    def _keep(self, key: bytes, kept: Kept | None) -> None:
        if kept is None or len(kept.rest) > MAX_ANSWER_BYTES:
            return
        size = len(key) + len(kept.rest)
        while self._kept and (len(self._kept) >= MAX_KEPT or
                              self._kept_bytes + size > MAX_KEPT_BYTES):
            oldest = next(iter(self._kept))
            self._kept_bytes -= len(oldest) + len(self._kept.pop(oldest).rest)
        self._kept[key] = kept
        self._kept_bytes += size


def read_only(server: MCPServer, message: dict[str, Any]) -> bool:
    """Whether a request's answer is a function of the request and the loaded skills alone:
    a listing, or a call of a tool that declares itself read-only and closed-world."""
    method = message.get("method")
    if method in PURE_METHODS:
        return True
    params = message.get("params")
    if method != "tools/call" or not isinstance(params, dict):
        return False
    name = params.get("name")
    tool = server._tool_manager.get_tool(name) if isinstance(name, str) else None
    hints = tool.annotations if tool is not None else None
    return hints is not None and hints.read_only_hint is True and \
        hints.open_world_hint is False


def _same(one: tuple[object, ...], other: tuple[object, ...]) -> bool:
    return len(one) == len(other) and all(a is b for a, b in zip(one, other, strict=True))


def small_body(scope: Scope) -> bool:
    """A request that says it carries a body of at most MAX_REQUEST_BYTES."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return value.isdigit() and int(value) <= MAX_REQUEST_BYTES
    return False


async def read_body(receive: Receive) -> tuple[bytes, bool]:
    """The request's body, and whether it came whole (not cut by a disconnect or too long)."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(parts), False
        chunk = message.get("body", b"")
        parts.append(chunk)
        size += len(chunk)
        if size > MAX_REQUEST_BYTES:
            return b"".join(parts), False
        if not message.get("more_body", False):
            return b"".join(parts), True


def replayed_receive(body: bytes, complete: bool, receive: Receive) -> Receive:
    """A receive that hands the app the body already read, then reads on."""
    pending: list[Message] = [{"type": "http.request", "body": body,
                               "more_body": not complete}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


async def _send_kept(kept: Kept, id_json: bytes, send: Send) -> None:
    body = _HEAD + id_json + kept.rest
    headers = [*kept.headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": kept.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _Capture:
    """The send an app answers through, passing everything on and noting the answer."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self._start: Message | None = None
        self._parts: list[bytes] = []
        self._whole = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self._start = message
        elif message["type"] == "http.response.body" and not self._whole:
            self._parts.append(bytes(message.get("body", b"")))
            self._whole = not message.get("more_body", False)
        await self._send(message)

    def kept(self, id_json: bytes) -> Kept | None:
        """The answer to keep: a whole 200 JSON-RPC result that carried the id as we spell
        it (so the kept bytes with another id are what the SDK would write); else None."""
        start = self._start
        if start is None or not self._whole or start.get("status") != 200 or \
                start.get("trailers", False):
            return None
        body = b"".join(self._parts)
        head = _HEAD + id_json + b',"result":'
        if not body.startswith(head):
            return None
        headers = tuple((bytes(k), bytes(v)) for k, v in start.get("headers", ())
                        if bytes(k).lower() != b"content-length")
        if (b"content-type", b"application/json") not in headers:
            return None
        return Kept(start["status"], headers, body[len(_HEAD) + len(id_json):])
