"""The warning summary: one line per kind, the first places, everything with --verbose."""

from __future__ import annotations

from pygen.diagnostics import PLACES, summarize
from pygen.model import Diagnostic


def warning(kind: str | None, line: int, message: str = "m") -> Diagnostic:
    return Diagnostic(level="warning", kind=kind, file="nodes.ts", line=line, message=message)


def test_56_nodes_with_two_warning_kinds_print_two_lines() -> None:
    diagnostics = [warning("no-data-type", i) for i in range(1, 57)]
    diagnostics += [warning("computed", 100 + i) for i in range(5)]
    lines = summarize(diagnostics)
    assert len(lines) == 2
    assert lines[0].startswith("warning: nodes without a data type"
                               " (map them in data_types) — 56 times: ")
    assert "nodes.ts:1, nodes.ts:2, nodes.ts:3, … (+53 more; --verbose lists all)" in lines[0]
    assert lines[1].startswith("warning: values computed at run time")
    assert " — 5 times: " in lines[1]
    assert lines[1].count("nodes.ts:") == PLACES


def test_a_kind_seen_once_prints_its_own_message() -> None:
    assert summarize([warning("computed", 7, "node 'a': 'label' is computed")]) == [
        "warning: nodes.ts:7: node 'a': 'label' is computed"]


def test_verbose_prints_every_diagnostic_in_order() -> None:
    diagnostics = [warning("computed", i, f"w{i}") for i in range(1, 7)]
    assert summarize(diagnostics, verbose=True) == [f"warning: nodes.ts:{i}: w{i}"
                                                    for i in range(1, 7)]


def test_kinds_keep_the_order_they_first_appear_and_unknown_kinds_stand_alone() -> None:
    diagnostics = [warning(None, 1, "odd"), warning("computed", 2), warning(None, 3, "odd"),
                   warning("computed", 4), warning(None, 5, "other")]
    lines = summarize(diagnostics)
    assert lines[0] == "warning: odd — 2 times: nodes.ts:1, nodes.ts:3"
    assert lines[1].startswith("warning: values computed at run time")
    assert " — 2 times: " in lines[1]
    assert lines[2] == "warning: nodes.ts:5: other"


def test_strict_names_the_first_computed_value_and_counts_the_rest() -> None:
    from pygen.diagnostics import strict_failure

    assert strict_failure([warning("no-data-type", 1)]) is None
    message = strict_failure([warning("no-data-type", 1), warning("computed", 9, "x is computed"),
                              warning("evaluator-limit", 12)])
    assert message is not None
    assert message.startswith("--strict: nodes.ts:9: x is computed (and 1 more;")
