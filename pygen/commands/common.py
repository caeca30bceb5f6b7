"""Options, loading and printing shared by the commands (errors are pygen.cli's job)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pygen import files, lock
from pygen.config import Config, load_config
from pygen.diagnostics import strict_failure, summarize
from pygen.errors import PygenError
from pygen.model import Diagnostic, Model
from pygen.output import err_console, safe, shown, visible

if TYPE_CHECKING:  # every command imports this module: keep it light
    from pygen.gate.gate import Gate
    from pygen.gate.orphans import Orphan
    from pygen.skills.plan import Plan

F = TypeVar("F", bound=Callable[..., Any])


def config_options(fn: F) -> F:
    """--config plus the flags that override config keys."""
    fn = click.option("--skills-dir", type=click.Path(path_type=Path),
                      help="Override skills_dir.")(fn)
    fn = click.option("--nodes-file", type=click.Path(path_type=Path),
                      help="Override nodes_file.")(fn)
    fn = click.option("--config", "config_path", type=click.Path(path_type=Path),
                      help="Config file (pyproject.toml with [tool.pygen], or pygen.toml).")(fn)
    return fn


def config_from(config_path: Path | None, nodes_file: Path | None,
                skills_dir: Path | None, **extra: Any) -> Config:
    overrides: dict[str, Any] = dict(extra)
    # Flags are relative to where the user typed them, not to the config file.
    if nodes_file is not None:
        overrides["nodes_file"] = str(nodes_file.resolve())
    if skills_dir is not None:
        # Absolute but not resolved: the config refuses a link to outside the project.
        overrides["skills_dir"] = os.path.abspath(skills_dir)
    return load_config(config_path, overrides)


# Warnings --strict turns into errors besides computed values and nodes without a type.
STRICT_RESOLUTION = ("unresolved-import", "tsconfig")


def enforce_strict(model: Model, strict: bool) -> None:
    """`--strict`: a computed value, a broken import or tsconfig, or a node without a
    declared data type fails."""
    if not strict:
        return
    computed = strict_failure(model.diagnostics)
    if computed is not None:
        raise PygenError(computed)
    broken = [d for d in model.diagnostics if d.kind in STRICT_RESOLUTION]
    if broken:
        more = f" (and {len(broken) - 1} more like it)" if len(broken) > 1 else ""
        raise PygenError(f"--strict: {broken[0]}{more}")
    missing = model.untyped()
    if missing:
        raise PygenError(f"--strict: no data type found for {', '.join(missing)}; "
                         "add them to data_types in the pygen config")


def code_findings(model: Model, *, strict: bool, quiet: bool,
                  verbose: bool = False) -> tuple[str, ...]:
    """Print where the app's code contradicts itself: warnings, or errors under --strict
    (each then counts as one), one line per kind unless `verbose`. Returns what it found."""
    from pygen.gate import contradictions

    found = tuple(f.text() for f in contradictions.find(model))
    print_contradictions(found, strict=strict, quiet=quiet, verbose=verbose)
    return found


def print_contradictions(texts: tuple[str, ...], *, strict: bool, quiet: bool,
                         verbose: bool = False) -> None:
    """The contradictions on stderr, through the one summary of a run's warnings."""
    from pygen.gate.contradictions import summary

    for line in summary(texts, "error" if strict else "warning",
                        verbose) if strict or not quiet else ():
        err_console.print(line, highlight=False, markup=False)


def content_problems(config: Config, plan: Plan, quiet: bool = False) -> list[str]:
    """The errors in the skills' content; its hints (schematic examples) are printed here."""
    from pygen import journal
    from pygen.validation import (
        examples as content_checks,  # validators and the skill store: only for a full run
    )

    shown_paths = {u.path: shown(u.path) for u in plan.updates}
    unfinished = journal.pending(config.skills_dir)
    left = [f"{shown(unfinished)}: an interrupted `pygen gen` left a set of files half "
            "replaced; `pygen gen` finishes or undoes it"] if unfinished else []
    left += [f"{shown(temp)}: a temp file an interrupted run left; `pygen gen` removes it"
             for temp in stale_temps(config)]
    found = content_checks.find(config.skills_dir, plan.model, plan.updates, shown_paths,
                                config if plan.remember else None)
    for hint in [] if quiet else found.hints:
        err_console.print(f"[yellow]hint:[/yellow] {hint}", highlight=False, markup=True)
    return left + found.problems


def saved_workflow_findings(config: Config, model: Model, *, strict: bool,
                            quiet: bool) -> int:
    """Validate the repo's saved workflows (`saved_workflows`) and print every finding with
    its file and JSON path: warnings, errors under --strict. Returns how many count as errors
    (a stale saved workflow is the app's, not the skills': it does not fail a plain run)."""
    if not config.settings.saved_workflows:
        return 0
    from pygen.skills.saved_examples import saved_paths
    from pygen.validation import saved
    from pygen.validation.catalog import build_catalog

    paths = saved_paths(config.root, config.settings.saved_workflows)
    found = saved.findings(saved.load(paths, config.root), build_catalog(model))
    errors = [f for f in found if f.level == "error"]
    # A note says what could not be checked (an undeclared handle): nothing to act on here.
    found = [f for f in found if f.level != "info"]
    for finding in found if strict or not quiet else []:
        level = "error" if strict and finding.level == "error" else "warning"
        err_console.print(f"{level}: saved workflow {finding}", highlight=False, markup=False)
    return len(errors) if strict else 0


def stale_temps(config: Config) -> list[Path]:
    """Temp files of interrupted runs: under skills_dir, and beside the fallback copy."""
    found = files.stale_temps(config.skills_dir)
    fallback = config.fallback_file
    if fallback is not None:
        found += sorted(fallback.parent.glob(f".{fallback.name}.*{files.TEMP_SUFFIX}"))
    return found


@contextmanager
def writing(config: Config) -> Iterator[None]:
    """Hold the skills_dir lock for a writing run, and clear what interrupted runs left: a
    set a killed run was replacing is finished or undone first (pygen.journal), then the
    temp files go. Nothing is locked, read or written before the targets are known to be
    the project's."""
    from pygen import journal
    from pygen.skills import bounds

    bounds.check_targets(config)
    with lock.hold(config.skills_dir, config.settings.lock_timeout, say):
        said = journal.recover(config.skills_dir, lambda path: bounds.may_write(config, path))
        if said is not None:
            say(said)
        for temp in stale_temps(config):
            temp.unlink(missing_ok=True)
        # The memos' own temp files: they never make the skills wrong, so check is silent
        # about them, but no run leaves them behind either.
        from pygen.extract import cache

        if not cache.cache_dir(config).is_symlink():
            for temp in files.stale_temps(cache.cache_dir(config)):
                temp.unlink(missing_ok=True)
        yield


def say(message: str) -> None:
    """One line of talk on stderr: never markup, control characters escaped."""
    err_console.print(visible(message), highlight=False, markup=False)


def print_diagnostics(diagnostics: tuple[Diagnostic, ...], quiet: bool,
                      verbose: bool = False) -> None:
    """The run's warnings on stderr: summarised per kind, or each of them with --verbose."""
    if quiet:
        return
    for line in summarize(diagnostics, verbose):
        level, _, rest = line.partition(": ")
        err_console.print(f"[yellow]{level}:[/yellow] {safe(rest)}", highlight=False,
                          markup=True)


def diagnostics_json(diagnostics: tuple[Diagnostic, ...]) -> list[dict[str, Any]]:
    """Every diagnostic, for `--json` (which is never summarised)."""
    return [d.model_dump(mode="json", exclude_none=True) for d in diagnostics]


def strict_option(fn: F) -> F:
    return click.option("--strict", is_flag=True,
                        help="Fail when a value in the definitions is computed at run time or a "
                             "node's data type is not found.")(fn)


def no_tools_option(fn: F) -> F:
    return click.option("--no-tools", is_flag=True,
                        help="Run no project code: use the tool schemas recorded in the schema "
                             "document instead of importing or starting the tool sources "
                             "(same as run_tools = false).")(fn)


def verbose_option(fn: F) -> F:
    return click.option("--verbose", "-v", is_flag=True,
                        help="Print every warning, not one summary line per kind, and "
                             "each step of the run on stderr.")(fn)


def print_gate(gate: Gate, quiet: bool, pruned: tuple[Orphan, ...] = (),
               writing: bool = False) -> None:
    """The diffs of hand edits on stdout (unless quiet), then gate_lines on stderr."""
    from pygen.gate.report_format import gate_lines

    if not quiet:
        for edit in gate.hand_edits:
            sys.stdout.write(edit.diff)
    for line in gate_lines(gate, pruned, writing):
        err_console.print(visible(line), highlight=False, markup=False)


def print_problems(problems: list[str]) -> None:
    for problem in problems:
        err_console.print(f"[red]error:[/red] {safe(problem)}", highlight=False, markup=True)
