"""Edits made while `pygen check` runs: does the next check ever pass on stale skills?

Run with `.venv/bin/python -m bench.edit_during_check [--trials N] [--seed S]`. On a tiny
project in a temporary folder, each trial makes a harmless edit (so the check that follows
reads everything again and passes), starts `pygen check`, and at a random moment of its run
(uniform over 1.2 times a measured full check) makes an edit that leaves the skills stale:
a source's type changed, or a generated line of a skill file edited by hand. When the check
has ended, `pygen check` (through the memo) and `pygen check --no-cache` run on the same
tree (the latter only when the memo passes: the tree is stale by construction): a false
green is the memo passing where the run without it fails. The edit is then undone. The
target is 0 false greens; the tests run a few trials of the same
(tests/gate/test_edit_during_check.py).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

NODES_TS = """\
import { Mode } from "./modes";
export interface PromptData {
  text: string;
  mode: Mode;
}
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"],
    defaultData: { text: "", mode: "fast" } },
];
"""
# Harmless: a comment the skills do not show (a new one each trial, so the check reads).
MODES_TS = 'export type Mode = "fast" | "slow";\n// edit {n}\n'
STALE_MODES_TS = 'export type Mode = "fast" | "slow" | "edited";\n'
SKILL = Path("skills") / "nodes" / "prompt.md"


def pygen(root: Path, *args: str, timeout: float = 600) -> int:
    return subprocess.run([sys.executable, "-m", "pygen", *args], cwd=root,
                          capture_output=True, timeout=timeout, check=False).returncode


def start(root: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "pygen", *args], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_project(root: Path) -> Path:
    """The project, generated and checked (both exit 0)."""
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS)
    (root / "src" / "modes.ts").write_text(MODES_TS.format(n=0))
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    for args in (("gen", "-q"), ("check", "-q")):
        if pygen(root, *args) != 0:
            raise RuntimeError(f"pygen {' '.join(args)} failed in {root}")
    return root


def full_check_seconds(root: Path) -> float:
    """How long a check takes that reads everything again (after a harmless edit)."""
    (root / "src" / "modes.ts").write_text(MODES_TS.format(n=-1))
    began = time.monotonic()
    pygen(root, "check", "-q")
    return time.monotonic() - began


@dataclass(frozen=True)
class Trial:
    target: str  # "source" or "skill"
    delay: float
    running: int  # the exit of the check the edit was made during
    memo: int  # the next check's, through the memo
    truth: int  # `check --no-cache` on the same tree

    @property
    def false_green(self) -> bool:
        return self.memo == 0 and self.truth != 0


def trial(root: Path, n: int, rng: random.Random, window: float,
          earliest: float = 0.0, confirm: bool = False) -> Trial:
    """One edit during a check (`earliest` to `window` seconds after it starts), then the
    memo's answer and the truth (`confirm`: from `--no-cache` even when the memo fails)."""
    modes, skill = root / "src" / "modes.ts", root / SKILL
    clean_skill = skill.read_text()
    target = rng.choice(["source", "skill"])
    modes.write_text(MODES_TS.format(n=n))
    delay = rng.uniform(earliest, window)
    running = start(root, "check", "-q")
    time.sleep(delay)
    if target == "source":
        modes.write_text(STALE_MODES_TS)
    else:
        skill.write_text(clean_skill.replace("- **Type:**", "- **Kind:**", 1))
    code = running.wait(timeout=600)
    memo = pygen(root, "check", "-q")
    # The tree is stale by construction (exit 1); the run without caches confirms a pass.
    truth = pygen(root, "check", "-q", "--no-cache") if memo == 0 or confirm else 1
    # Undo the edit: the skills are current again.
    modes.write_text(MODES_TS.format(n=n))
    skill.write_text(clean_skill)
    return Trial(target, delay, code, memo, truth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp) / "project")
        window = 1.2 * full_check_seconds(root)
        print(f"seed {args.seed}, full check {window / 1.2:.2f} s, edits within "
              f"{window:.2f} s", flush=True)
        results = []
        for n in range(1, args.trials + 1):
            found = trial(root, n, rng, window)
            results.append(found)
            if found.false_green or n % 20 == 0:
                print(f"trial {n}: {found}" if found.false_green else
                      f"{n} trials, {sum(r.false_green for r in results)} false greens",
                      flush=True)
    greens = [r for r in results if r.false_green]
    disagree = [r for r in results if r.memo != r.truth]
    during = [r for r in results if r.running == 0]
    print(f"{len(results)} trials (pid {os.getpid()}): {len(greens)} false greens, "
          f"{len(disagree)} memo/--no-cache disagreements; the check run during the edit "
          f"exited 0 in {len(during)} (it read the files before the edit)")


if __name__ == "__main__":
    main()
