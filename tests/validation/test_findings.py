"""validation.findings: how a finding prints and the JSON report."""

from __future__ import annotations

from pygen.validation.findings import Finding, report


def test_report() -> None:
    findings = [Finding("warning", "$.a", "w"), Finding("error", "$.b", "e", "x", "f.md", 3)]
    assert report(findings) == {
        "valid": False, "errors": 1, "warnings": 1, "findings": [
            {"level": "warning", "path": "$.a", "rule": "schema", "message": "w",
             "suggestion": None},
            {"level": "error", "path": "$.b", "rule": "schema", "message": "e", "suggestion": "x",
             "file": "f.md", "line": 3}]}
    assert str(findings[1]) == 'f.md:3: $.b: e (did you mean "x"?)'
