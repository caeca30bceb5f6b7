"""`pygen serve` that records each HTTP request's server time, for `bench.serve_http`.

Run as `python -m bench.serve_timed <timings file> serve --http ...`: the real CLI, whose
HTTP/1.1 protocol also appends one line per answered request to the file: the nanoseconds
from the request being read whole (headers and body) to the last byte of its response being
handed to the socket. That is the time the server process spends on the request, queueing
behind other requests on its event loop included, and nothing the clients do. The product
has no such hook: the bench swaps the protocol class in before the CLI starts.
"""

from __future__ import annotations

import sys
import time
from typing import IO

import h11

from pygen.server import http


class TimedProtocol(http.BoundedH11Protocol):
    """Records request-read → response-written per request."""

    timings: IO[str] | None = None
    _read_at: int | None = None

    def handle_events(self) -> None:
        super().handle_events()
        if self._read_at is None and self.conn.their_state is h11.DONE:
            self._read_at = time.perf_counter_ns()

    def on_response_complete(self) -> None:
        read_at, self._read_at = self._read_at, None
        super().on_response_complete()  # hands the held response to the socket
        if read_at is not None and self.timings is not None:
            self.timings.write(f"{time.perf_counter_ns() - read_at}\n")


def main(argv: list[str]) -> None:
    path, *cli_args = argv
    # Line-buffered: the bench reads the file between runs while the server keeps going.
    TimedProtocol.timings = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    http.BoundedH11Protocol = TimedProtocol  # type: ignore[misc]
    from pygen.cli import main as cli_main

    cli_main(args=cli_args, prog_name="pygen")


if __name__ == "__main__":
    main(sys.argv[1:])
