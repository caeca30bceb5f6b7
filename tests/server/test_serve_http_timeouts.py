"""`pygen serve --http` closes connections that send nothing, or half a request, in time;
a whole request on a connection is still answered."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from serve_helpers import http_serving

from pygen.server.http import REQUEST_TIMEOUT

INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "t", "version": "1"}}}).encode()


def request(port: int) -> bytes:
    return (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(INITIALIZE)}\r\n\r\n").encode() + INITIALIZE


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed the connection, None if it did not."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - start


@pytest.mark.slow
def test_silent_and_half_sent_requests_are_closed(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "loop.md").write_text("# loop\n")
    with http_serving(skills, tmp_path / "serve.log") as (port, _pid):
        silent = socket.create_connection(("127.0.0.1", port))
        half = socket.create_connection(("127.0.0.1", port))
        whole = request(port)
        half.sendall(whole[: len(whole) // 2])  # headers begun, body never sent
        answered = socket.create_connection(("127.0.0.1", port))
        answered.sendall(whole)
        answered.settimeout(20)
        assert answered.recv(65536).startswith(b"HTTP/1.1 200")
        limit = REQUEST_TIMEOUT + 10
        for sock in (silent, half):
            took = closed_within(sock, limit)
            assert took is not None and took < limit
            sock.close()
        answered.close()
