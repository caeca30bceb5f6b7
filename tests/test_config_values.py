"""Config values checked before use: a glob names the project's own files, and a type template
has `{type}` and no placeholder it does not know."""

from __future__ import annotations

import pytest

from pygen.config_values import glob_problem, template_problem


@pytest.mark.parametrize(("pattern", "outside", "problem"), [
    ("saved/*.json", False, None),
    ("../shared/*.json", True, None),
    ("../shared/*.json", False, "climbs out"),
    ("/usr/**/*.json", True, "is absolute"),
    ("C:/flows/*.json", True, "is absolute"),
    ("  ", False, "an empty glob"),
])
def test_a_glob_names_the_projects_own_files(pattern: str, outside: bool,
                                             problem: str | None) -> None:
    found = glob_problem(pattern, outside=outside)
    assert (found is None) if problem is None else (found is not None and problem in found)


@pytest.mark.parametrize(("template", "problem"), [
    ("{package}.{type}", None), ("{package}", "it must contain {type}"),
    ("{pkg}.{type}", "unknown placeholder {pkg}"), ("{type", "write {type}")])
def test_a_type_template(template: str, problem: str | None) -> None:
    found = template_problem(template)
    assert (found is None) if problem is None else (found is not None and problem in found)
