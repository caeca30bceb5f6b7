"""5,000 `get_node_skill` calls through a real stdio client session against `pygen serve`.

Run with `.venv/bin/python -m bench.serve_calls`. Serves a copy of the repo's skills when
they exist (else a synthetic set of 13 node skills of about 3 KB each), cycles through the
node types one call at a time, and prints calls per second and p50/p99 latency.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.client.stdio import StdioServerParameters

CALLS = 5_000
WARMUP = 100
REPO = Path(__file__).resolve().parent.parent


def prepare(root: Path) -> list[str]:
    """A skills directory under root; returns its node types."""
    skills = root / "skills"
    if (REPO / "skills" / "nodes").is_dir():
        shutil.copytree(REPO / "skills", skills)
    else:
        (skills / "nodes").mkdir(parents=True)
        (skills / "workflow-editor.md").write_text("# Editor\n", encoding="utf-8")
        for i in range(13):
            body = f"# Node {i}\n\n" + "- `field: string` - a field of the node.\n" * 70
            (skills / "nodes" / f"node-{i}.md").write_text(body, encoding="utf-8")
    return sorted(p.stem for p in (skills / "nodes").glob("*.md") if not p.name.startswith("_"))


# The SDK is imported where a session is made: `bench.serve_http` starts a client process per
# mode that needs `percentile` alone, and the SDK's import is most of such a process's CPU.
def server_command(skills: Path) -> StdioServerParameters:
    from mcp.client.stdio import StdioServerParameters

    script = Path(sys.executable).parent / "pygen"
    if script.is_file():
        return StdioServerParameters(command=str(script),
                                     args=["serve", "--skills-dir", str(skills)])
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", "from pygen.cli import main; main()", "serve", "--skills-dir", str(skills)],
    )


async def measure(params: StdioServerParameters, types: list[str],
                  log: Path, calls: int = CALLS) -> tuple[list[float], float]:
    """Per-call latencies in seconds and the wall time of the measured calls."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    latencies: list[float] = []
    with log.open("w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            for i in range(WARMUP):
                await session.call_tool("get_node_skill", {"node_type": types[i % len(types)]})
            started = time.perf_counter()
            for i in range(calls):
                before = time.perf_counter()
                result = await session.call_tool(
                    "get_node_skill", {"node_type": types[i % len(types)]}
                )
                latencies.append(time.perf_counter() - before)
                if result.is_error:
                    raise SystemExit(f"call {i} failed: {result.content}")
            return latencies, time.perf_counter() - started


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        types = prepare(Path(tmp))
        import anyio

        latencies, wall = anyio.run(measure, server_command(Path(tmp) / "skills"), types,
                                    Path(tmp) / "serve.log")
    ordered = sorted(latencies)
    print(f"get_node_skill over stdio: {CALLS} calls across {len(types)} node types")
    print(f"  throughput  {CALLS / wall:,.0f} calls/s ({wall:.2f} s)")
    print(f"  latency     p50 {percentile(ordered, 0.50) * 1000:.3f} ms   "
          f"p99 {percentile(ordered, 0.99) * 1000:.3f} ms   "
          f"mean {statistics.fmean(latencies) * 1000:.3f} ms   "
          f"max {ordered[-1] * 1000:.3f} ms")


if __name__ == "__main__":
    main()
