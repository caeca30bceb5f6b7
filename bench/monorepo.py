"""Cold `pygen extract` on a large unbuilt monorepo, where the time goes, and side by side with
another checkout of pygen (today's code) on the same project.

`python -m bench.monorepo [--repeat R] [--against PATH] [--nodes N] [--origin-shape]`

The project (bench/synth_monorepo.py): one ~9,000-line nodes file of ~190 node types over
~200 files of two workspace packages whose manifests point at a dist/ that does not exist.
Every figure is the median of R fresh processes: wall seconds, with the CPU seconds of the
child processes in parentheses (steadier on a shared machine). The load average is printed
with the results, since two cores shared by several people make wall times noisy.

`--origin-shape` adds what the origin app (bench.origin_app) holds beyond that, as
bench/origin_shape.py describes and measures it: the DOM lib, @xyflow/react's and React's
types, a prompts package of large text constants behind an `export *` barrel, zod schemas
and a `satisfies` registry. Its packages come from the heavy app's npm cache (installed on
first use, a few hundred MB).

Breakdown of this checkout's cold run: Node start-up, ts-morph load, then the extractor's own
phases as it reports them (program creation, definitions walk, type reading, files hashed),
and the Python side (the whole command minus the extractor).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.compiler_floor import compiler
from bench.extraction import Timing, check, measure
from bench.heavy_app import install
from bench.synth_monorepo import write_monorepo
from pygen.config import load_config
from pygen.extract import noderuntime
from pygen.extract.noderuntime import node_command, node_env
from pygen.extract.runner import request_for

HERE = Path(__file__).resolve().parent.parent
TARGET = 1.2


def pygen_extract(clone: Path, config: Path) -> Callable[[], None]:
    """`python -m pygen extract` of a checkout, in a fresh process (extract never caches)."""
    env = {**os.environ, "PYTHONPATH": str(clone)}

    def run() -> None:
        done = subprocess.run([sys.executable, "-m", "pygen", "extract", "--config",
                               str(config)], capture_output=True, text=True, env=env,
                              cwd=config.parent, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{clone}: pygen extract failed:\n{done.stderr}")

    return run


def phases(config_path: Path, repeat: int) -> tuple[Timing, dict[str, float], dict[str, Any]]:
    """The extractor alone (median), its own phase timings (median of each, ms) and what its
    program held."""
    config = load_config(config_path)
    script = noderuntime.extractor()
    request = json.dumps({**request_for(config), "profile": True})
    runs: list[dict[str, float]] = []
    program: dict[str, Any] = {}

    def run() -> None:
        reply = json.loads(check(node_command(script), stdin=request, cwd=config.root,
                                 env=node_env(script)))
        runs.append(reply["timings"])
        program.update(reply["program"])

    took = measure(run, repeat)
    return took, {k: statistics.median(r[k] for r in runs) for k in runs[0]}, program


def node_alone(code: str, repeat: int) -> Timing:
    script = noderuntime.extractor()
    env = node_env(script)
    return measure(lambda: check([str(script.node), "-e", code], cwd=script.script.parent,
                                 env=env), repeat)


def report(tmp: Path, repeat: int, against: Path | None, n: int,
           modules: Path | None = None) -> None:
    config = write_monorepo(tmp / "monorepo", n, modules)
    nodes_file = config.parent / "apps" / "editor" / "src" / "nodes.ts"
    lines = len(nodes_file.read_text(encoding="utf-8").splitlines())
    files = sum(1 for _ in (config.parent / "packages").rglob("*.ts"))
    shape = ", the origin app's layers" if modules is not None else ""
    print(f"monorepo: {n} node types, nodes file {lines} lines, {files} package files, "
          f"no dist/{shape}")
    print("    seconds: wall (CPU of the child processes), median of", repeat)
    pygen_extract(HERE, config)()  # untimed: fills the OS file cache and Node's compile cache
    ours = measure(pygen_extract(HERE, config), repeat)
    target = ("" if modules is not None else
              f"   target <= {TARGET:.1f} s: {'met' if ours.wall <= TARGET else 'NOT met'}")
    print(f"  cold `pygen extract`, this checkout ({HERE.name}): {ours}{target}")
    floor, counts = compiler(config, repeat)
    print(f"  the TypeScript compiler alone on pygen's program: {floor}   "
          f"{counts['fields']} fields typed (bench/compiler_floor.cjs)")
    if against is not None:
        pygen_extract(against, config)()
        theirs = measure(pygen_extract(against, config), repeat)
        print(f"  cold `pygen extract`, {against}: {theirs}")
    start = node_alone("0", repeat)
    load = node_alone("require('ts-morph')", repeat)
    extractor, marks, program = phases(config, repeat)
    print(f"  breakdown (this checkout; its program: {program['files']} files, "
          f"{program['chars'] / 1e6:.1f} MB):")
    print(f"    Node start-up                 {start.wall:6.3f}")
    print(f"    ts-morph load                 {load.wall - start.wall:6.3f}")
    for name, ms in marks.items():
        print(f"    extractor: {name:<18} {ms / 1000:6.3f}")
    print(f"    extractor process in all      {extractor.wall:6.3f}")
    print(f"    Python side (rest)            {ours.wall - extractor.wall:6.3f}")
    print(f"  load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.monorepo")
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (median)")
    parser.add_argument("--against", type=Path, default=None,
                        help="another pygen checkout to time on the same project")
    parser.add_argument("--nodes", type=int, default=190, help="node types in the nodes file")
    parser.add_argument("--origin-shape", action="store_true",
                        help="add the origin app's layers (installs packages on first use)")
    args = parser.parse_args(list(argv or []))
    modules = install() if args.origin_shape else None
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        report(Path(tmp), args.repeat, args.against, args.nodes, modules)
        shutil.rmtree(Path(tmp) / "monorepo", ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
