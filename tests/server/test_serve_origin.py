"""`pygen serve --http` answers only pages of its own host and port (or a listed origin)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from serve_helpers import serve_http

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "probe", "version": "1"}}}


def status(url: str, origin: str | None) -> int:
    headers = {"Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
    if origin is not None:
        headers["Origin"] = origin
    request = urllib.request.Request(url, data=json.dumps(INIT).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            code: int = answer.status
            return code
    except urllib.error.HTTPError as exc:
        return exc.code


def test_only_the_servers_own_origin_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    with serve_http(["--skills-dir", str(tmp_path / "skills")], tmp_path / "log") as (url, _):
        port = url.split(":")[2].split("/")[0]
        assert status(url, f"http://localhost:{port}") == 200
        assert status(url, f"http://127.0.0.1:{port}") == 200
        assert status(url, None) == 200
        assert status(url, "http://localhost:9999") == 403
        assert status(url, f"http://127.0.0.1:{int(port) + 1}") == 403
        assert status(url, f"http://evil.example:{port}") == 403


def test_a_listed_origin_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    args = ["--skills-dir", str(tmp_path / "skills"), "--allow-origin", "http://localhost:9999"]
    with serve_http(args, tmp_path / "log") as (url, _):
        assert status(url, "http://localhost:9999") == 200
        assert status(url, "http://localhost:9998") == 403
