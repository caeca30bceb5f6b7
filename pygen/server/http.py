"""Streamable HTTP whose connections cannot be held open for nothing.

uvicorn closes a keep-alive connection that stays idle after a response, but a connection
that never sends a request, or sends part of one and stalls (a half-open or slow client),
is kept for ever, each holding a socket and a task. Here every request must arrive whole
within REQUEST_TIMEOUT of the connection opening (or of the previous response), else the
connection is closed; idle keep-alive connections close after IDLE_TIMEOUT.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from pygen.server.direct import DirectCalls
from pygen.server.replay import ReplayCache

# Seconds a client has to send one whole request (headers and body).
REQUEST_TIMEOUT = 10.0
# Seconds a keep-alive connection may stay idle between requests.
IDLE_TIMEOUT = 5.0


class CorkedTransport(asyncio.Transport):
    """A connection's transport whose writes within one step of the event loop leave as one.

    uvicorn writes a response's head and its body separately: two system calls and two
    segments, and on loopback each send wakes the client, so the second costs about as much
    as the answer itself. Held until the response is complete (or, for a streamed one, until
    the step ends), they go out together.
    """

    def __init__(self, inner: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._inner, self._loop = inner, loop
        self._held: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._held:
            self._loop.call_soon(self.flush)
        self._held.append(bytes(data))

    def flush(self) -> None:
        if self._held:
            data = b"".join(self._held)
            self._held.clear()
            if not self._inner.is_closing():
                self._inner.write(data)

    def close(self) -> None:
        self.flush()
        self._inner.close()

    def abort(self) -> None:
        self._held.clear()
        self._inner.abort()

    def is_closing(self) -> bool:
        return self._inner.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._inner.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._inner.pause_reading()

    def resume_reading(self) -> None:
        self._inner.resume_reading()

    def is_reading(self) -> bool:
        return self._inner.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._inner.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._inner.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self._inner.get_write_buffer_size() + sum(map(len, self._held))


class BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on reading each request, and each
    response written in one piece (see CorkedTransport)."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = CorkedTransport(transport, self.loop)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
            self._disarm()  # the request is in: answering it may take as long as it takes

    def on_response_complete(self) -> None:
        if isinstance(self.transport, CorkedTransport):
            self.transport.flush()
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        # A pipelined request may already be in whole (read while answering the last one).
        if not self.transport.is_closing() and self.conn.their_state is not h11.DONE:
            self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def sdk_app(server: MCPServer, host: str, *, allowed_hosts: list[str],
            allowed_origins: list[str]) -> Starlette:
    """The SDK's streamable HTTP app for `server`, answering only requests whose Host (and
    Origin, when sent) is one of the allowed ones."""
    from mcp.server.transport_security import TransportSecuritySettings

    security = TransportSecuritySettings(allowed_hosts=allowed_hosts,
                                         allowed_origins=allowed_origins)
    # Stateless: every tool is read-only, so no session is kept that a flood of never-closed
    # ones could exhaust and lock other clients out with.
    # JSON answers, not an SSE stream: no tool here sends progress or asks the client
    # anything mid-call, and a stream costs the SDK a task group and a ping timer per call.
    return server.streamable_http_app(stateless_http=True, json_response=True, host=host,
                                      transport_security=security)


async def serve_http(server: MCPServer, host: str, port: int, *, allowed_hosts: list[str],
                     allowed_origins: list[str]) -> None:
    """Serve `server` statelessly over streamable HTTP until cancelled (see `sdk_app`)."""
    app = sdk_app(server, host, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins)
    # Stateless, so an answer depends on the request and the loaded skills alone: a request
    # repeated but for its id is answered with the SDK's first answer's bytes, and a new
    # read-only one by the SDK's handler in its own task (no per-request session machinery).
    front = ReplayCache(DirectCalls(app, server), server)
    config = uvicorn.Config(front, host=host, port=port, http=BoundedH11Protocol,
                            timeout_keep_alive=int(IDLE_TIMEOUT), log_level="warning",
                            # Nothing stands in front of a server on 127.0.0.1: no forwarded
                            # header is trusted, and no access line is formatted per request.
                            proxy_headers=False, access_log=False)
    await uvicorn.Server(config).serve()
