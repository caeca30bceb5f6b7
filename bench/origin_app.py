"""Cold `pygen extract` on the app this design came from, beside that app's own generator.

`python -m bench.origin_app --checkouts DIR [--repeat R]`

The app is `nodaroai/app.nodaro.ai` (its corpus.toml entry pins the commit; DIR holds it as
`nodaroai+app.nodaro.ai`, with its node_modules: see the entry's notes for what was installed).
Its own skill generator (backend/scripts/gen-skills.ts) parses the catalog with ts-morph under
tsx: the definitions once, then the 6,000-line nodes file again for every node's data
interface. bench/origin_loop.mts runs that parsing part, the checkout's own module under the
checkout's own tsx and ts-morph; the generator's MCP capture and writing are not timed.

Printed: wall seconds (CPU of the child processes), median of R fresh processes, for the
generator's parse loop, for a cold `pygen extract` (the pygen.toml beside it, as
`pygen init` wrote it) and for the TypeScript compiler alone on the same program
(bench/compiler_floor.cjs: the files pygen's program holds, the checker, and the type of every
field of the data types pygen read, no pygen reading), with the ratios against the issue's
target of 6x. The compiler's line is the floor of any extraction that resolves types through
the checker on these files: the loop's time over it is the most such an extraction can reach.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from bench.compiler_floor import compiler
from bench.extraction import Timing, check, measure
from bench.monorepo import pygen_extract

HERE = Path(__file__).resolve().parent.parent
FOLDER = "nodaroai+app.nodaro.ai"
PARSER = "backend/scripts/lib/gen-skills/parse-node-definitions.ts"
NODES_FILE = "frontend/src/types/nodes.ts"
LOOP = Path(__file__).with_name("origin_loop.mts")
TARGET = 6.0


def tsx_cli(app: Path) -> Path:
    cli = app / "node_modules" / "tsx" / "dist" / "cli.mjs"
    if not cli.is_file():
        raise SystemExit(f"{cli}: not found; install the app's tsx and ts-morph first "
                         "(see its entry in bench/corpus.toml)")
    return cli


def generator(app: Path, repeat: int) -> tuple[Timing, dict[str, int]]:
    node = shutil.which("node") or "node"
    cmd = [node, str(tsx_cli(app)), str(LOOP), str(app / PARSER), str(app / NODES_FILE)]
    replies: list[dict[str, int]] = []
    took = measure(lambda: replies.append(json.loads(check(cmd, cwd=app))), repeat)
    return took, replies[-1]


def ours(app: Path, repeat: int) -> Timing:
    config = app / "pygen.toml"
    if not config.is_file():
        raise SystemExit(f"{config}: not found; run `pygen init` in the checkout first")
    run = pygen_extract(HERE, config)
    cache = app / ".pygen-cache"

    def cold() -> None:
        shutil.rmtree(cache, ignore_errors=True)
        run()

    cold()  # untimed: fills the OS file cache and Node's compile cache
    return measure(cold, repeat)


def ratios(theirs: Timing, other: Timing) -> str:
    wall, cpu = theirs.wall / other.wall, theirs.cpu / other.cpu
    return f"{wall:.1f}x wall, {cpu:.1f}x CPU"


def report(app: Path, repeat: int) -> None:
    mine = ours(app, repeat)
    floor, program = compiler(app / "pygen.toml", repeat)
    theirs, counts = generator(app, repeat)
    print(f"origin app: {counts['nodes']} node types; seconds: wall (CPU of the child "
          f"processes), median of {repeat}")
    print(f"  its generator's parse loop (tsx, ts-morph): {theirs}   "
          f"{counts['found']} data interfaces found")
    print(f"  cold `pygen extract`, this checkout ({HERE.name}):  {mine}")
    print(f"  the TypeScript compiler alone on pygen's program: {floor}   {program['files']} "
          f"files, {program['chars'] / 1e6:.1f} MB, {program['fields']} fields typed")
    met = min(theirs.wall / mine.wall, theirs.cpu / mine.cpu) >= TARGET
    print(f"  ratio generator / pygen: {ratios(theirs, mine)}   target >= {TARGET:.0f}x: "
          f"{'met' if met else 'NOT met'}")
    print(f"  ratio generator / compiler alone (the most a checker-based extraction reaches): "
          f"{ratios(theirs, floor)}")
    print(f"  pygen's cost over the compiler's alone: {ratios(mine, floor)}")
    print(f"  load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.origin_app")
    parser.add_argument("--checkouts", type=Path, required=True,
                        help=f"the folder holding {FOLDER}")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args(list(argv or []))
    app = args.checkouts / FOLDER
    if not app.is_dir():
        raise SystemExit(f"{app}: not found; fetch the commit of its bench/corpus.toml entry")
    report(app, args.repeat)


if __name__ == "__main__":
    main(sys.argv[1:])
