"""`pygen validate-workflow FILE...|-`: check workflow JSON files against the node schemas."""

from __future__ import annotations

import glob
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from pygen import files
from pygen.commands.common import config_from, config_options
from pygen.errors import PygenError
from pygen.output import console, err_console, visible, visible_json
from pygen.progress import progress
from pygen.validation.catalog import (
    Catalog,
    WorkflowInputError,
    load_catalog_file,
    parse_json,
)
from pygen.validation.findings import Finding, is_valid, report
from pygen.validation.profiles import DEFAULT_PROFILE, PROFILES, RULES, Profile
from pygen.validation.workflow import validate_workflow

if TYPE_CHECKING:
    from pygen.validation.autofix import FixResult


@click.command("validate-workflow")
@click.argument("paths", metavar="FILE...|-", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON (with "
              "several files or a glob: one entry per file).")
@click.option("--schemas", "schemas_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Validate against a schema document written by `pygen gen` "
                   "(<skills_dir>/schemas/nodes.schema.json) instead of extracting the "
                   "TypeScript; needs no Node.")
@click.option("--profile", type=click.Choice(PROFILES), default=DEFAULT_PROFILE,
              show_default=True, help="runtime: what the editor needs to load it (a missing "
              "field its default fills is fine where the editor is declared to fill defaults); "
              "strict: every required field present; "
              "minimal: types and structure only.")
@click.option("--fix", is_flag=True, help="Print the workflow with every mechanical fix "
              "applied (stdout) and the changes made (stderr); never writes prompts or URLs. "
              "One file only.")
@click.option("--rules", "list_rules", is_flag=True,
              help="List the rule ids findings carry, one line each, and exit.")
@config_options
def validate_workflow_cmd(paths: tuple[str, ...], as_json: bool, schemas_file: Path | None,
                          profile: str, fix: bool, list_rules: bool, config_path: Path | None,
                          nodes_file: Path | None, skills_dir: Path | None) -> int:
    """Check workflows ({nodes, edges}) before they reach the editor.

    Takes several files and globs (quoted, `'flows/**/*.json'`) in one call: the catalog is
    loaded once, each file gets its report. Exit 0 when every file is valid (warnings
    allowed), 1 when one has errors, 2 when one cannot be read. With --fix, the exit code is
    that of the fixed workflow.
    """
    if list_rules:
        for rule, meaning in RULES.items():
            console.out(f"{rule:28} {meaning}", highlight=False)
        return 0
    if not paths:
        raise click.UsageError("Missing argument 'FILE...|-'.")
    names = expand(paths)
    if fix and len(names) != 1:
        raise click.UsageError("--fix takes one file (it prints the fixed workflow).")
    single = len(paths) == 1 and not _is_glob(paths[0])
    # A single file that cannot be read fails before the catalog is loaded, as it always has.
    first = read_workflow(names[0]) if single else None
    catalog = load_catalog(schemas_file, config_path, nodes_file, skills_dir)
    chosen = cast(Profile, profile)

    def check(doc: object) -> list[Finding]:
        return validate_workflow(doc, catalog, chosen)

    if single:
        if fix:
            from pygen.validation.autofix import autofix  # only for --fix

            return show_fixed(autofix(first, check), as_json)
        findings = check(first)
        show(findings, as_json)
        return 0 if is_valid(findings) else 1
    return show_many(names, check, as_json)


def expand(paths: tuple[str, ...]) -> list[str]:
    """The files named: each argument as it is, or, for a glob no file is named by, the
    files it matches (sorted; `**` reaches into folders)."""
    out: list[str] = []
    for path in paths:
        if path == "-" or not _is_glob(path) or Path(path).exists():
            out.append(path)
            continue
        found = sorted(p for p in glob.glob(path, recursive=True) if Path(p).is_file())
        out += found or [path]  # reported as matching nothing, in its place
    if out.count("-") > 1:
        raise click.UsageError("'-' (stdin) can be given once.")
    return list(dict.fromkeys(out))


def _is_glob(path: str) -> bool:
    return any(c in path for c in "*?[")


def load_catalog(schemas_file: Path | None, config_path: Path | None, nodes_file: Path | None,
                 skills_dir: Path | None) -> Catalog:
    if schemas_file is not None:
        return load_catalog_file(schemas_file)
    from pygen.tools import merge
    from pygen.validation.catalog import build_catalog

    config = config_from(config_path, nodes_file, skills_dir)
    with progress() as steps:
        steps.step(f"extracting the catalog ({config.definitions_label})")
        # The extraction cache, as `check` uses it: unchanged code is not read again.
        return build_catalog(merge.load_model(config, use_cache=True))


def show_many(names: list[str], check: Callable[[object], list[Finding]],
              as_json: bool) -> int:
    """Each file's findings, then one line for all; the worst exit code of them."""
    results: list[dict[str, object]] = []
    worst = 0
    tally = {"valid": 0, "invalid": 0, "unreadable": 0}
    for name in names:
        shown_name = "<stdin>" if name == "-" else name
        try:
            if name != "-" and _is_glob(name) and not Path(name).exists():
                raise WorkflowInputError(f"{name}: no file matches this pattern")
            findings = check(read_workflow(name))
        except WorkflowInputError as exc:
            worst = 2
            tally["unreadable"] += 1
            results.append({"file": shown_name, "error": str(exc)})
            if not as_json:
                err_console.out(visible(f"error: {exc}"), highlight=False)
            continue
        valid = is_valid(findings)
        worst = max(worst, 0 if valid else 1)
        tally["valid" if valid else "invalid"] += 1
        results.append({"file": shown_name, **report(findings)})
        if not as_json:
            # Notes (what could not be checked) are counted, and listed by --json only: on a
            # catalog that declares no handles every edge has one.
            for finding in (f for f in findings if f.level != "info"):
                console.out(visible(f"{shown_name}: {finding.level}: {finding}"),
                            highlight=False)
    if as_json:
        counts = {"valid_files": tally["valid"], "invalid": tally["invalid"],
                  "unreadable": tally["unreadable"]}
        console.out(visible_json(json.dumps({"files": results, "valid": worst == 0, **counts},
                                            indent=2, ensure_ascii=False)), highlight=False)
    else:
        err_console.out(f"{_count(len(names), 'file')}: {tally['valid']} valid, "
                        f"{tally['invalid']} invalid, {tally['unreadable']} unreadable",
                        highlight=False)
    return worst


def show_fixed(result: FixResult, as_json: bool) -> int:
    if as_json:
        console.out(json.dumps(result, indent=2, ensure_ascii=False), highlight=False)
        return 0 if result["valid"] else 1
    console.out(json.dumps(result["workflow"], indent=2, ensure_ascii=False), highlight=False)
    for change in result["changes"]:
        fix = change["fix"]
        what = f" → {fix['to']}" if "to" in fix else (
            f" = {json.dumps(fix['value'], ensure_ascii=False)}" if "value" in fix else "")
        err_console.out(f"fixed: {fix['op']} {fix['path']}{what} ({change['rule']})",
                        highlight=False)
    for left in result["remaining"]:
        err_console.out(f"{left['level']}: {left['path']}: {left['message']}", highlight=False)
    verdict = "valid" if result["valid"] else "invalid"
    err_console.out(f"{verdict} after {_count(len(result['changes']), 'fix')}", highlight=False)
    return 0 if result["valid"] else 1


def read_workflow(file: str) -> object:
    name = "<stdin>" if file == "-" else file
    try:
        data = sys.stdin.buffer.read() if file == "-" else files.read_bytes(file)
    except OSError as exc:
        raise WorkflowInputError(f"{name}: cannot read: {exc.strerror}") from None
    except PygenError as exc:
        raise WorkflowInputError(str(exc)) from None
    if data is None:
        raise WorkflowInputError(f"{name}: cannot read: No such file or directory")
    return parse_json(data, name)


def show(findings: list[Finding], as_json: bool) -> None:
    if as_json:
        console.out(visible_json(json.dumps(report(findings), indent=2, ensure_ascii=False)),
                    highlight=False)
        return
    for finding in (f for f in findings if f.level != "info"):
        console.out(visible(f"{finding.level}: {finding}"), highlight=False)
    errors = sum(f.level == "error" for f in findings)
    warnings = sum(f.level == "warning" for f in findings)
    notes = len(findings) - errors - warnings
    verdict = "valid" if errors == 0 else "invalid"
    err_console.out(f"{verdict}: {_count(errors, 'error')}, {_count(warnings, 'warning')}"
                    + (f", {_count(notes, 'note')} (--json lists them)" if notes else ""),
                    highlight=False)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}es" if noun.endswith("x") else f"{n} {noun}s"
