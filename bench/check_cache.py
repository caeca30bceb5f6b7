"""`pygen check` with unchanged inputs (cache hit) side by side with a cold run (`--no-cache`).

Run with `.venv/bin/python -m bench.check_cache [--runs N]`. Works on a temporary copy of the
embedded example (its config, TypeScript, MCP tools and committed skills), so the repo's own
.pygen-cache is untouched. Prints, median and best of N:

- `pygen check` as a process, cold (`--no-cache`: Node extraction and tool loading) and warm;
- the same check in-process (model, plan, prose lint, orphans, hand edits), cold and warm,
  which is the part the cache governs;
- `python -c "import pygen.cli"`, the interpreter and import cost every process pays.

The target is a warm check under 0.3 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = 0.3


def prepare(root: Path) -> Path:
    """A copy of the example project under root, regenerated so that it is current; returns
    its config file."""
    from pygen.config import load_config

    shutil.copytree(REPO / "examples" / "studio", root / "examples" / "studio",
                    ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    shutil.copytree(REPO / "skills", root / "skills")
    shutil.copyfile(REPO / "pyproject.toml", root / "pyproject.toml")
    config = load_config(root / "pyproject.toml")
    fallback = config.settings.fallback_file
    if fallback and (REPO / fallback).is_file():
        (root / fallback).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / fallback, root / fallback)
    process([sys.executable, "-m", "pygen", "gen", "-q", "--no-cache"], root)()
    return root / "pyproject.toml"


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def process(argv: list[str], cwd: Path) -> Callable[[], object]:
    def go() -> object:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
        # 1 is a finding (stale prose in the copied prose, say), not a failure to measure.
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr}")
        return done

    return go


def in_process(config_file: Path, use_cache: bool) -> Callable[[], object]:
    from pygen.config import load_config
    from pygen.gate import gate as gating
    from pygen.skills import plan as planning
    from pygen.tools import merge

    config = load_config(config_file)

    def go() -> object:
        plan = planning.plan(config, merge.load_model(config, use_cache))
        return gating.gate(config, plan.model, plan.updates)

    return go


def row(name: str, samples: list[float]) -> str:
    return (f"{name:<44} {len(samples):>4} {statistics.median(samples):>9.3f} "
            f"{min(samples):>9.3f}")


def measure(config_file: Path, runs: int) -> list[tuple[str, list[float]]]:
    root = config_file.parent
    cli = [sys.executable, "-m", "pygen", "check", "-q"]
    cold_cli = [timed(process([*cli, "--no-cache"], root)) for _ in range(runs)]
    timed(process(cli, root))  # fills the cache
    warm_cli = [timed(process(cli, root)) for _ in range(runs)]
    imports = [timed(process([sys.executable, "-c", "import pygen.cli"], root))
               for _ in range(runs)]
    cold = [timed(in_process(config_file, False)) for _ in range(runs)]
    warm_check = in_process(config_file, True)
    warm_check()
    warm = [timed(warm_check) for _ in range(runs * 4)]
    return [
        ("pygen check --no-cache (process, cold)", cold_cli),
        ("pygen check (process, cache hit)", warm_cli),
        ("python -c 'import pygen.cli' (process)", imports),
        ("check in-process, cold (Node + tools)", cold),
        ("check in-process, cache hit", warm),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.check_cache")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (default 3)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        results = measure(prepare(Path(tmp)), args.runs)
    print(f"{'seconds':<44} {'runs':>4} {'median':>9} {'best':>9}")
    for name, samples in results:
        print(row(name, samples))
    process_hit = statistics.median(results[1][1])
    inner_hit = statistics.median(results[4][1])
    verdict = "met" if process_hit < TARGET else "not met"
    print(f"target: a cache-hit check under {TARGET} s — {verdict} as a process "
          f"({process_hit:.3f} s); in-process {inner_hit:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
