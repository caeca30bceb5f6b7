"""`pygen validate-workflow FILE|-`: check workflow JSON against the node schemas."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pygen.commands.common import config_from, config_options
from pygen.output import console, err_console, visible, visible_json
from pygen.validation.catalog import (
    Catalog,
    WorkflowInputError,
    load_catalog_file,
    parse_json,
)
from pygen.validation.findings import Finding, is_valid, report
from pygen.validation.workflow import validate_workflow


@click.command("validate-workflow")
@click.argument("file", metavar="FILE|-")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option("--schemas", "schemas_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Validate against a schema document written by `pygen gen` "
                   "(<skills_dir>/schemas/nodes.schema.json) instead of extracting the "
                   "TypeScript; needs no Node.")
@config_options
def validate_workflow_cmd(file: str, as_json: bool, schemas_file: Path | None,
                          config_path: Path | None, nodes_file: Path | None,
                          skills_dir: Path | None) -> int:
    """Check a workflow ({nodes, edges}) before it reaches the editor.

    Exit 0 when valid (warnings allowed), 1 when it has errors, 2 when it cannot be read.
    """
    workflow = read_workflow(file)
    if schemas_file is not None:
        catalog: Catalog = load_catalog_file(schemas_file)
    else:
        from pygen.tools import merge
        from pygen.validation.catalog import build_catalog

        catalog = build_catalog(merge.load_model(
            config_from(config_path, nodes_file, skills_dir)))
    findings = validate_workflow(workflow, catalog)
    show(findings, as_json)
    return 0 if is_valid(findings) else 1


def read_workflow(file: str) -> object:
    name = "<stdin>" if file == "-" else file
    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as exc:
        raise WorkflowInputError(f"{name}: cannot read: {exc.strerror}") from None
    return parse_json(data, name)


def show(findings: list[Finding], as_json: bool) -> None:
    if as_json:
        console.out(visible_json(json.dumps(report(findings), indent=2, ensure_ascii=False)),
                    highlight=False)
        return
    for finding in findings:
        console.out(visible(f"{finding.level}: {finding}"), highlight=False)
    errors = sum(f.level == "error" for f in findings)
    verdict = "valid" if errors == 0 else "invalid"
    err_console.out(f"{verdict}: {_count(errors, 'error')}, "
                    f"{_count(len(findings) - errors, 'warning')}", highlight=False)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
