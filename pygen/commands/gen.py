"""`pygen gen`: write the skill files, once or on every save."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from pygen import gcpause
from pygen.commands.common import (
    code_findings,
    config_from,
    config_options,
    content_problems,
    diagnostics_json,
    enforce_strict,
    print_diagnostics,
    print_gate,
    print_problems,
    strict_option,
    verbose_option,
    writing,
)
from pygen.config import Config
from pygen.gate import gate as gating
from pygen.gate.gate import Gate
from pygen.gate.orphans import Orphan
from pygen.gate.report_format import gate_json
from pygen.output import console, err_console, shown
from pygen.progress import counted, progress
from pygen.skills import block_digests
from pygen.skills import plan as planning
from pygen.skills.plan import FileUpdate
from pygen.tools import merge

# Fewer nodes than this: a catalog worth a second look (one node's keys, a test's pair).
FEW_NODES = 3


@click.command("gen")
@config_options
@strict_option
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--force", is_flag=True, help="Overwrite generated blocks edited by hand.")
@click.option("--prune", is_flag=True,
              help="Delete node files whose type is gone, unless they hold prose.")
@click.option("--watch", is_flag=True, help="Regenerate whenever an input file is saved.")
@click.option("--no-cache", is_flag=True, help="Run the extraction even if nothing changed.")
@verbose_option
@click.option("--forget", metavar="NAME", multiple=True,
              help="Stop reporting a retired name in prose (repeatable).")
def gen(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
        strict: bool, quiet: bool, as_json: bool, force: bool, prune: bool, watch: bool,
        no_cache: bool, verbose: bool, forget: tuple[str, ...]) -> int:
    """Write the skill files: regenerate AUTO-GEN blocks, keep all prose.

    Exit 1 when something is left for a person: a hand-edited block it refused to
    overwrite, or stale names in prose. An orphaned node file is reported and kept (a
    warning here; `check` fails on it).
    """
    def load() -> Config:
        config = config_from(config_path, nodes_file, skills_dir)
        if not forget:
            return config
        names = [*config.settings.forget, *forget]
        return config.model_copy(update={
            "settings": config.settings.model_copy(update={"forget": names})})

    def once(config: Config) -> int:
        return run_gen(config, strict=strict, quiet=quiet, as_json=as_json, force=force,
                       prune=prune, use_cache=not no_cache, verbose=verbose)

    if watch:
        from pygen.commands import watch as watcher

        return watcher.run(load, once)
    return once(load())


def run_gen(config: Config, *, strict: bool, quiet: bool, as_json: bool, force: bool,
            prune: bool, use_cache: bool, verbose: bool = False) -> int:
    """One `gen` run, holding the skills_dir lock; returns its exit code."""
    with writing(config), gcpause.paused():
        return _gen(config, strict=strict, quiet=quiet, as_json=as_json, force=force,
                    prune=prune, use_cache=use_cache, verbose=verbose)


def _gen(config: Config, *, strict: bool, quiet: bool, as_json: bool, force: bool,
         prune: bool, use_cache: bool, verbose: bool) -> int:
    with progress(verbose=verbose, quiet=quiet) as steps:
        steps.step(f"extracting the catalog ({config.definitions_label})")
        model = merge.load_model(config, use_cache, note=steps.step)
        steps.step(f"rendering {counted(len(model.nodes), 'node')}")
        plan = planning.plan(config, model, remember=use_cache)
        print_diagnostics(plan.model.diagnostics, quiet or as_json, verbose)
        if len(plan.model.nodes) < FEW_NODES and not (quiet or as_json):
            err_console.print(
                f"warning: the catalog ({config.definitions_label}) has "
                f"{counted(len(plan.model.nodes), 'node')}: check that `definitions` and "
                "`nodes_file` name the editor's whole catalog", highlight=False, markup=False)
        strict = strict or config.settings.strict
        enforce_strict(plan.model, strict)
        said = code_findings(plan.model, strict=strict, quiet=quiet or as_json,
                             verbose=verbose)
        refused = [] if force else block_digests.find(plan.updates)
        skipped = {edit.path for edit in refused}
        plan = planning.Plan(plan.model, tuple(u for u in plan.updates if u.path not in skipped),
                             plan.remember)
        steps.step(f"writing and checking {counted(len(plan.updates), 'file')}")
        planning.apply(plan, config.skills_dir)
        gate, pruned = gating.after_gen(config, plan.model, plan.updates, refused, prune,
                                        plan.remember)
        problems = content_problems(config, plan, quiet or as_json)
    if as_json:
        print_json(plan.updates, gate, pruned, diagnostics_json(plan.model.diagnostics))
    else:
        print_text(plan.updates, gate, pruned, problems, quiet=quiet, verbose=verbose)
    return 1 if gate.failed_writing or problems or (strict and said) else 0


def counts(updates: tuple[FileUpdate, ...]) -> dict[str, int]:
    out = {"created": 0, "updated": 0, "unchanged": 0}
    for update in updates:
        out[update.status] += 1
    return out


# Past this many created or updated files, each status is one line naming the first few
# (a cold gen at 2,000 nodes would list 2,005 files); --verbose lists every file.
LISTED = 20
PLACES = 3


def summary(updates: tuple[FileUpdate, ...], verbose: bool = False) -> Table:
    """The files by status: every file with `verbose`; else the changed files, or, when
    more than LISTED changed, one row per status with its count and first files."""
    table = Table(title=None, box=None, show_header=True, pad_edge=False)
    table.add_column("status")
    table.add_column("file")
    shown_rows = updates if verbose else tuple(u for u in updates if u.status != "unchanged")
    if len(shown_rows) <= LISTED:
        for update in shown_rows:
            table.add_row(_status(update.status), shown(update.path))
        return table
    for status in ("created", "updated"):
        group = [u for u in shown_rows if u.status == status]
        if group:
            more = len(group) - PLACES
            table.add_row(_status(status), f"{len(group)} files: " + ", ".join(
                shown(u.path) for u in group[:PLACES]) + (
                f", … (+{more} more; --verbose lists all)" if more > 0 else ""))
    return table


def _status(status: str) -> str:
    style = {"created": "green", "updated": "yellow", "unchanged": "dim"}[status]
    return f"[{style}]{status}[/{style}]"


def print_json(updates: tuple[FileUpdate, ...], gate: Gate, pruned: tuple[Orphan, ...],
               warnings: list[dict[str, Any]]) -> None:
    files = [{"path": shown(u.path), "status": u.status} for u in updates]
    console.print_json(json.dumps({"files": files, "counts": counts(updates),
                                   **gate_json(gate, pruned), "warnings": warnings}))


def print_text(updates: tuple[FileUpdate, ...], gate: Gate, pruned: tuple[Orphan, ...],
               problems: list[str], *, quiet: bool, verbose: bool = False) -> None:
    if not quiet:
        if verbose or any(u.status != "unchanged" for u in updates):
            console.print(summary(updates, verbose))
        c = counts(updates)
        console.print(f"{c['created']} created, {c['updated']} updated, "
                      f"{c['unchanged']} unchanged")
    print_gate(gate, quiet, pruned, writing=True)
    print_problems(problems)
