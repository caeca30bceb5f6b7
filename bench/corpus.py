"""pygen on real public editors, pinned: how many nodes it finds and whether gen/check pass.

`python -m bench.corpus --checkouts DIR [--only NAME] [--update] [--init]`

`bench/corpus.toml` lists the editors: repository, pinned commit, the pygen config for it
(paths relative to the checkout), the node count a person counted by reading the code, and the
counts pygen gave when the entry was last updated. CI cannot fetch, so this is a benchmark,
not a test, and none of those editors' code lives in this repository.

DIR holds one checkout per entry, named `<owner>+<name>`, at the pinned commit (`git rev-parse
HEAD`, or a `.commit` file holding the hash for an exported tree): clone owner/name into
DIR/owner+name and check out the pinned commit. The checkout is never
written to: each run works in a hard-linked copy (a plain copy across file systems), so pygen
sees the config at the project root as a user's repository has it, and the skills, cache and
config it writes vanish with the copy.

Per editor: `pygen extract --json`, `pygen gen`, `pygen check`, through the CLI of the Python
running this. Printed: nodes found / counted by hand, the share of nodes whose data type was
declared (not inferred from default data), warnings, gen and check exit codes, wall seconds of
the three commands and the peak RSS of the largest process among them. Exit 1 when a result
differs from the manifest's `expected`; `--update` writes the new results there instead.
Without `--checkouts`, `$PYGEN_CORPUS` is used; with neither, nothing runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).with_name("corpus.toml")
KEYS = {"repo", "commit", "shape", "config", "true_nodes", "expected", "notes", "init_expected",
        "init_notes"}
OPTIONAL = {"notes", "init_expected", "init_notes"}
EXPECTED = ("nodes", "gen", "check")


class ManifestError(Exception):
    """The manifest is malformed; the message names the entry and the key."""


@dataclass(frozen=True)
class Entry:
    repo: str
    commit: str
    shape: str
    config: dict[str, Any]
    true_nodes: int
    expected: dict[str, int]
    notes: str = ""
    # What `pygen init` with no flags gave (bench/corpus_init.py): nodes, exit codes, source.
    init_expected: dict[str, int | str] | None = None

    @property
    def folder(self) -> str:
        return self.repo.replace("/", "+")

    def matches(self, name: str) -> bool:
        return name in (self.repo, self.repo.split("/")[1], self.folder)


@dataclass
class Result:
    entry: Entry
    skipped: str | None = None
    nodes: int | None = None
    typed: int = 0
    warnings: int = 0
    gen: int | None = None
    check: int | None = None
    seconds: float = 0.0
    peak_kb: int = 0
    errors: list[str] = field(default_factory=list)

    def actual(self) -> dict[str, int]:
        """What the manifest's `expected` holds: -1 for a count or exit code there is none of."""
        return {k: -1 if v is None else v
                for k, v in (("nodes", self.nodes), ("gen", self.gen), ("check", self.check))}

    def drifted(self) -> bool:
        return self.skipped is None and self.actual() != dict(self.entry.expected)


def _entry(raw: dict[str, Any], where: str) -> Entry:
    unknown = set(raw) - KEYS
    if unknown:
        raise ManifestError(f"{where}: unknown key {sorted(unknown)[0]!r}; known: {sorted(KEYS)}")
    missing = sorted(KEYS - OPTIONAL - set(raw))
    if missing:
        raise ManifestError(f"{where}: missing key {missing[0]!r}")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", raw["repo"]):
        raise ManifestError(f"{where}: repo {raw['repo']!r} is not owner/name")
    if not re.fullmatch(r"[0-9a-f]{40}", raw["commit"]):
        raise ManifestError(f"{where}: commit {raw['commit']!r} is not 40 hex digits")
    if not isinstance(raw["config"], dict) or "nodes_file" not in raw["config"]:
        raise ManifestError(f"{where}: config must be a table with at least nodes_file")
    expected = raw["expected"]
    if not isinstance(expected, dict) or sorted(expected) != sorted(EXPECTED):
        raise ManifestError(f"{where}: expected must be {{ nodes, gen, check }}")
    return Entry(repo=raw["repo"], commit=raw["commit"], shape=str(raw["shape"]),
                 config=raw["config"], true_nodes=int(raw["true_nodes"]),
                 expected={k: int(expected[k]) for k in EXPECTED}, notes=raw.get("notes", ""),
                 init_expected=raw.get("init_expected"))


def parse_manifest(text: str, source: str = "corpus.toml") -> list[Entry]:
    """The entries of a manifest, in order; one ManifestError for the first bad one."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{source}: {exc}") from None
    entries = [_entry(raw, f"{source}: repo #{i + 1} ({raw.get('repo', '?')})")
               for i, raw in enumerate(data.get("repo", []))]
    seen: set[str] = set()
    for entry in entries:
        if entry.repo in seen:
            raise ManifestError(f"{source}: {entry.repo} is listed twice")
        seen.add(entry.repo)
    return entries


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}"
                                for k, v in value.items()) + " }"
    raise ManifestError(f"config value {value!r} cannot be written as TOML")


def config_text(config: dict[str, Any]) -> str:
    """A pygen.toml holding the entry's config (top-level keys, as pygen.toml takes them)."""
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in config.items())


def checkout_commit(checkout: Path) -> str | None:
    """The commit a checkout is at: its `.commit` file, else `git rev-parse HEAD`."""
    marker = checkout / ".commit"
    if marker.is_file():
        return marker.read_text().strip()
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def copy_checkout(checkout: Path, dest: Path) -> None:
    """A copy pygen may write into without touching the checkout: hard links, else copies.

    pygen writes files whole (a new file renamed over the old), so a hard-linked file is
    replaced in the copy, never changed in place. `.git` is left out: pygen reads it only for
    the `generated_from` hash in the skills it writes, which this benchmark does not look at.
    """
    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(checkout, dest, symlinks=True, copy_function=link,
                    ignore=shutil.ignore_patterns(".git"))


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_kb: int


def run_pygen(args: Sequence[str], cwd: Path) -> Run:
    """One pygen command through its CLI; wait4 gives this process's own peak RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "pygen", *args], cwd=cwd,
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"), seconds, usage.ru_maxrss)


def read_model(result: Result, run: Run) -> None:
    """Node count, typed share and warnings from `extract --json`, or the error it printed."""
    if run.code != 0:
        result.errors.append(f"extract exit {run.code}: {_last_line(run.stderr)}")
        return
    model = json.loads(run.stdout)
    nodes = model["nodes"]
    result.nodes = len(nodes)
    result.typed = sum(1 for n in nodes
                       if (n.get("data_type") or {}).get("via") not in (None, "none", "inferred"))
    result.warnings = len(model.get("diagnostics", []))


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "(no output)"


def measure(entry: Entry, checkout: Path) -> Result:
    """extract, gen and check in a throwaway copy of the checkout."""
    result = Result(entry)
    with tempfile.TemporaryDirectory(dir=checkout.parent, prefix=".corpus-") as tmp:
        project = Path(tmp) / entry.folder
        copy_checkout(checkout, project)
        config = project / "pygen.toml"
        # A hard link shares the checkout's file: unlink it rather than write through it.
        config.unlink(missing_ok=True)
        config.write_text(config_text(entry.config))
        runs: list[Run] = []
        for command in (["extract", "--json"], ["gen"], ["check"]):
            run = run_pygen([*command, "--config", str(config)], project)
            runs.append(run)
            if command[0] == "extract":
                read_model(result, run)
            elif run.code != 0:
                result.errors.append(f"{command[0]} exit {run.code}: {_last_line(run.stderr)}")
        result.gen, result.check = runs[1].code, runs[2].code
        result.seconds = sum(r.seconds for r in runs)
        result.peak_kb = max(r.peak_kb for r in runs)
    return result


def unusable(entry: Entry, checkout: Path) -> str | None:
    """Why a checkout cannot be measured (missing, or at another commit), or None."""
    if not checkout.is_dir():
        return f"no checkout at {checkout}"
    commit = checkout_commit(checkout)
    if commit != entry.commit:
        return (f"checkout is at {commit or 'an unknown commit'}, "
                f"the manifest pins {entry.commit[:12]}")
    return None


def run_entry(entry: Entry, checkouts: Path) -> Result:
    checkout = checkouts / entry.folder
    skipped = unusable(entry, checkout)
    return Result(entry, skipped=skipped) if skipped else measure(entry, checkout)


HEADER = ("repo", "shape", "nodes/true", "typed", "warn", "gen", "check", "secs", "peak MB")


def row(result: Result) -> tuple[str, ...]:
    entry = result.entry
    shape = entry.shape if len(entry.shape) <= 36 else entry.shape[:35] + "…"
    if result.skipped is not None:
        return (entry.repo, shape, "skipped", "", "", "", "", "", "")
    found = "-" if result.nodes is None else str(result.nodes)
    typed = f"{100 * result.typed // result.nodes}%" if result.nodes else "-"
    return (entry.repo, shape, f"{found}/{entry.true_nodes}", typed, str(result.warnings),
            str(result.gen), str(result.check), f"{result.seconds:.1f}",
            str(result.peak_kb // 1024))


def aligned(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    """The header and rows as lines of left-aligned columns."""
    every = [header, *rows]
    widths = [max(len(r[i]) for r in every) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
            for r in every]


def table(results: Sequence[Result]) -> str:
    """The results as an aligned text table, skips and differences from expected listed below."""
    lines = aligned(HEADER, [row(r) for r in results])
    for result in results:
        name = result.entry.repo
        if result.skipped is not None:
            lines.append(f"{name}: skipped: {result.skipped}")
        lines.extend(f"{name}: {error}" for error in result.errors)
        if result.drifted():
            lines.append(f"{name}: expected {result.entry.expected}, got {result.actual()}")
    return "\n".join(lines)


def update_text(text: str, results: Sequence[Result]) -> str:
    """The manifest with each measured entry's `expected` line set to what it measured."""
    fresh = {r.entry.repo: r.actual() for r in results if r.skipped is None}
    lines, repo = text.splitlines(keepends=True), None
    for i, line in enumerate(lines):
        found = re.match(r'\s*repo\s*=\s*"([^"]+)"', line)
        if found:
            repo = found.group(1)
        elif re.match(r"\s*expected\s*=", line) and repo in fresh:
            values = ", ".join(f"{k} = {v}" for k, v in fresh[repo].items())
            lines[i] = f"expected = {{ {values} }}\n"
    return "".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--checkouts", type=Path, default=os.environ.get("PYGEN_CORPUS"),
                        help="folder of <owner>+<name> checkouts (default: $PYGEN_CORPUS)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run this entry only (owner/name or name; repeatable)")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--update", action="store_true",
                        help="write the measured counts into the manifest's expected")
    parser.add_argument("--init", action="store_true",
                        help="run `pygen init` with no flags instead of the manifest's config, "
                             "then extract, gen and check (compared with init_expected)")
    args = parser.parse_args(argv)
    if args.checkouts is None:
        print("corpus: no --checkouts and no $PYGEN_CORPUS; nothing to run")
        return 0
    try:
        entries = parse_manifest(args.manifest.read_text(), str(args.manifest))
    except ManifestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unknown = [name for name in args.only if not any(e.matches(name) for e in entries)]
    if unknown:
        print(f"error: {unknown[0]} is not in {args.manifest}", file=sys.stderr)
        return 2
    chosen = [e for e in entries if not args.only or any(e.matches(n) for n in args.only)]
    if args.init:
        return _run_init(chosen, args.checkouts.resolve(), args.manifest, args.update)
    results = []
    for entry in chosen:
        print(f"… {entry.repo}", file=sys.stderr, flush=True)
        results.append(run_entry(entry, args.checkouts.resolve()))
    print(table(results))
    if args.update:
        args.manifest.write_text(update_text(args.manifest.read_text(), results))
        return 0
    return 1 if any(r.drifted() for r in results) else 0


def _run_init(chosen: Sequence[Entry], checkouts: Path, manifest: Path, update: bool) -> int:
    from bench import corpus_init

    results = []
    for entry in chosen:
        print(f"… {entry.repo} (init)", file=sys.stderr, flush=True)
        results.append(corpus_init.run_entry(entry, checkouts))
    print(corpus_init.table(results))
    if update:
        manifest.write_text(corpus_init.update_text(manifest.read_text(), results))
        return 0
    return 1 if any(r.drifted() for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
