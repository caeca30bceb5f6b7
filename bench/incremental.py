"""Incremental extraction on a one-file-per-node catalog: what touching one node's file costs
next to a cold run.

Run with `.venv/bin/python -m bench.incremental [--nodes 2000]`. It writes the block app of
bench.blocks_app (a registry importing one file per node) and runs, as processes, with
`--verbose` so the extraction's share can be read from the step times:

- `gen` with no cache (cold);
- `check` twice (the second answers from the memo of a clean check: warm);
- after one node's data type gains a documented field: `check` (exit 1, the drift), then
  `gen` (the extraction is cached by that check);
- `check --no-cache` on the same, touched tree: the cold check to compare with.

It prints wall and CPU seconds (the process and its children) and, for the check after the
touch, the seconds until rendering started (the extraction) beside the cold check's, with
the ratios touched / cold.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.blocks_app import write_app
from bench.scaling import Sample
from bench.scaling import timed as run

STEP = re.compile(r"^\[\s*([0-9.]+)s\] rendering ", re.MULTILINE)
REREAD = re.compile(r"re-read \d+ of \d+ nodes|reading every node")


def extraction_seconds(stderr: str) -> float | None:
    """Wall seconds until the run started rendering (from its --verbose step lines)."""
    found = STEP.search(stderr)
    return float(found.group(1)) if found else None


def touch(root: Path, n: int) -> Path:
    """One node's data type gains a field: a change its skill file must show."""
    path = root / "src" / "blocks" / f"block{n // 2}.ts"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  tags: string[];\n",
                                 "  tags: string[];\n  /** Added by the benchmark. */\n"
                                 "  touched?: boolean;\n", 1), encoding="utf-8")
    return path


def measure(root: Path, n: int) -> dict[str, tuple[Sample, float | None]]:
    write_app(root, n, 0, "name")
    with (root / "pygen.toml").open("a", encoding="utf-8") as config:
        config.write("extract_timeout = 1800\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    pygen = [sys.executable, "-m", "pygen"]
    out: dict[str, tuple[Sample, float | None]] = {}

    def step(name: str, *args: str, ok: Sequence[int] = (0,)) -> None:
        sample, stderr = run([*pygen, *args, "-v"], root, ok)
        out[name] = (sample, extraction_seconds(stderr))
        said = REREAD.search(stderr)
        if said:
            print(f"{name}: {said.group(0)}", file=sys.stderr, flush=True)

    step("cold gen", "gen")
    step("first check", "check")
    step("warm check", "check")
    touch(root, n)
    step("touched check", "check", ok=(1,))
    step("touched gen", "gen")
    step("cold check (touched tree)", "check", "--no-cache", ok=(0,))
    return out


def report(n: int, results: dict[str, tuple[Sample, float | None]]) -> list[str]:
    lines = [f"{n} nodes, one file per node", f"{'step':<28}{'wall s':>9}{'cpu s':>9}"
             f"{'extraction s':>14}"]
    for name, (sample, extraction) in results.items():
        shown = f"{extraction:.2f}" if extraction is not None else "-"
        lines.append(f"{name:<28}{sample.wall:>9.2f}{sample.cpu:>9.2f}{shown:>14}")
    touched, cold = results["touched check"], results["cold check (touched tree)"]
    gen, cold_gen = results["touched gen"], results["cold gen"]
    lines.append(f"touched check / cold check: {touched[0].cpu / cold[0].cpu:.2f} CPU, "
                 f"{touched[0].wall / cold[0].wall:.2f} wall")
    if touched[1] and cold[1]:
        lines.append(f"extraction in touched check / cold check: {touched[1] / cold[1]:.2f} "
                     "(wall until rendering)")
    lines.append(f"touched check / cold gen: {touched[0].cpu / cold_gen[0].cpu:.2f} CPU; "
                 f"gen after it / cold gen: {gen[0].cpu / cold_gen[0].cpu:.2f} CPU")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.incremental")
    parser.add_argument("--nodes", type=int, default=2000, help="catalog size (default 2000)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pygen-incremental-") as tmp:
        print(f"measuring {args.nodes} nodes...", file=sys.stderr, flush=True)
        results = measure(Path(tmp), args.nodes)
    print("\n".join(report(args.nodes, results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
