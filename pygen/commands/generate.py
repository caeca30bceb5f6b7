"""`pygen gen`, `pygen check` and `pygen extract`."""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

import click
from rich.table import Table

from pygen.commands.common import (
    config_from,
    config_options,
    handle_errors,
    print_diagnostics,
    shown,
)
from pygen.commands.doctor import gate_json, print_gate
from pygen.config import Config
from pygen.errors import PygenError
from pygen.gate import gate as doctor
from pygen.gate import memo
from pygen.model import Model
from pygen.output import console, err_console
from pygen.skills import digests
from pygen.skills import plan as planning
from pygen.skills.plan import FileUpdate
from pygen.tools import merge


def unresolved(model: Model) -> list[str]:
    return [n.type for n in model.nodes if n.data_type.via == "none"]


def enforce_strict(model: Model, strict: bool) -> None:
    missing = unresolved(model)
    if strict and missing:
        raise PygenError(f"--strict: no data type found for {', '.join(missing)}; "
                         "add them to data_types in the pygen config")


def summary(updates: tuple[FileUpdate, ...]) -> Table:
    table = Table(title=None, box=None, show_header=True, pad_edge=False)
    table.add_column("status")
    table.add_column("file")
    for update in updates:
        style = {"created": "green", "updated": "yellow", "unchanged": "dim"}[update.status]
        table.add_row(f"[{style}]{update.status}[/{style}]", shown(update.path))
    return table


def counts(updates: tuple[FileUpdate, ...]) -> dict[str, int]:
    out = {"created": 0, "updated": 0, "unchanged": 0}
    for update in updates:
        out[update.status] += 1
    return out


@click.command("gen")
@config_options
@click.option("--strict", is_flag=True, help="Fail when a node's data type is not found.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--force", is_flag=True, help="Overwrite generated blocks edited by hand.")
@click.option("--prune", is_flag=True,
              help="Delete node files whose type is gone, unless they hold prose.")
@click.option("--watch", is_flag=True, help="Regenerate whenever an input file is saved.")
@click.option("--no-cache", is_flag=True, help="Run the extraction even if nothing changed.")
@handle_errors
def gen(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
        strict: bool, quiet: bool, as_json: bool, force: bool, prune: bool, watch: bool,
        no_cache: bool) -> None:
    """Write the skill files: regenerate AUTO-GEN blocks, keep all prose.

    Exit 1 when something is left for a person: a hand-edited block it refused to
    overwrite, stale names in prose, or an orphaned node file.
    """
    def load() -> Config:
        return config_from(config_path, nodes_file, skills_dir)

    def once(config: Config) -> int:
        return run_gen(config, strict, quiet, as_json, force, prune, not no_cache)

    if watch:
        from pygen.commands import watch as watcher

        sys.exit(watcher.run(load, once))
    sys.exit(once(load()))


def run_gen(config: Config, strict: bool, quiet: bool, as_json: bool, force: bool,
            prune: bool, use_cache: bool) -> int:
    """One `gen` run; returns its exit code."""
    plan = planning.plan(config, merge.load_model(config, use_cache))
    print_diagnostics(plan.model.diagnostics, quiet or as_json)
    enforce_strict(plan.model, strict or config.settings.strict)
    refused = [] if force else digests.find(plan.updates)
    skipped = {edit.path for edit in refused}
    plan = planning.Plan(plan.model, tuple(u for u in plan.updates if u.path not in skipped))
    planning.apply(plan)
    gate, pruned = doctor.after_gen(config, plan.model, plan.updates, refused, prune)
    problems = content_problems(config, plan)
    if as_json:
        files = [{"path": shown(u.path), "status": u.status} for u in plan.updates]
        console.print_json(json.dumps({"files": files, "counts": counts(plan.updates),
                                       **gate_json(gate, pruned)}))
    else:
        if not quiet:
            console.print(summary(plan.updates))
            c = counts(plan.updates)
            console.print(f"{c['created']} created, {c['updated']} updated, "
                          f"{c['unchanged']} unchanged")
        print_gate(gate, quiet, pruned)
        print_problems(problems)
    return 1 if gate.failed or problems else 0


def content_problems(config: Config, plan: planning.Plan) -> list[str]:
    from pygen.validation import (
        examples as content_checks,  # validators and the skill store: only for a full run
    )

    shown_paths = {u.path: shown(u.path) for u in plan.updates}
    return content_checks.find(config.skills_dir, plan.model, plan.updates, shown_paths)


def print_problems(problems: list[str]) -> None:
    for problem in problems:
        err_console.print(f"[red]error:[/red] {problem}", highlight=False, markup=True)


def unified_diff(update: FileUpdate) -> str:
    name = shown(update.path)
    old = (update.old or "").splitlines(keepends=True)
    new = update.new.splitlines(keepends=True)
    return "".join(difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"))


@click.command("check")
@config_options
@click.option("--strict", is_flag=True, help="Fail when a node's data type is not found.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but the list of stale files.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--no-cache", is_flag=True, help="Run the extraction even if nothing changed.")
@handle_errors
def check(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
          strict: bool, quiet: bool, as_json: bool, no_cache: bool) -> None:
    """Exit 1 with a diff when the committed skill files drift from the code. Writes nothing.

    Also exit 1 for generated blocks edited by hand, stale names in prose (per
    `stale_prose`) and node files whose type is gone.
    """
    config = config_from(config_path, nodes_file, skills_dir)
    strict = strict or config.settings.strict
    known_clean = None if no_cache else memo.clean_check(config, strict)
    if known_clean is not None:
        report_clean(config, known_clean, quiet, as_json)
        return
    plan = planning.plan(config, merge.load_model(config, use_cache=not no_cache))
    print_diagnostics(plan.model.diagnostics, quiet or as_json)
    enforce_strict(plan.model, strict)
    gate = doctor.gate(config, plan.model, plan.updates)
    problems = content_problems(config, plan)
    edited = {edit.path for edit in gate.hand_edits}
    stale = tuple(u for u in plan.changed if u.path not in edited)
    if as_json:
        console.print_json(json.dumps({"stale": [shown(u.path) for u in stale],
                                       **gate_json(gate), "problems": problems,
                                       "ok": not stale and not gate.failed and not problems}))
    else:
        print_gate(gate, quiet)
        print_problems(problems)
        if not quiet:
            for update in stale:
                sys.stdout.write(unified_diff(update))
        for update in stale:
            err_console.print(f"stale: {shown(update.path)}", highlight=False)
        if stale:
            err_console.print("Skill files drift from the code: run `pygen gen` and commit "
                              "the changes.", highlight=False)
        elif not quiet and not gate.failed and not problems:
            console.print(f"{len(plan.updates)} skill files are current.")
    if stale or gate.failed or problems:
        sys.exit(1)
    if not no_cache and not plan.model.diagnostics and not gate.stale_names:
        memo.record_clean_check(config, strict, len(plan.updates))


def report_clean(config: Config, files: int, quiet: bool, as_json: bool) -> None:
    """What a clean check prints, for a run answered from the cache."""
    if as_json:
        empty = doctor.Gate((), (), (), config.settings.stale_prose)
        console.print_json(json.dumps({"stale": [], **gate_json(empty), "problems": [],
                                       "ok": True}))
    elif not quiet:
        console.print(f"{files} skill files are current.")


@click.command("extract")
@config_options
@click.option("--json", "as_json", is_flag=True, default=True,
              help="Print the merged model as JSON (the default).")
@handle_errors
def extract_cmd(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
                as_json: bool) -> None:
    """Print the merged model that rendering uses, for debugging and tools."""
    config = config_from(config_path, nodes_file, skills_dir)
    model = merge.load_model(config)
    sys.stdout.write(model.model_dump_json(indent=2) + "\n")
