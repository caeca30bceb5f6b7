"""Saved workflows nobody here wrote, validated against their own editor's catalog.

`python -m bench.saved_corpora --checkouts DIR [--only NAME] [--sample N]`

`bench/saved_corpora.toml` lists the corpora: the editor (a repo of bench/corpus.toml, whose
pinned commit and config are used; DIR is laid out as bench/corpus.py says), the globs of the
saved workflows inside that checkout, config keys added to the entry's (a load step, say), and
the numbers the last run gave. Per corpus, in a throwaway copy of the checkout: `pygen gen`
and `pygen check` (their exit codes), then every workflow validated against the schema
document gen wrote, as `pygen validate-workflow --schemas` does. Printed: workflows, workflows
with an error, and per rule the errors, warnings and notes (`info`). `--sample N` prints N
findings drawn with a fixed seed, to judge by hand; verdicts are kept in
`bench/saved_verdicts.toml`.

A benchmark, not a test: CI cannot fetch the editors, and none of their files live here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.corpus import (
    MANIFEST as CORPUS_MANIFEST,
)
from bench.corpus import (
    Entry,
    config_text,
    copy_checkout,
    parse_manifest,
    run_pygen,
    unusable,
)
from pygen.validation.catalog import load_catalog_file
from pygen.validation.findings import Finding
from pygen.validation.workflow import validate_workflow

MANIFEST = Path(__file__).with_name("saved_corpora.toml")


@dataclass
class Outcome:
    name: str
    skipped: str | None = None
    gen: int | None = None
    check: int | None = None
    workflows: int = 0
    flagged: int = 0
    # rule -> Counter of levels
    rules: dict[str, Counter[str]] = field(default_factory=dict)
    findings: list[tuple[str, Finding]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _corpora(path: Path) -> list[dict[str, Any]]:
    return list(tomllib.loads(path.read_text()).get("corpus", []))


def _entry(repo: str, entries: Sequence[Entry]) -> Entry:
    found = next((e for e in entries if e.repo == repo), None)
    if found is None:
        raise SystemExit(f"{MANIFEST.name}: {repo} is not an entry of {CORPUS_MANIFEST.name}")
    return found


def measure(corpus: dict[str, Any], entry: Entry, checkouts: Path) -> Outcome:
    out = Outcome(corpus["name"])
    checkout = checkouts / entry.folder
    out.skipped = unusable(entry, checkout)
    if out.skipped:
        return out
    config = {**entry.config, **corpus.get("config", {})}
    with tempfile.TemporaryDirectory(dir=checkout.resolve().parent, prefix=".saved-") as tmp:
        project = Path(tmp) / entry.folder
        copy_checkout(checkout, project)
        toml = project / "pygen.toml"
        toml.unlink(missing_ok=True)
        toml.write_text(config_text(config))
        for command in ("gen", "check"):
            done = run_pygen([command, "--config", str(toml)], project)
            setattr(out, command, done.code)
            if done.code:
                out.problems.append(f"{command}: {done.stderr.strip().splitlines()[-1:]}")
        schemas = project / config.get("skills_dir", "skills") / "schemas" / "nodes.schema.json"
        catalog = load_catalog_file(schemas)
        paths = sorted({p for glob in corpus["workflows"] for p in project.glob(glob)})
        for path in paths:
            shown = path.relative_to(project).as_posix()
            found = validate_workflow(json.loads(path.read_bytes()), catalog)
            out.workflows += 1
            out.flagged += any(f.level == "error" for f in found)
            for finding in found:
                out.rules.setdefault(finding.rule, Counter())[finding.level] += 1
                out.findings.append((shown, finding))
    return out


def table(outcome: Outcome) -> str:
    if outcome.skipped:
        return f"{outcome.name}: skipped ({outcome.skipped})"
    lines = [f"{outcome.name}: gen {outcome.gen}, check {outcome.check}; "
             f"{outcome.flagged} of {outcome.workflows} workflows have an error",
             *(f"  {p}" for p in outcome.problems),
             f"  {'rule':<28} {'errors':>7} {'warnings':>9} {'notes':>6}"]
    for rule, levels in sorted(outcome.rules.items()):
        lines.append(f"  {rule:<28} {levels['error']:>7} {levels['warning']:>9} "
                     f"{levels['info']:>6}")
    return "\n".join(lines)


def sample(outcome: Outcome, n: int) -> str:
    drawn = random.Random(32).sample(outcome.findings, min(n, len(outcome.findings)))
    return "\n".join(f"  {shown}: {f.level} [{f.rule}] {f}" for shown, f in drawn)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.saved_corpora")
    parser.add_argument("--checkouts", type=Path, default=os.environ.get("PYGEN_CORPUS"))
    parser.add_argument("--only")
    parser.add_argument("--sample", type=int, default=0)
    args = parser.parse_args(argv)
    if args.checkouts is None:
        print("no --checkouts and no $PYGEN_CORPUS: nothing to run", file=sys.stderr)
        return 0
    entries = parse_manifest(CORPUS_MANIFEST.read_text())
    for corpus in _corpora(MANIFEST):
        if args.only and args.only != corpus["name"]:
            continue
        outcome = measure(corpus, _entry(corpus["repo"], entries), args.checkouts)
        print(table(outcome))
        if args.sample:
            print(sample(outcome, args.sample))
    return 0


if __name__ == "__main__":
    sys.exit(main())
