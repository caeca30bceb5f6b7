"""`pygen serve --http` as a real process on a free loopback port, for end-to-end tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

PYGEN = str(Path(sys.executable).parent / "pygen")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve_http(args: list[str], log: Path, env: Mapping[str, str] | None = None,
               cwd: Path | None = None) -> Iterator[str]:
    """Runs `pygen serve --http --port N *args` until the block ends; yields its MCP URL."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen([PYGEN, "serve", "--http", "--port", str(port), *args],
                                   stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, env=env, cwd=cwd)
        try:
            wait_listening(port, process)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            process.terminate()
            process.wait(timeout=10)


def wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        assert process.poll() is None, "pygen serve --http exited early"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listening on port {port}")
