"""Streamable HTTP whose connections cannot be held open for nothing.

uvicorn closes a keep-alive connection that stays idle after a response, but a connection
that never sends a request, or sends part of one and stalls (a half-open or slow client),
is kept for ever, each holding a socket and a task. Here every request must arrive whole
within REQUEST_TIMEOUT of the connection opening (or of the previous response), else the
connection is closed; idle keep-alive connections close after IDLE_TIMEOUT.
"""

from __future__ import annotations

import asyncio

import h11
import uvicorn
from mcp.server.mcpserver import MCPServer
from uvicorn.protocols.http.h11_impl import H11Protocol

# Seconds a client has to send one whole request (headers and body).
REQUEST_TIMEOUT = 10.0
# Seconds a keep-alive connection may stay idle between requests.
IDLE_TIMEOUT = 5.0


class BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on reading each request."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
            self._disarm()  # the request is in: answering it may take as long as it takes

    def on_response_complete(self) -> None:
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


async def serve_http(server: MCPServer, host: str, port: int, *, allowed_hosts: list[str],
                     allowed_origins: list[str]) -> None:
    """Serve `server` statelessly over streamable HTTP until cancelled, answering only
    requests whose Host (and Origin, when sent) is one of the allowed ones."""
    from mcp.server.transport_security import TransportSecuritySettings

    security = TransportSecuritySettings(allowed_hosts=allowed_hosts,
                                         allowed_origins=allowed_origins)
    # Stateless: every tool is read-only, so no session is kept that a flood of never-closed
    # ones could exhaust and lock other clients out with.
    app = server.streamable_http_app(stateless_http=True, host=host,
                                     transport_security=security)
    config = uvicorn.Config(app, host=host, port=port, http=BoundedH11Protocol,
                            timeout_keep_alive=int(IDLE_TIMEOUT), log_level="warning")
    await uvicorn.Server(config).serve()
