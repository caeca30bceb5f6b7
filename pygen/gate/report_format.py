"""What the gate and the doctor report say, as lines and JSON: pure, the commands print them."""

from __future__ import annotations

from typing import Any

from pygen.gate.contradictions import Contradiction
from pygen.gate.gate import Gate
from pygen.gate.orphans import Orphan
from pygen.gate.report import Report
from pygen.model import Location
from pygen.output import shown


def orphan_message(orphan: Orphan) -> str:
    where = shown(orphan.path)
    if orphan.prose_line is None:
        return (f"orphan: {where}: node type '{orphan.node_type}' is no longer defined; "
                "run `pygen gen --prune` to delete it")
    return (f"orphan: {where}:{orphan.prose_line}: node type '{orphan.node_type}' is no longer "
            "defined and the file holds hand-written prose; move the prose, then delete the file "
            f"(or, to keep it served as written, add '{orphan.node_type}' to legacy_types)")


def gate_lines(gate: Gate, pruned: tuple[Orphan, ...] = (), writing: bool = False
               ) -> list[str]:
    """One line per hand edit, stale name and orphan, with a closing hint per kind."""
    lines = [f"hand-edited: {edit.message(shown(edit.path))}" for edit in gate.hand_edits]
    if gate.hand_edits:
        lines.append("Generated blocks were edited by hand and pygen will not overwrite them: "
                     "move each edit into the prose or the source, then run "
                     "`pygen gen --force`.")
    lines += [name.message(shown(name.path)) for name in gate.stale_names]
    if gate.stale_names:
        level = gate.stale_prose
        lines.append(f"{'warning: ' if level == 'warn' else ''}{len(gate.stale_names)} stale "
                     f"name(s) in hand-written prose (stale_prose = \"{level}\"): rename them "
                     "in the prose to names the code has.")
    lines += [f"deleted orphan: {shown(o.path)} (node type '{o.node_type}' is gone)"
              for o in pruned]
    lines += [("warning: " if writing else "") + orphan_message(orphan)
              for orphan in gate.orphans]
    if gate.orphans and writing:
        lines.append(f"warning: {len(gate.orphans)} node file(s) no catalog node owns, kept "
                     "as they are: `pygen check` fails on them until each is moved, deleted "
                     "or listed in legacy_types.")
    lines += [f"warning: {block.message([shown(p) for p in block.paths])}"
              for block in gate.foreign]
    return lines


def gate_json(gate: Gate, pruned: tuple[Orphan, ...] = ()) -> dict[str, Any]:
    return {
        "hand_edits": [{"path": shown(e.path), "block": e.block, "line": e.line, "diff": e.diff}
                       for e in gate.hand_edits],
        "stale_prose": [{"path": shown(n.path), "line": n.line, "name": n.name,
                         "suggestion": n.suggestion} for n in gate.stale_names],
        "stale_prose_level": gate.stale_prose,
        "orphans": [{"path": shown(o.path), "node_type": o.node_type, "prose_line": o.prose_line}
                    for o in gate.orphans],
        "pruned": [shown(o.path) for o in pruned],
        "foreign_blocks": [{"id": b.id, "count": b.count,
                            "files": list(dict.fromkeys(shown(p) for p in b.paths)),
                            "was_pygens": b.was_pygens} for b in gate.foreign],
    }


def report_json(report: Report) -> dict[str, Any]:
    return {
        "ok": not report.needs_person,
        "nodes": report.node_count,
        "unresolved_data_types": list(report.unresolved),
        "structural_matches": [{"node_type": m.node_type, "data_type": m.type_name,
                                "score": m.score, "runner_up": m.runner_up,
                                "runner_up_score": m.runner_up_score}
                               for m in report.structural],
        "tools_configured": report.tools_configured,
        "tool_categories": list(report.tool_categories),
        "tool_mode": report.tool_mode, "ran_project_code": report.ran_code,
        "nodes_without_tool": list(report.nodes_without_tool),
        "tools_without_node": list(report.unused_tools),
        "tools_without_node_or_mention": list(report.unmentioned_tools),
        "prose_coverage_percent": report.prose_coverage,
        "empty_prose": [{"node_type": g.node_type, "path": shown(g.path), "sections": list(g.empty)}
                        for g in report.prose_gaps],
        **gate_json(report.gate),
        "tokens": {"total": report.total_tokens,
                   "files": [{"path": shown(t.path), "tokens": t.tokens} for t in report.tokens]},
        "schema_mismatches": [{"node_type": m.node_type, "field": m.field, "tool": m.tool,
                               "param": m.param, "kind": m.kind, "node": m.node_side,
                               "tool_side": m.tool_side} for m in report.mismatches],
        "drift": [shown(p) for p in report.drift],
        "prose_hints": [{"path": shown(n.path), "line": n.line, "name": n.name,
                         "suggestion": n.suggestion} for n in report.gate.prose_hints],
        "contradictions": [contradiction_json(c) for c in report.contradictions],
    }


def contradiction_json(c: Contradiction) -> dict[str, Any]:
    def at(where: Location | None) -> str | None:
        return f"{where.file}:{where.line}" if where else None

    return {"node_type": c.node_type, "field": c.field, "kind": c.kind, "message": c.message,
            "default_at": at(c.default_at), "type_at": at(c.type_at)}
