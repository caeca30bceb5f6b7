"""Extraction speed: cold `pygen gen` over synthetic catalogs, and where the time goes.

`python -m bench.extraction [--repeat R] [--quick]`

(a) One nodes.ts with N = 50, 200, 1000 node types: wall time of a cold `pygen gen`
    (fresh process, empty skills directory).
(b) A workspace project (three app files, two workspace packages, enums imported across
    packages) at N = 200 and 2000: the extractor alone and `pygen gen` end to end, with the
    fixed cost (Node + ts-morph start-up, a 1-node project) measured in the same run, so the
    per-node cost and its growth can be read off.

Each figure is the median of R fresh processes. Nothing is written outside a temp dir.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import synth
from pygen.config import load_config
from pygen.extract import noderuntime
from pygen.extract.runner import request_for

PYGEN = Path(sys.executable).with_name("pygen")


@dataclass(frozen=True)
class Timing:
    wall: float
    # CPU seconds of the child processes: steadier than wall time on a busy machine.
    cpu: float

    def __str__(self) -> str:
        return f"{self.wall:.2f} ({self.cpu:.2f})"


def measure(run: Callable[[], object], repeat: int) -> Timing:
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return Timing(statistics.median(walls), statistics.median(cpus))


def check(cmd: Sequence[str], stdin: str | None = None, cwd: Path | None = None,
          env: dict[str, str] | None = None) -> str:
    done = subprocess.run(list(cmd), input=stdin, capture_output=True, text=True, cwd=cwd,
                          env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def cold_gen(config: Path) -> Callable[[], None]:
    """`pygen gen` in a fresh process: no skills yet, no extraction cache."""

    def run() -> None:
        for leftover in ("skills", ".pygen-cache"):
            shutil.rmtree(config.parent / leftover, ignore_errors=True)
        check([str(PYGEN), "gen", "-q", "--no-cache", "--config", str(config)], cwd=config.parent)

    return run


def extractor_only(config_path: Path) -> Callable[[], None]:
    """The Node extractor by itself: node start-up, ts-morph, one Project, the JSON reply."""
    config = load_config(config_path)
    script = noderuntime.extractor()
    request = json.dumps(request_for(config))
    # As pygen runs it: its Node flags and environment (compile cache, NODE_PATH).
    command, env = noderuntime.node_command(script), noderuntime.node_env(script)

    def run() -> None:
        out = check(command, stdin=request, cwd=config.root, env=env)
        reply = json.loads(out)
        if not reply.get("ok"):
            raise SystemExit(f"extraction failed: {reply.get('errors')}")

    return run


def cli_startup() -> Callable[[], None]:
    def run() -> None:
        check([str(PYGEN), "--help"])

    return run


def node_startup() -> Callable[[], None]:
    script = noderuntime.extractor()
    cwd = script.script.parent

    def run() -> None:
        check([str(script.node), "-e", "require('ts-morph')"], cwd=cwd)

    return run


def bench_flat(tmp: Path, sizes: Sequence[int], repeat: int) -> None:
    print("(a) one nodes.ts, cold `pygen gen` (fresh process, empty skills dir, no cache)")
    print("    seconds: wall (CPU of the child processes)")
    print(f"{'N':>6} {'seconds':>13} {'ms/node':>9}")
    for n in sizes:
        config = synth.write_flat(tmp / f"flat-{n}", n)
        took = measure(cold_gen(config), repeat)
        print(f"{n:>6} {took!s:>13} {1000 * took.wall / n:>9.2f}")


def bench_workspace(tmp: Path, sizes: Sequence[int], repeat: int) -> None:
    print("\n(b) workspace: 3 app files + 2 packages, cross-package enums")
    print("    seconds: wall (CPU of the child processes)")
    one = synth.write_workspace(tmp / "ws-1", 1)
    fixed = {
        "node -e \"require('ts-morph')\"": measure(node_startup(), repeat),
        "`pygen --help` (Python start-up)": measure(cli_startup(), repeat),
        "1-node project, extractor only": measure(extractor_only(one), repeat),
        "1-node project, `pygen gen`": measure(cold_gen(one), repeat),
    }
    for label, took in fixed.items():
        print(f"  {label:<36} {took!s:>13}")
    base_extract = fixed["1-node project, extractor only"]
    base_gen = fixed["1-node project, `pygen gen`"]
    print(f"{'N':>6} {'extract s':>13} {'gen s':>13} {'extract ms/node':>16} {'gen ms/node':>12}")
    for n in sizes:
        config = synth.write_workspace(tmp / f"ws-{n}", n)
        extract = measure(extractor_only(config), repeat)
        gen = measure(cold_gen(config), repeat)
        # Per node beyond the fixed start-up (CPU, the steadier figure): flat means linear.
        per_extract = 1000 * (extract.cpu - base_extract.cpu) / (n - 1)
        per_gen = 1000 * (gen.cpu - base_gen.cpu) / (n - 1)
        print(f"{n:>6} {extract!s:>13} {gen!s:>13} {per_extract:>16.2f} {per_gen:>12.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one run each")
    args = parser.parse_args(list(argv or []))
    repeat = 1 if args.quick else args.repeat
    flat = (50, 200) if args.quick else (50, 200, 1000)
    workspace = (200,) if args.quick else (200, 2000)
    # Untimed: the first run of anything pays for the OS file cache, not for pygen.
    cli_startup()()
    node_startup()()
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        bench_flat(Path(tmp), flat, repeat)
        bench_workspace(Path(tmp), workspace, repeat)


if __name__ == "__main__":
    main(sys.argv[1:])
