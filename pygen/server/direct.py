"""Read-only requests of the handshake revisions answered in their own task, by the SDK's driver.

Served statelessly, a POST of a handshake-era client (`MCP-Protocol-Version` 2025-11-25 or
earlier, or none) costs the SDK a fresh transport, two memory streams, a dispatcher and two
tasks: the request is handed to the dispatcher's task, the handler's answer handed back
through a router task to the POST's task. That is about 1 ms of CPU per call, and each hand-off
waits its turn on the event loop, so with 20 clients every answer queues behind the others'
hand-offs (p99 a quarter of a second where the work is a lookup).

The handler's part of that path is the SDK's single-exchange driver `serve_one` (the one its
2026-07-28 entry runs): its middleware, the per-version validation of the request, the tool
handler and the per-version shaping of the result. `DirectCalls` runs that driver in the
request's own task, with the born-ready connection and the back-channel-less context the
stateless path gives it, and writes the reply as that path's transport does (the SDK's
JSON-RPC models, the same status and headers), so the bytes are the SDK path's bytes.

It takes only a request whose answer is that handler's result alone and which the SDK would
not refuse: one JSON-RPC request (no batch, no notification, no response) of a listing or a
read-only, closed-world tool call (as `replay.read_only` decides), without a progress token,
small, posted whole to the MCP path with a Host, Origin, Accept and Content-Type the SDK
accepts, while the SDK's manager runs stateless with JSON answers and no authentication.
Everything else goes to the SDK's app untouched and gets the SDK's own answer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import pydantic_core
from mcp.server.connection import Connection
from mcp.server.mcpserver import MCPServer
from mcp.server.runner import serve_one
from mcp.server.streamable_http import CONTENT_TYPE_JSON, check_accept_headers
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecurityMiddleware
from mcp.shared.dispatcher import CallOptions
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.shared.jsonrpc_dispatcher import (
    handler_exception_to_error_data,
    progress_token_from_params,
)
from mcp.shared.message import MessageMetadata, ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import (
    DEFAULT_NEGOTIATED_VERSION,
    ErrorData,
    JSONRPCError,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
    jsonrpc_message_adapter,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from pygen.server.replay import (
    ASGIApp,
    Receive,
    Scope,
    Send,
    read_body,
    read_only,
    replayed_receive,
    small_body,
)

logger = logging.getLogger(__name__)

_VERSION_HEADER = MCP_PROTOCOL_VERSION_HEADER.lower().encode("ascii")


@dataclass
class _Exchange:
    """The dispatch context the SDK's stateless path gives a handler: no back-channel (the
    reply is one JSON body, and a stateless client's reply would have nowhere to land), and
    notifications about the request dropped, as its JSON-mode transport drops them."""

    transport: TransportContext
    request_id: RequestId
    message_metadata: MessageMetadata
    cancel_requested: anyio.Event = field(default_factory=anyio.Event)
    can_send_request: bool = field(default=False, init=False)

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None,
                               opts: CallOptions | None = None) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None,
                     opts: CallOptions | None = None) -> None:
        return None

    async def progress(self, progress: float, total: float | None = None,
                       message: str | None = None) -> None:
        return None  # only requests without a progress token come here


@dataclass(frozen=True)
class _Call:
    """A request this module answers: its HTTP request, JSON-RPC request and revision."""

    http: Request
    message: JSONRPCRequest
    protocol_version: str


class DirectCalls:
    """ASGI middleware before the SDK's app: read-only handshake-era requests answered by the
    SDK's single-exchange driver in the request's task (see the module docstring)."""

    def __init__(self, app: ASGIApp, server: MCPServer, path: str = "/mcp") -> None:
        """`app`: the SDK's app that `server.streamable_http_app` has just built."""
        self.app, self.server, self.path = app, server, path
        manager = server.session_manager
        # Only a manager that serves every handshake-era POST statelessly with one JSON
        # answer, and no authentication in front of it, answers as this module does. Its
        # lifespan state and task group are private: an SDK release without them leaves
        # every request to the SDK.
        served = manager.stateless and manager.json_response and server.settings.auth is None \
            and hasattr(manager, "_lifespan_state")
        self._manager = manager if served else None
        self._security = TransportSecurityMiddleware(manager.security_settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        manager = self._manager
        # Not running (outside its lifespan; the SDK has no public word for it): the SDK's
        # app says so itself.
        running = manager is not None and getattr(manager, "_task_group", None) is not None
        version = _handshake_version(scope) if running else None
        if manager is None or version is None or scope["path"] != self.path or \
                scope.get("root_path", "") != "":
            await self.app(scope, receive, send)
            return
        body, complete = await read_body(receive)
        replayed = replayed_receive(body, complete, receive)
        call = await self._call(Request(scope, replayed), body, version) if complete else None
        if call is None:
            await self.app(scope, replayed, send)
            return
        reply = await _answer(call, manager)
        await Response(reply.model_dump_json(by_alias=True, exclude_unset=True),
                       status_code=200, headers={"Content-Type": CONTENT_TYPE_JSON}
                       )(scope, replayed, send)

    async def _call(self, http: Request, body: bytes, version: str) -> _Call | None:
        """The request when this module answers it: one the SDK accepts (the checks of its
        transport, in its order) whose answer is the handler's alone; else None."""
        if await self._security.validate_request(http, is_post=True) is not None or \
                not check_accept_headers(http)[0] or not _json_content(http):
            return None
        try:
            message = jsonrpc_message_adapter.validate_python(pydantic_core.from_json(body),
                                                              by_name=False)
        except (ValueError, ValidationError, RecursionError):
            return None
        if not isinstance(message, JSONRPCRequest) or \
                progress_token_from_params(message.params) is not None or \
                not read_only(self.server, {"method": message.method, "params": message.params}):
            return None
        return _Call(http, message, version)


def _handshake_version(scope: Scope) -> str | None:
    """The revision a small POST is served at when the SDK routes it to its handshake-era
    path (the header names a handshake revision, or is absent); else None."""
    if scope["type"] != "http" or scope["method"] != "POST" or not small_body(scope):
        return None
    named = [value for key, value in scope["headers"] if key == _VERSION_HEADER]
    if not named:
        return DEFAULT_NEGOTIATED_VERSION
    version = named[0].decode("latin-1")
    # One header naming a handshake revision; more than one is left to the SDK.
    return version if len(named) == 1 and version in HANDSHAKE_PROTOCOL_VERSIONS else None


def _json_content(http: Request) -> bool:
    """The Content-Type test of the SDK's transport."""
    content_type = http.headers.get("content-type", "")
    return any(part.strip() == CONTENT_TYPE_JSON
               for part in content_type.split(";")[0].split(","))


async def _answer(call: _Call, manager: StreamableHTTPSessionManager
                  ) -> JSONRPCResponse | JSONRPCError:
    """The reply the SDK's dispatcher would write: the result, or the error its ladder
    maps the handler's exception to."""
    message = call.message
    exchange = _Exchange(
        transport=TransportContext(kind="streamable-http", can_send_request=False),
        request_id=message.id,
        message_metadata=ServerMessageMetadata(request_context=call.http,
                                               can_send_request=False))
    # Born ready at the header's revision, as the SDK's stateless path makes it.
    connection = Connection.from_envelope(call.protocol_version, None, None)
    try:
        # The state the manager entered the server's lifespan with, as its paths pass it.
        result = await serve_one(manager.app, exchange, message.method, message.params,
                                 connection=connection,
                                 lifespan_state=manager._lifespan_state)
    except Exception as exc:
        error = handler_exception_to_error_data(exc)
        if error is None:
            logger.exception("handler for %r raised", message.method)
            # Code 0 and the exception's text: what the SDK's dispatcher answers.
            error = ErrorData(code=0, message=str(exc))
        return JSONRPCError(jsonrpc="2.0", id=message.id, error=error)
    return JSONRPCResponse(jsonrpc="2.0", id=message.id, result=result)
