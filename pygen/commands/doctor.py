"""`pygen doctor`: report, as a table or JSON, what in the skill catalog needs a person."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.table import Table

from pygen.commands.common import config_from, config_options, no_tools_option
from pygen.config import Config
from pygen.gate import report as doctor
from pygen.gate.report import Report
from pygen.gate.report_format import gate_lines, report_json
from pygen.model import Model
from pygen.output import console, shown
from pygen.skills import plan as planning
from pygen.skills.saved_examples import saved_paths
from pygen.tools import merge
from pygen.validation import saved
from pygen.validation.catalog import build_catalog
from pygen.validation.findings import Finding
from pygen.validation.load_step import RULE as LEGACY_RULE


def _listed(items: tuple[str, ...] | list[str], none: str = "none") -> str:
    return ", ".join(items) if items else none


def _gaps(report: Report) -> str:
    """Which nodes' sections are empty (or a template's stand-in): served without them."""
    if not report.prose_gaps:
        return ""
    named = [f"{gap.node_type} ({', '.join(gap.empty)})" for gap in report.prose_gaps]
    return f" (left out when served): {_listed(named)}"


def _row(table: Table, ok: bool, check: str, detail: str, *, info: bool = False) -> None:
    mark = "[green]ok[/green]" if ok else ("[yellow]info[/yellow]" if info else "[red]fix[/red]")
    table.add_row(mark, check, detail)


def _tool_rows(table: Table, report: Report) -> None:
    if not report.tools_configured:
        _row(table, True, "tools", "none configured (`tools` in the pygen config)")
        return
    if report.tool_categories:
        _row(table, not report.nodes_without_tool, "nodes of "
             f"{', '.join(report.tool_categories)} without a tool",
             _listed(report.nodes_without_tool))
    else:
        _row(table, True, "nodes that need a tool", "not declared (`tool_categories` in "
             "the pygen config)", info=True)
    named = (f" (named by no skill: {_listed(report.unmentioned_tools)})"
             if report.unmentioned_tools else
             " (each named by a skill)" if report.unused_tools else "")
    _row(table, not report.unmentioned_tools, "tools without a node",
         _listed(report.unused_tools) + named)


def summary_table(report: Report) -> Table:
    gate = report.gate
    table = Table(box=None, pad_edge=False, show_header=True)
    for column in ("", "check", "finding"):
        table.add_column(column)
    _row(table, not report.unresolved, "data types",
         f"{report.node_count} nodes; unresolved: {_listed(report.unresolved)}")
    if report.structural:
        # Found by shape alone: right most of the time, worth a person's look.
        _row(table, False, "structural matches (confirm in data_types)",
             "; ".join(str(m) for m in report.structural), info=True)
    _tool_rows(table, report)
    _row(table, True, "tool schemas", report.tool_mode, info=report.ran_code)
    _row(table, not report.prose_gaps, "prose coverage",
         f"{report.prose_coverage:g}% of 'When to use' / 'Common gotchas' written; "
         f"{len(report.prose_gaps)} node(s) with empty sections{_gaps(report)}", info=True)
    _row(table, not gate.stale_names, "stale prose", f"{len(gate.stale_names)} name(s)",
         info=gate.stale_prose == "off")
    _row(table, not gate.orphans, "orphans", _listed([shown(o.path) for o in gate.orphans]))
    _row(table, not gate.hand_edits, "hand-edited blocks",
         _listed([f"{shown(e.path)} [{e.block}]" for e in gate.hand_edits]))
    _row(table, not report.mismatches, "node ↔ tool schema", f"{len(report.mismatches)} "
         "disagreement(s)" if report.mismatches else "agree")
    adoption_rows(table, report)
    _row(table, not report.drift, "drift", _listed([shown(p) for p in report.drift],
                                                    "none") + (" (run `pygen gen`)"
                                                               if report.drift else ""),
         info=True)
    _row(table, True, "catalog size", f"~{report.total_tokens:,} tokens in "
         f"{len(report.tokens)} files (chars / 4)")
    return table


def adoption_rows(table: Table, report: Report) -> None:
    """What an existing codebase and skills folder bring: the code's contradictions, other
    tools' blocks, words that look like names."""
    gate = report.gate
    _row(table, not report.contradictions, "the code's own contradictions",
         f"{len(report.contradictions)} (defaults, @default tags, undocumented fields, handles)"
         if report.contradictions else "none")
    _row(table, not gate.foreign, "blocks pygen does not write",
         _listed([f"{b.id} ({b.count})" for b in gate.foreign]), info=True)
    _row(table, not gate.prose_hints, "look-alike words in prose",
         f"{len(gate.prose_hints)} (hints: never names, but close to one)", info=True)


def detail_tables(report: Report) -> list[Table]:
    tables = []
    if report.prose_gaps:
        gaps = Table("node type", "empty sections", title="Prose to write", box=None,
                     title_justify="left", pad_edge=False)
        for gap in report.prose_gaps:
            gaps.add_row(gap.node_type, ", ".join(gap.empty))
        tables.append(gaps)
    if report.mismatches:
        diff = Table("node field", "tool parameter", "kind", "node", "tool",
                     title="Node data ↔ tool schema", box=None, title_justify="left",
                     pad_edge=False)
        for m in report.mismatches:
            diff.add_row(f"{m.node_type}.{m.field}", f"{m.tool}.{m.param}", m.kind,
                         m.node_side, m.tool_side)
        tables.append(diff)
    tables += finding_tables(report)
    sizes = Table("tokens", "file", title="Token size, largest first", box=None,
                  title_justify="left", pad_edge=False)
    for size in report.tokens:
        sizes.add_row(f"{size.tokens:,}", shown(size.path))
    sizes.add_row(f"{report.total_tokens:,}", "total")
    tables.append(sizes)
    return tables


def finding_tables(report: Report) -> list[Table]:
    """The prose hints, one row each (the code's contradictions are lines: they are long)."""
    tables = []
    if report.gate.prose_hints:
        hints = Table("where", "word", "close to", box=None, title="Look-alike words in prose",
                      title_justify="left", pad_edge=False)
        for hint in report.gate.prose_hints:
            hints.add_row(f"{shown(hint.path)}:{hint.line}", hint.name, hint.suggestion or "—")
        tables.append(hints)
    return tables


def print_report(report: Report) -> None:
    console.print(summary_table(report))
    for table in detail_tables(report):
        console.print()
        console.print(table)
    lines = [f"contradiction: {c.text()}" for c in report.contradictions]
    lines += gate_lines(report.gate)
    if lines:
        console.print()
        for line in lines:
            console.print(line, markup=False)


@click.command("doctor")
@config_options
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--no-cache", is_flag=True, help="Run the extraction even if nothing changed.")
@no_tools_option
def doctor_cmd(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
               as_json: bool, no_cache: bool, no_tools: bool) -> int:
    """Report what needs a person: types, tools, prose, orphans, hand edits, token sizes.

    Exit 0 when nothing does, 1 when something does. Writes nothing.
    """
    config = config_from(config_path, nodes_file, skills_dir,
                         run_tools=False if no_tools else None)
    plan = planning.plan(config, merge.load_model(config, use_cache=not no_cache))
    report = doctor.diagnose(config, plan.model, plan.updates)
    found = saved_findings(config, plan.model)
    stale = saved.stale_groups(found)
    # Legacy names the editor's load step rewrites: worth knowing, nothing to fix.
    legacy = [f for f in found if f.rule == LEGACY_RULE]
    if as_json:
        out = {**report_json(report), "saved_workflows": {
            kind: [f.to_dict() for f in members] for kind, members in stale.items()},
            "migrated_on_load": [f.to_dict() for f in legacy]}
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    else:
        print_report(report)
        print_saved(stale)
        print_migrated(plan.model, legacy)
    return 1 if report.needs_person or stale else 0


def saved_findings(config: Config, model: Model) -> list[Finding]:
    """Every finding on the saved workflows (`saved_workflows`)."""
    if not config.settings.saved_workflows:
        return []
    paths = saved_paths(config.root, config.settings.saved_workflows)
    return saved.findings(saved.load(paths, config.root), build_catalog(model))


def print_migrated(model: Model, legacy: list[Finding]) -> None:
    """The load step's maps, and each legacy name the saved workflows still use."""
    step = model.load_step
    if step.empty:
        return
    console.print()
    console.print(f"load step: {len(step.node_types) + len(step.node_types_by_data)} legacy "
                  "node type(s), "
                  f"{sum(map(len, step.input_handles.values()))} input and "
                  f"{sum(map(len, step.output_handles.values()))} output handle id(s) "
                  f"rewritten on load (from {', '.join(step.sources)})", markup=False,
                  highlight=False)
    for finding in legacy:
        console.print(f"migrated on load: {finding.file}: {finding.path}: "
                      f"{finding.message.split(' (')[0].removeprefix('migrated on load: ')}",
                      markup=False, highlight=False)


def print_saved(groups: dict[str, list[Finding]]) -> None:
    if groups:
        console.print()
        for line in saved.group_lines(groups):
            console.print(f"stale saved workflows: {line}", markup=False, highlight=False)
