"""Per-node cost of cold `gen`, warm `check` and `validate-workflow` as the catalog grows.

Run with `.venv/bin/python -m bench.scaling [--sizes 200 2000] [--large]`. For each size it
writes a flat synthetic catalog (bench.synth.write_flat) and runs, as processes:

- `pygen gen` into an empty skills folder, no cache yet (extraction, rendering, the gate);
- `pygen check` right after it (extraction cached, everything rendered and checked), then
  again (a clean check is remembered: the warm check), best of two;
- `pygen validate-workflow` on a workflow with one node of every type, chained by edges.

It prints wall and CPU seconds (the process and its children: CPU is the steadier figure on a
shared machine), the CPU milliseconds per node, and the ratio of per-node CPU cost between
each size and the one before it: about 1 means linear. `--large` adds 20,000 nodes (minutes).
Targets: at 2,000 nodes a cold gen within 15 s and a warm check within 1 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from bench.synth import node_type, write_flat

STEPS = ("cold gen", "first check", "warm check", "validate-workflow")
TARGETS = {("cold gen", 2000): 15.0, ("warm check", 2000): 1.0}


@dataclass
class Sample:
    wall: float
    cpu: float


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(argv: Sequence[str], cwd: Path, ok: Sequence[int] = (0,)) -> Sample:
    """One process; its wall time and the CPU time it and its children used."""
    return timed(argv, cwd, ok)[0]


def timed(argv: Sequence[str], cwd: Path, ok: Sequence[int] = (0,)) -> tuple[Sample, str]:
    """One process: its wall and CPU time (with its children's), and its stderr; a run
    exiting with a code not in `ok` stops the benchmark."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True, check=False)
    sample = Sample(time.perf_counter() - start, _children_cpu() - cpu)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode} in {cwd}:\n"
                         f"{done.stderr[-2000:]}")
    return sample, done.stderr


def workflow(n: int) -> dict[str, object]:
    """One node of every type, each wired to the next through its main handles."""
    nodes = [{"id": f"n{i}", "type": node_type(i), "position": {"x": i * 10, "y": 0},
              "data": {}} for i in range(n)]
    edges = [{"id": f"e{i}", "source": f"n{i - 1}", "sourceHandle": "out", "target": f"n{i}",
              "targetHandle": "in"} for i in range(1, n)]
    return {"nodes": nodes, "edges": edges}


def measure(root: Path, n: int) -> dict[str, Sample]:
    config = write_flat(root, n)
    # 20,000 nodes on a busy machine may take longer than the default 180 s to extract.
    with config.open("a", encoding="utf-8") as out:
        out.write("extract_timeout = 1800\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    pygen = [sys.executable, "-m", "pygen"]
    # A fresh project has no cache: this gen is cold, and it fills the cache for check.
    cold = run([*pygen, "gen", "-q"], root)
    # The first check reads the extraction from the cache but renders and checks everything;
    # a clean one is remembered, so the next ones answer from the memo (pygen.gate.check_memo).
    first = run([*pygen, "check", "-q"], root)
    warm = min((run([*pygen, "check", "-q"], root) for _ in range(2)), key=lambda s: s.cpu)
    (root / "workflow.json").write_text(json.dumps(workflow(n)), encoding="utf-8")
    # 1: findings (a synthetic workflow need not be perfect); the cost is what is measured.
    valid = run([*pygen, "validate-workflow", "workflow.json"], root, ok=(0, 1))
    return dict(zip(STEPS, (cold, first, warm, valid), strict=True))


def report(results: dict[int, dict[str, Sample]]) -> list[str]:
    lines = [f"{'nodes':>7}  " + "  ".join(f"{s:>30}" for s in STEPS),
             f"{'':>7}  " + "  ".join(f"{'wall s':>9} {'cpu s':>9} {'cpu ms/node':>10}"
                                      for _ in STEPS)]
    for n, samples in results.items():
        lines.append(f"{n:>7}  " + "  ".join(
            f"{samples[s].wall:>9.2f} {samples[s].cpu:>9.2f} {samples[s].cpu / n * 1000:>10.3f}"
            for s in STEPS))
    sizes = list(results)
    for small, large in pairwise(sizes):
        ratios = [(results[large][s].cpu / large) / (results[small][s].cpu / small)
                  for s in STEPS]
        lines.append(f"per-node cost {large} / {small}: " + "  ".join(
            f"{s} {r:.2f}x" for s, r in zip(STEPS, ratios, strict=True)))
    for (step, n), limit in TARGETS.items():
        if n in results:
            took = results[n][step].wall
            verdict = "met" if took <= limit else "not met"
            lines.append(f"target {step} at {n} nodes <= {limit:g} s wall: {took:.2f} s, "
                         f"{verdict}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scaling")
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 2000],
                        help="catalog sizes (default 200 2000)")
    parser.add_argument("--large", action="store_true", help="add 20,000 nodes (minutes)")
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes) | ({20000} if args.large else set()))
    results: dict[int, dict[str, Sample]] = {}
    with tempfile.TemporaryDirectory(prefix="pygen-scaling-") as tmp:
        for n in sizes:
            print(f"measuring {n} nodes...", file=sys.stderr, flush=True)
            results[n] = measure(Path(tmp) / str(n), n)
    print("\n".join(report(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
