"""`pygen serve --http` answers a tool call as one JSON response written in one piece, the
same answer on every call; the node skill answers computed once equal fresh ones."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from pathlib import Path

import pytest
from serve_helpers import http_serving, serve_http

from pygen import layout
from pygen.server import node_tools
from pygen.server.http import CorkedTransport
from pygen.server.node_tools import (
    SkillAnswers,
    load_node_catalog,
    node_skill_text,
    unknown_type_message,
)
from pygen.server.store import load_store

REPO = Path(__file__).resolve().parents[2]


def call(port: int, node_type: str, call_id: object = 7) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "id": call_id, "method": "tools/call",
                       "params": {"name": "get_node_skill",
                                  "arguments": {"node_type": node_type}}}).encode()
    return (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "MCP-Protocol-Version: 2025-11-25\r\n"
            "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def one_read(sock: socket.socket) -> tuple[bytes, bytes]:
    """(head, body) of the response, from the first read alone."""
    data = sock.recv(1 << 20)
    head, _, body = data.partition(b"\r\n\r\n")
    return head, body


def test_a_tool_call_is_one_json_answer_in_one_piece(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "loop.md").write_text("# loop\n\nRepeats its input.\n" + "x" * 3000)
    with http_serving(skills, tmp_path / "serve.log") as (port, _pid), \
            socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(20)
        answers = []
        for name in ("loop", "loop", "nope"):
            sock.sendall(call(port, name))
            head, body = one_read(sock)
            size = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
            # Head and whole body arrive together: one write, not a head and then a body.
            assert size is not None and len(body) == int(size.group(1)), head
            assert b"content-type: application/json" in head.lower()
            answers.append(json.loads(body)["result"])
    assert answers[0] == answers[1] and not answers[0]["isError"]
    assert "Repeats its input." in answers[0]["content"][0]["text"]
    assert answers[2]["isError"] and "Unknown node_type 'nope'" in answers[2]["content"][0]["text"]


def test_a_repeated_call_is_answered_alike_but_for_its_id(tmp_path: Path) -> None:
    """The second ask is replayed from the first's bytes (see pygen.server.replay)."""
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "loop.md").write_text("# loop\n\nRepeats its input · twice.\n")
    with http_serving(skills, tmp_path / "serve.log") as (port, _pid), \
            socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(20)
        bodies = []
        for call_id in (7, "second-ask", 7):
            sock.sendall(call(port, "loop", call_id))
            bodies.append(one_read(sock)[1])
    assert bodies[1] == bodies[0].replace(b'"id":7,', b'"id":"second-ask",', 1)
    assert bodies[2] == bodies[0] and "Repeats its input · twice." in bodies[0].decode()


def test_a_watched_edit_is_answered_after_the_reload_not_the_kept_answer(
        tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "loop.md").write_text("# loop\n\nRepeats its input.\n")
    log = tmp_path / "serve.log"
    with serve_http(["--skills-dir", str(skills), "--watch"], log) as (url, _pid), \
            socket.create_connection(("127.0.0.1", int(url.split(":")[2][:-4]))) as sock:
        port = int(url.split(":")[2][:-4])
        sock.settimeout(20)
        for _ in range(2):  # the second is replayed
            sock.sendall(call(port, "loop"))
            assert b"Repeats its input." in one_read(sock)[1]
        (skills / "nodes" / "loop.md").write_text("# loop\n\nNow loops forever.\n")
        deadline = time.monotonic() + 20
        while "reloaded skills" not in log.read_text("utf-8") and time.monotonic() < deadline:
            time.sleep(0.05)
        sock.sendall(call(port, "loop"))
        assert b"Now loops forever." in one_read(sock)[1]


def test_writes_are_held_until_the_response_is_complete() -> None:
    async def main() -> tuple[bytes, bytes]:
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        loop = asyncio.get_running_loop()
        transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, ours)
        corked = CorkedTransport(transport, loop)  # type: ignore[arg-type]
        corked.write(b"head ")
        corked.write(b"body")
        try:
            before = theirs.recv(100)
        except BlockingIOError:
            before = b""
        corked.flush()
        await asyncio.sleep(0.05)
        after = theirs.recv(100)
        corked.close()
        theirs.close()
        return before, after

    assert asyncio.run(main()) == (b"", b"head body")


def test_answers_computed_once_equal_fresh_ones() -> None:
    store = load_store(REPO / "skills")
    nodes = load_node_catalog(layout.schema_file(store.root), store.root, store.nodes)
    answers = SkillAnswers(store.nodes, nodes)
    for detail in ("minimal", "standard", "full"):
        for node_type in store.node_types:
            fresh = node_skill_text(store.nodes, nodes, node_type, detail)
            assert answers.text(node_type, detail) == fresh
            twice = [answers.result(node_type, None, detail) for _ in range(2)]
            assert twice[0] == twice[1] and twice[0] is not twice[1]
    label = answers.result("Merge Video & Audio", None, "full").content[0]
    assert "is the label of node type 'merge-video-audio'" in getattr(label, "text", "")
    unknown = answers.result("nope", None, "standard")
    assert unknown.is_error
    assert getattr(unknown.content[0], "text", "") == unknown_type_message(
        "nope", sorted(store.nodes), answers.tool_aliases)


def test_past_the_kept_answers_each_is_computed_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    store = load_store(REPO / "skills")
    nodes = load_node_catalog(layout.schema_file(store.root), store.root, store.nodes)
    monkeypatch.setattr(node_tools, "MAX_KEPT", 2)
    answers = SkillAnswers(store.nodes, nodes)
    for node_type in store.node_types:
        for _ in range(2):
            assert answers.text(node_type, "standard") == node_skill_text(
                store.nodes, nodes, node_type, "standard")
            assert not answers.result(node_type, None, "minimal").is_error
    assert len(answers._texts) == 2 and len(answers._single) == 2
