"""Real saved workflows against a real catalog: every finding on a workflow someone built and
ran is a defect of that file or a pygen bug.

`python -m bench.real_workflows --corpus DIR [--sample 300] [--seed 32]
[--records FILE | --n8n-version V] [--tools] [--verdicts bench/workflow_verdicts.toml] [--draw 30]`

The corpora are pinned in bench/workflow_corpora.toml (repository, commit, the glob of its
workflow files); DIR holds each checkout under `<owner>+<name>`. Nothing of them is copied
into this repo. The catalog is n8n's, built as bench/real_catalogs.py builds it (the published
n8n-nodes-base package run in a bounded child Node process); `--records` reuses a loader run
saved as JSON. A seeded sample of the workflows whose every node is an n8n-nodes-base node is
validated under the default profile.

Prints, per rule: errors, warnings and the workflows each flags; then the workflows flagged by
an error, and `--draw` errors drawn at random (seeded) to judge by hand. A verdicts file
(`[[verdict]]` tables: corpus, file, rule, path, verdict = "true"|"false", why) is matched
against this run's findings: each verdict still found, and each no longer found, is listed,
so a rule change shows which verdicts it flips.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import real_catalogs
from pygen.model import Model
from pygen.validation.catalog import Catalog, build_catalog
from pygen.validation.findings import Finding
from pygen.validation.workflow import validate_workflow

MANIFEST = Path(__file__).with_name("workflow_corpora.toml")
PACKAGE = "n8n-nodes-base."


@dataclass(frozen=True, eq=False)
class Saved:
    corpus: str
    file: str
    workflow: dict[str, Any]


def corpora(manifest: Path) -> list[dict[str, str]]:
    return list(tomllib.loads(manifest.read_text(encoding="utf-8"))["corpus"])


def base_only(workflow: object) -> bool:
    """A workflow whose every node is from n8n-nodes-base (the catalog this bench reads)."""
    if not isinstance(workflow, dict) or not isinstance(workflow.get("nodes"), list):
        return False
    nodes = workflow["nodes"]
    return bool(nodes) and all(isinstance(n, dict) and str(n.get("type", "")).startswith(PACKAGE)
                               for n in nodes)


def uses_tools(workflow: object) -> bool:
    """A workflow with a `…Tool` variant of a base node (`--tools`): its agent and model nodes
    are of other packages, so findings on those nodes' types are left out of the counts."""
    nodes = workflow.get("nodes") if isinstance(workflow, dict) else None
    return isinstance(nodes, list) and any(
        isinstance(n, dict) and str(n.get("type", "")).startswith(PACKAGE)
        and str(n.get("type")).endswith("Tool") for n in nodes)


def own_findings(saved: Saved, found: list[Finding]) -> list[Finding]:
    """The findings that speak of base nodes: an unknown type of another package is not this
    catalog's (`--tools` samples workflows that have such nodes)."""
    nodes = saved.workflow.get("nodes") or []
    other = {f"$.nodes[{i}].type" for i, n in enumerate(nodes)
             if isinstance(n, dict) and not str(n.get("type", "")).startswith(PACKAGE)}
    return [f for f in found if not (f.rule == "unknown-node-type" and f.path in other)]


def load_saved(root: Path, entries: list[dict[str, str]],
               keep: Callable[[object], bool] = base_only) -> list[Saved]:
    out: list[Saved] = []
    for entry in entries:
        checkout = root / entry["repo"].replace("/", "+")
        for path in sorted(checkout.glob(entry["glob"])):
            try:
                workflow = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if keep(workflow):
                out.append(Saved(entry["repo"], str(path.relative_to(checkout)), workflow))
    return out


def n8n_catalog(records_file: Path | None, cache: Path,
                version: str | None = None) -> Catalog:
    if records_file is not None:
        records = json.loads(records_file.read_text(encoding="utf-8"))
    else:
        # A pinned release: the latest package can name dependencies the registry lacks.
        package = real_catalogs.install_release(cache, version) if version else \
            real_catalogs.install(cache, "n8n")
        records, _, _ = real_catalogs.run_loader("n8n", package)
    found = real_catalogs.tally("n8n", real_catalogs.named("n8n", records))
    return build_catalog(Model(nodes=tuple(found.nodes), conventions=real_catalogs.SAVED["n8n"]))


def per_rule(results: dict[Saved, list[Finding]]) -> None:
    by_level: dict[str, Counter[str]] = {"error": Counter(), "warning": Counter(),
                                         "info": Counter()}
    flagged: defaultdict[str, set[str]] = defaultdict(set)
    for saved, found in results.items():
        for f in found:
            by_level.setdefault(f.level, Counter())[f.rule] += 1
            if f.level == "error":
                flagged[f.rule].add(saved.file)
    errors, warnings, notes = by_level["error"], by_level["warning"], by_level["info"]
    print(f"  {'rule':28} {'errors':>7} {'warnings':>9} {'notes':>6} {'workflows (error)':>18}")
    for rule in sorted(set(errors) | set(warnings) | set(notes), key=lambda r: (-errors[r], r)):
        print(f"  {rule:28} {errors[rule]:7} {warnings[rule]:9} {notes[rule]:6} "
              f"{len(flagged[rule]):18}")
    bad = sum(any(f.level == "error" for f in found) for found in results.values())
    print(f"  workflows flagged by an error: {bad} of {len(results)} "
          f"({100 * bad / max(len(results), 1):.1f}%)")


def drawn(results: dict[Saved, list[Finding]], count: int, seed: int) -> None:
    errors = [(s, f) for s, found in results.items() for f in found if f.level == "error"]
    pick = random.Random(seed).sample(errors, min(count, len(errors)))
    print(f"  {len(pick)} errors drawn at random (seed {seed}), to judge by hand:")
    for saved, f in pick:
        print(f"    {saved.file} | {f.rule} | {f.path} | {f.message[:160]}")


def verdicts(results: dict[Saved, list[Finding]], path: Path) -> None:
    if not path.is_file():
        return
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("verdict", [])
    now = {(s.corpus, s.file, f.rule, f.path) for s, found in results.items() for f in found}
    sampled = {(s.corpus, s.file) for s in results}
    kept = flipped = 0
    judged: Counter[str] = Counter()
    for v in table:
        if (v["corpus"], v["file"]) not in sampled:
            continue
        still = (v["corpus"], v["file"], v["rule"], v["path"]) in now
        judged[v["verdict"]] += still
        kept += still
        flipped += not still
        if not still:
            print(f"    no longer found ({v['verdict']} finding): {v['file']} {v['rule']} "
                  f"{v['path']}")
    print(f"  verdicts: {kept} still found ({judged['true']} true, {judged['false']} false), "
          f"{flipped} no longer found (of {len(table)} in {path.name})")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.real_workflows")
    parser.add_argument("--corpus", type=Path, required=True,
                        help="the folder holding each pinned checkout as <owner>+<name>")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--draw", type=int, default=30)
    parser.add_argument("--records", type=Path, help="a saved n8n loader run (JSON list)")
    parser.add_argument("--n8n-version", help="read this n8n-nodes-base release (default: latest)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pygen-bench")
    parser.add_argument("--tools", action="store_true", help="sample the workflows that use "
                        "a …Tool variant of a base node instead (their other nodes' types "
                        "are not judged)")
    parser.add_argument("--verdicts", type=Path,
                        default=Path(__file__).with_name("workflow_verdicts.toml"))
    args = parser.parse_args()
    saved = load_saved(args.corpus, corpora(args.manifest),
                       uses_tools if args.tools else base_only)
    sample = random.Random(args.seed).sample(saved, min(args.sample, len(saved)))
    started = time.process_time()
    catalog = n8n_catalog(args.records, args.cache, args.n8n_version)
    loaded = time.process_time() - started
    started = time.process_time()
    results = {s: own_findings(s, validate_workflow(s.workflow, catalog)) for s in sample}
    spent = time.process_time() - started
    print(f"-- n8n: {len(sample)} of {len(saved)} workflows "
          f"{'using …Tool variants' if args.tools else 'with base nodes only'} "
          f"(seed {args.seed}); catalog {loaded:.1f} s CPU, validation {spent:.1f} s CPU")
    per_rule(results)
    drawn(results, args.draw, args.seed)
    verdicts(results, args.verdicts)


if __name__ == "__main__":
    main()
