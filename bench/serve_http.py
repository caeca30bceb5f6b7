"""`get_node_skill` over streamable HTTP at 1 and 20 clients, beside the stdio figure.

Run with `.venv/bin/python -m bench.serve_http [--calls N] [--nice N]`. The clients run in a
separate process (`--client`), each a bare HTTP/1.1 keep-alive connection posting `tools/call`
(the server is stateless, so no session set-up), so the server's cost is not confused with
the MCP client library's; `--nice N` runs that process at a lower priority, so on a busy
machine the clients take less of the server's share. The server is the real
`pygen serve --http`, run through `bench.serve_timed`, which records each request's server
time (request read whole → response written, in the server process). Prints per mode:
calls, throughput, p50/p99 latency as the clients saw it, p50/p99 server time, the server's
own CPU milliseconds per call (from /proc, the server process alone: the steadier figure on a
shared machine) and the 1-minute load average when the mode ended. Warm-up calls (WARMUP per
mode, from a client process of their own) are in none of the figures.

Each HTTP mode runs twice per protocol revision: as a client of the handshake era
(`MCP-Protocol-Version: 2025-11-25`, what clients speak today) and with the 2026-07-28
per-request envelope; and with `repeat` requests (the same few calls again and again, as an
agent asks them: the server replays its kept answers) and `unique` ones (each request carries
a header no other has, so none is replayed: the cost of a first ask, answered by the SDK's
handler run in the request's task at the handshake revision, see `pygen.server.direct`, and
by the SDK's own single-exchange path at 2026-07-28). Target: p99 within 50 ms of server time
at 20 clients.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import serve_calls

CLIENTS = (1, 20)
CALLS = 2_000
WARMUP = 50
# The protocol revision the clients speak: one reached by the initialize handshake (what
# clients speak today), and the per-request envelope of the newest one (no session at all).
HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"
PROTOCOLS = (HANDSHAKE, MODERN)
# Requests as agents repeat them (answered from kept bytes), and each one new (computed).
REQUESTS = ("repeat", "unique")


def _request(port: int, node_type: str, i: int, protocol: str = HANDSHAKE,
             unique: bool = False) -> bytes:
    params: dict[str, object] = {"name": "get_node_skill", "arguments": {"node_type": node_type}}
    headers = f"MCP-Protocol-Version: {protocol}\r\n"
    if unique:  # a header the server passes on untouched, different on every request
        headers += f"X-Bench-Call: {os.getpid()}-{i}\r\n"
    if protocol == MODERN:
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": protocol,
                           "io.modelcontextprotocol/clientCapabilities": {}}
        headers += "Mcp-Method: tools/call\r\nMcp-Name: get_node_skill\r\n"
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                       "params": params}).encode()
    return (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}"
            "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


async def _answer(reader: asyncio.StreamReader) -> bytes:
    """One HTTP/1.1 response body (chunked or sized)."""
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"server answered {head[:40]!r}")
    sized = re.search(rb"(?i)content-length: *(\d+)", head)
    if sized is not None:
        return await reader.readexactly(int(sized.group(1)))
    body = b""
    while True:
        size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
        body += (await reader.readexactly(size + 2))[:-2]
        if size == 0:
            return body


async def _clients(port: int, clients: int, calls: int, types: list[str],
                   protocol: str, unique: bool) -> list[float]:
    latencies: list[float] = []
    left = iter(range(calls))

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for i in left:
                before = time.perf_counter()
                writer.write(_request(port, types[i % len(types)], i, protocol, unique))
                body = await _answer(reader)
                latencies.append(time.perf_counter() - before)
                if b'"isError":true' in body:
                    raise SystemExit(f"call {i} failed: {body[:200]!r}")
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return latencies


def client_main(port: int, clients: int, calls: int, protocol: str, requests: str,
                types: list[str]) -> None:
    """The client process: run the calls, print the latencies as JSON."""
    started = time.perf_counter()
    latencies = asyncio.run(_clients(port, clients, calls, types, protocol,
                                     requests == "unique"))
    print(json.dumps({"latencies": latencies, "wall": time.perf_counter() - started}))


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_listening(port: int) -> None:
    import socket

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start listening")


def _percentiles(seconds: list[float] | None) -> str:
    """`p50 p99` in milliseconds, or dashes when not measured."""
    if not seconds:
        return f"{'-':>9} {'-':>9}"
    ordered = sorted(seconds)
    return (f"{serve_calls.percentile(ordered, 0.50) * 1000:>9.2f} "
            f"{serve_calls.percentile(ordered, 0.99) * 1000:>9.2f}")


def _row(mode: str, clients: int, latencies: list[float], wall: float,
         server: list[float] | None = None, cpu: float | None = None) -> str:
    per_call = f"{cpu / len(latencies) * 1000:>10.3f}" if cpu is not None else f"{'-':>10}"
    return (f"{mode:<22} {clients:>7} {len(latencies):>6} {len(latencies) / wall:>9.0f} "
            f"{_percentiles(latencies)} {_percentiles(server)} {per_call} "
            f"{os.getloadavg()[0]:>6.2f}")


def _server_times(path: Path, skip: int) -> list[float]:
    """The server times (seconds) recorded after the first `skip` lines of the file."""
    lines = path.read_text(encoding="utf-8").split()
    return [int(line) / 1e9 for line in lines[skip:]]


def _client_run(port: int, clients: int, calls: int, protocol: str, requests: str,
                types: list[str], nice: int) -> dict[str, Any]:
    """One client process's calls: {"latencies": [...], "wall": seconds}."""
    command = [sys.executable, "-m", "bench.serve_http", "--client", str(port), str(clients),
               str(calls), protocol, requests, *types]
    done = subprocess.run(["nice", "-n", str(nice), *command] if nice else command,
                          capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_http(skills: Path, types: list[str], calls: int, nice: int = 0) -> list[str]:
    port = _free_port()
    timings = skills.parent / "server-times.txt"
    timings.write_text("", encoding="utf-8")
    with open(skills.parent / "http.log", "w", encoding="utf-8") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "bench.serve_timed", str(timings), "serve", "--skills-dir",
             str(skills), "--http", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    rows = []
    try:
        _wait_listening(port)
        for protocol, requests, clients in itertools.product(PROTOCOLS, REQUESTS, CLIENTS):
            _client_run(port, clients, WARMUP, protocol, requests, types, nice)
            recorded = len(timings.read_text(encoding="utf-8").split())
            before = _cpu_seconds(server.pid)
            result = _client_run(port, clients, calls, protocol, requests, types, nice)
            cpu = _cpu_seconds(server.pid) - before
            rows.append(_row(f"http {protocol} {requests}", clients, result["latencies"],
                             result["wall"], _server_times(timings, recorded), cpu))
    finally:
        server.terminate()
        server.wait(timeout=20)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.serve_http")
    parser.add_argument("--calls", type=int, default=CALLS, help=f"calls per mode ({CALLS})")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the HTTP clients at this niceness (0: as the server)")
    parser.add_argument("--client", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client:
        port, clients, calls, protocol, requests, *types = args.client
        client_main(int(port), int(clients), int(calls), protocol, requests, types)
        return
    import anyio  # here, not at the top: the client processes need none of it

    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        types = serve_calls.prepare(Path(tmp))
        skills = Path(tmp) / "skills"
        latencies, wall = anyio.run(serve_calls.measure, serve_calls.server_command(skills),
                                    types, Path(tmp) / "serve.log", args.calls)
        rows = [_row("stdio", 1, latencies, wall),
                *run_http(skills, types, args.calls, args.nice)]
    print(f"get_node_skill, {len(types)} node types, {args.calls} calls per mode after "
          f"{WARMUP} warm-up calls (ms; client: as the clients saw it; server: request read "
          f"→ response written); {os.cpu_count()} cores, clients at nice {args.nice}")
    print(f"{'mode':<22} {'clients':>7} {'calls':>6} {'calls/s':>9} {'client50':>9} "
          f"{'client99':>9} {'server50':>9} {'server99':>9} {'cpu/call':>10} {'load1':>6}")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
