"""The HTTP benchmark measures what it says: server time recorded inside the real
`pygen serve --http` for every measured and warm-up call, at both protocol revisions, for
repeated and unique requests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import serve_calls, serve_http


@pytest.mark.slow
def test_every_row_has_client_and_server_percentiles(tmp_path: Path) -> None:
    types = serve_calls.prepare(tmp_path)
    rows = serve_http.run_http(tmp_path / "skills", types, 10)
    assert len(rows) == len(serve_http.PROTOCOLS) * len(serve_http.REQUESTS) * len(
        serve_http.CLIENTS)
    for row in rows:
        figures = row.split()[-8:]  # calls, calls/s, four percentiles, CPU per call, load
        assert "-" not in figures and figures[0] == "10", row
    recorded = (tmp_path / "server-times.txt").read_text(encoding="utf-8").split()
    assert len(recorded) == len(rows) * (10 + serve_http.WARMUP)
