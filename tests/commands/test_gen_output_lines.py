"""A large catalog's run stays a screenful: every warning and contradiction goes through the
one-line-per-kind summary and gen lists its files one line per status, through the real CLI
(the 2,000-node catalog printed 3,955 lines); `--verbose` still says each of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bench.synth import write_flat

NODES = 25


def _pygen(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYGEN_")}
    return subprocess.run([sys.executable, "-m", "pygen", *argv], cwd=root, env=env, text=True,
                          capture_output=True, timeout=300, check=False)


def test_a_large_catalog_prints_a_line_per_kind_and_verbose_prints_each(tmp_path: Path) -> None:
    write_flat(tmp_path, NODES)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    gen = _pygen(tmp_path, "gen")
    assert gen.returncode == 0, gen.stderr
    lines = gen.stdout.splitlines() + gen.stderr.splitlines()
    assert len(lines) <= 10, lines
    warnings = gen.stderr.splitlines()
    assert warnings and all(w.startswith("warning: ") and " times: " in w and
                            w.endswith("--verbose lists all)") for w in warnings), warnings
    assert gen.stdout.splitlines()[-1] == f"{NODES + 4} created, 0 updated, 0 unchanged"
    # The check after it says the same warnings the same way, and --verbose each of them.
    check = _pygen(tmp_path, "check")
    assert check.returncode == 0 and check.stderr.splitlines() == warnings
    verbose = _pygen(tmp_path, "check", "--verbose")
    assert verbose.returncode == 0
    counted = sum(int(w.split(" — ")[1].split(" times")[0]) for w in warnings)
    said = [line for line in verbose.stderr.splitlines() if line.startswith("warning: ")]
    assert len(said) == counted > len(warnings)
