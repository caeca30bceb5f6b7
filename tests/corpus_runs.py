"""Every corpus project (tests/fixtures/ts/) generated and checked once per test session, as a
user would: `pygen gen` then `pygen check` in a fresh process, in a copy of the project.

Several modules read these runs (the gen/check corpus, the extraction corpus, the init corpus,
the projects shaped like editors in the wild). Running Node once per project for all of them
is most of what the corpus costs, so the copies and their results live in a folder shared by
every xdist worker of the session, each project behind its own file lock: whichever worker
needs a project first runs it, the others read what it recorded. A copy is left as gen and
check left it (skills written, `.pygen-cache/` filled): the extraction corpus reads its model
through that cache, so the Node reply it compares is the one `gen` got.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import filelock
import pytest
from shared_tmp import shared_tmp

CORPUS = Path(__file__).resolve().parent / "fixtures" / "ts"
# The cases meant to run through: an `expected.json` holding an error is meant to stop the run.
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()
               and "error" not in json.loads((p / "expected.json").read_text(encoding="utf-8")))
DEFAULT_CONFIG = 'nodes_file = "nodes.ts"\n'
# Each project is one Python and one Node process, mostly start-up: a few at a time.
WORKERS = 3

# Both commands in one fresh process per project: Python start-up is most of a cached check.
SCRIPT = """
import sys
from click.testing import CliRunner
from pygen.cli import main
for args in (["gen", "-q"], ["check", "-q"]):
    result = CliRunner().invoke(main, args)
    print(result.output)
    print("EXIT", result.exit_code)
    if result.exit_code:
        break
"""


@dataclass(frozen=True)
class Run:
    """What gen then check did in the copy at `root`."""

    root: str
    codes: list[int]  # the exit codes, gen's then check's (check's only if gen passed)
    output: str
    files: list[str]  # the node skill files written
    document: str  # the schema document, "" when none was written


def gen_then_check(root: Path, home: Path) -> Run:
    if not (root / "pygen.toml").is_file():
        (root / "pygen.toml").write_text(DEFAULT_CONFIG, encoding="utf-8")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "HOME": str(home),
           "XDG_CACHE_HOME": str(home / ".cache")}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    codes = [int(line.split()[1]) for line in done.stdout.splitlines()
             if line.startswith("EXIT ")]
    files = sorted(p.name for p in (root / "skills" / "nodes").glob("*.md")
                   if not p.name.startswith("_"))  # nodes/_README.md is for people
    schemas = root / "skills" / "schemas" / "nodes.schema.json"
    document = schemas.read_text(encoding="utf-8") if schemas.is_file() else ""
    return Run(str(root), codes, done.stdout + done.stderr, files, document)


def worker_order(names: list[str]) -> list[str]:
    """The names sorted, the last first on every worker but the first: two workers asking
    for the whole corpus at once mostly take different projects, not wait on each other."""
    return sorted(names, reverse=os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0")


class CorpusRuns:
    """The session's runs, in `shared` (one folder for all workers)."""

    def __init__(self, shared: Path) -> None:
        self.shared = shared
        self.tree = shared / "ts"
        self.home = shared / "home"

    def _copy_tree(self) -> None:
        # Copied whole, with the corpus's shared tsconfig, so each project sits as in the repo.
        with filelock.FileLock(str(self.shared / "tree.lock")):
            if not (self.tree / ".copied").is_file():
                shutil.copytree(CORPUS, self.tree, ignore=shutil.ignore_patterns("expected.*"))
                self.home.mkdir(exist_ok=True)
                (self.tree / ".copied").write_text("", encoding="utf-8")

    def run(self, name: str) -> Run:
        """Gen then check on the copy of `name`, run once in the session."""
        assert name in CASES, f"{name}: an error case is not meant to run through"
        self._copy_tree()
        record = self.shared / f"{name}.run.json"
        with filelock.FileLock(str(self.shared / f"{name}.lock")):
            if not record.is_file():
                done = gen_then_check(self.tree / name, self.home)
                record.write_text(json.dumps(asdict(done)), encoding="utf-8")
        return Run(**json.loads(record.read_text(encoding="utf-8")))

    def runs(self, names: list[str]) -> dict[str, Run]:
        """Several at a time, in this worker's order."""
        order = worker_order(names)
        with ThreadPoolExecutor(WORKERS) as pool:
            done = dict(zip(order, pool.map(self.run, order), strict=True))
        return {name: done[name] for name in names}


def shared_runs(factory: pytest.TempPathFactory) -> CorpusRuns:
    """The session's CorpusRuns, in the folder all workers share."""
    return CorpusRuns(shared_tmp(factory, "corpus-runs"))
