"""`kill -9` at random points of `pygen gen`, the rename phase included, then the next run.

Run with `.venv/bin/python -m bench.kill_gen [--rounds N] [--seed S]`. Works on a temporary
copy of the embedded example whose node descriptions alternate between two variants, so
every round's `gen` replaces the whole set (node files, guide, index, schema document). Each
round kills one `gen` (its renames slowed by a few ms so a kill can land between them): half
the rounds at a random moment of the run, half after a random number of renames. Then:

1. `pygen check` must not pass while a set is unfinished (it reports the journal), run
   whenever the set on disk is not the new one or a journal is there;
2. the recovery every writing run starts with (pygen.commands.common.writing) runs alone:
   the set must be whole, the old variant's or the new one's, with no temp file left;
3. the next `pygen gen` runs: the set must be the new variant's, nothing left behind, and
   (every tenth round) `pygen check` exit 0.

Prints, per outcome, how many rounds: killed mid-rename (a mixed set on disk), mixed after
recovery, files left behind after the next run, checks fooled. The targets are 0 of each.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NODES = "examples/studio/src/types/nodes.ts"
CONFIG = """\
nodes_file = "examples/studio/src/types/nodes.ts"
tsconfig = "examples/studio/tsconfig.json"
skills_dir = "skills"
tools = ["python:examples.studio.tools.studio_tools:build_server"]
conventions = { mapping_field = "fieldMappings", mapping_required = true, \
label_key = "data.label", editor_fills_defaults = true }
"""
CHILD = """
import sys, time
from pygen import files
real = files._rename
def slow(src, dst):
    real(src, dst)
    print("renamed", flush=True)
    time.sleep(0.004)
files._rename = slow
from pygen.cli import main
main(["gen", "-q"])
"""


def env() -> dict[str, str]:
    # A pinned stamp: the two variants' sets are then the same bytes in every round.
    return {**os.environ, "PYTHONPATH": str(REPO), "SOURCE_DATE_EPOCH": "1700000000"}


def pygen(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pygen", *argv], cwd=project, env=env(),
                          capture_output=True, text=True, timeout=300, check=False)


def set_variant(project: Path, source: str, variant: str) -> None:
    text = re.sub(r'(description: "[^"]*)"', rf'\1 {variant}"', source)
    (project / NODES).write_text(text)


def skill_set(project: Path) -> dict[str, bytes]:
    skills = project / "skills"
    return {str(p.relative_to(skills)): p.read_bytes() for p in sorted(skills.rglob("*"))
            if p.is_file() and not p.name.endswith(".pygen-tmp")
            and p.name != ".pygen-journal.json"}


def leftovers(project: Path) -> list[Path]:
    return [p for p in project.rglob("*") if p.name.endswith(".pygen-tmp")
            or p.name == ".pygen-journal.json"]


def prepare(root: Path) -> tuple[Path, str, dict[str, dict[str, bytes]]]:
    project = root / "p"
    shutil.copytree(REPO / "examples" / "studio", project / "examples" / "studio",
                    ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    shutil.copytree(REPO / "skills", project / "skills",
                    ignore=shutil.ignore_patterns("nodes", "schemas"))
    (project / "pygen.toml").write_text(CONFIG)
    source = (project / NODES).read_text()
    sets = {}
    for variant in ("(B)", "(A)"):
        set_variant(project, source, variant)
        done = pygen(project, "gen", "-q")
        assert done.returncode == 0, done.stderr
        sets[variant] = skill_set(project)
    return project, source, sets


def kill_one(project: Path, by_time: float | None, after: int) -> int:
    """Start `gen`, kill it at `by_time` seconds or after `after` renames; renames seen."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=project, env=env(),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    seen = 0
    if by_time is not None:
        time.sleep(by_time)
    else:
        while seen < after:
            line = child.stdout.readline()
            if not line:
                break
            seen += line.startswith("renamed")
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    return seen


def recover_only(project: Path) -> None:
    from pygen.commands.common import writing
    from pygen.config import load_config

    with writing(load_config(project / "pygen.toml")):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.kill_gen")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts = {"killed mid-rename": 0, "mixed after recovery": 0, "check fooled": 0,
              "mixed after next gen": 0, "left behind after next gen": 0,
              "check not green after next gen": 0, "recovered by finishing": 0}
    with tempfile.TemporaryDirectory() as tmp:
        project, source, sets = prepare(Path(tmp))
        start = time.perf_counter()
        full = pygen(project, "gen", "-q")  # (A) again: unchanged, for the run's length
        length = time.perf_counter() - start + 1.0
        assert full.returncode == 0, full.stderr
        files = len(sets["(A)"])
        for index in range(args.rounds):
            old, new = ("(A)", "(B)") if index % 2 == 0 else ("(B)", "(A)")
            assert skill_set(project) == sets[old]
            set_variant(project, source, new)
            by_time = rng.uniform(0.2, length) if index % 4 < 2 else None
            kill_one(project, by_time, rng.randint(1, files))
            now = skill_set(project)
            counts["killed mid-rename"] += now not in (sets[old], sets[new])
            journal = (project / "skills" / ".pygen-journal.json").exists()
            if now != sets[new] or journal:  # (a check on a whole new set may pass)
                check = pygen(project, "check")
                counts["check fooled"] += check.returncode == 0
            recover_only(project)
            after = skill_set(project)
            counts["mixed after recovery"] += after not in (sets[old], sets[new])
            counts["recovered by finishing"] += journal and after == sets[new]
            done = pygen(project, "gen", "-q")
            counts["mixed after next gen"] += skill_set(project) != sets[new] \
                or done.returncode != 0
            left = leftovers(project)
            counts["left behind after next gen"] += bool(left)
            for path in left:
                print(f"  left: {path.relative_to(project)}", flush=True)
            if index % 10 == 9:  # the slowest step: sampled
                counts["check not green after next gen"] += \
                    pygen(project, "check").returncode != 0
            print(f"round {index + 1}/{args.rounds}: " + ", ".join(
                f"{k} {v}" for k, v in counts.items()), flush=True)
    print(f"{args.rounds} rounds, {files} skill files a set:")
    for key, value in counts.items():
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
