"""`pygen validate-workflow FILE|-`: check workflow JSON against the node schemas."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import cast

import click

from pygen import files
from pygen.commands.common import config_from, config_options
from pygen.errors import PygenError
from pygen.output import console, err_console, visible, visible_json
from pygen.progress import progress
from pygen.validation.autofix import FixResult, autofix
from pygen.validation.catalog import (
    Catalog,
    WorkflowInputError,
    load_catalog_file,
    parse_json,
)
from pygen.validation.findings import Finding, is_valid, report
from pygen.validation.profiles import DEFAULT_PROFILE, PROFILES, RULES, Profile
from pygen.validation.workflow import validate_workflow


@click.command("validate-workflow")
@click.argument("file", metavar="FILE|-", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
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
              "applied (stdout) and the changes made (stderr); never writes prompts or URLs.")
@click.option("--rules", "list_rules", is_flag=True,
              help="List the rule ids findings carry, one line each, and exit.")
@config_options
def validate_workflow_cmd(file: str | None, as_json: bool, schemas_file: Path | None,
                          profile: str, fix: bool, list_rules: bool, config_path: Path | None,
                          nodes_file: Path | None, skills_dir: Path | None) -> int:
    """Check a workflow ({nodes, edges}) before it reaches the editor.

    Exit 0 when valid (warnings allowed), 1 when it has errors, 2 when it cannot be read.
    With --fix, the exit code is that of the fixed workflow.
    """
    if list_rules:
        for rule, meaning in RULES.items():
            console.out(f"{rule:28} {meaning}", highlight=False)
        return 0
    if file is None:
        raise click.UsageError("Missing argument 'FILE|-'.")
    workflow = read_workflow(file)
    if schemas_file is not None:
        catalog: Catalog = load_catalog_file(schemas_file)
    else:
        from pygen.tools import merge
        from pygen.validation.catalog import build_catalog

        config = config_from(config_path, nodes_file, skills_dir)
        with progress() as steps:
            steps.step(f"extracting the catalog ({config.definitions_label})")
            # The extraction cache, as `check` uses it: unchanged code is not read again.
            catalog = build_catalog(merge.load_model(config, use_cache=True))
    chosen = cast(Profile, profile)
    if fix:
        return show_fixed(autofix(workflow, lambda doc: validate_workflow(doc, catalog, chosen)),
                          as_json)
    findings = validate_workflow(workflow, catalog, chosen)
    show(findings, as_json)
    return 0 if is_valid(findings) else 1


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
    for finding in findings:
        console.out(visible(f"{finding.level}: {finding}"), highlight=False)
    errors = sum(f.level == "error" for f in findings)
    warnings = sum(f.level == "warning" for f in findings)
    notes = len(findings) - errors - warnings
    verdict = "valid" if errors == 0 else "invalid"
    err_console.out(f"{verdict}: {_count(errors, 'error')}, {_count(warnings, 'warning')}"
                    + (f", {_count(notes, 'note')}" if notes else ""), highlight=False)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}es" if noun.endswith("x") else f"{n} {noun}s"
