"""Degrade per value, never per run: a value of a realistic catalog replaced by a call of an
unknown function costs one warning at its line, and nothing else changes.

Hypothesis picks the value; each example is one real extraction (Node + ts-morph), so the
example count is small and the deadline off.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygen.config import Config, Settings
from pygen.diagnostics import strict_failure
from pygen.model import Model
from pygen.tools import merge

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
CASE = "static-lookups"
# A property whose value ends its line: `label: BLOCK_CONFIGS[BlockKind.START].label,`.
VALUE = re.compile(r"^(\s*[A-Za-z_]\w*: )(.+?)(,?)$")


def value_sites(text: str) -> list[tuple[int, str]]:
    """(line number, value text) of every one-line value inside the definitions literal."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "NODE_DEFINITIONS" in line)
    sites = []
    for number, line in enumerate(lines[start + 1:], start + 2):
        match = VALUE.match(line)
        if match and not match.group(2).endswith(("{", "[")):
            sites.append((number, match.group(2)))
    return sites


def extract(root: Path) -> Model:
    return merge.load_model(Config(settings=Settings(nodes_file="nodes.ts"), source=None,
                                      root=root))


def by_type(model: Model) -> dict[str, dict[str, Any]]:
    return {n.type: n.model_dump(mode="json") for n in model.nodes}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Model]:
    root = tmp_path_factory.mktemp("degrade") / CASE
    shutil.copytree(CORPUS / CASE, root)
    shutil.copy(CORPUS / "tsconfig.json", root.parent / "tsconfig.json")
    text = (root / "nodes.ts").read_text(encoding="utf-8")
    return root, text, extract(root)


def test_the_fixture_reads_clean_and_has_values_to_replace(
        project: tuple[Path, str, Model]) -> None:
    _, text, baseline = project
    assert not baseline.diagnostics
    assert len(value_sites(text)) >= 15


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(min_value=0, max_value=10_000))
def test_an_unknown_call_anywhere_is_one_warning_at_its_line(
        project: tuple[Path, str, Model], pick: int) -> None:
    root, text, baseline = project
    sites = value_sites(text)
    line, value = sites[pick % len(sites)]
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(value, "lookupAtRuntime()", 1)
    (root / "nodes.ts").write_text("".join(lines), encoding="utf-8")
    try:
        model = extract(root)
    finally:
        (root / "nodes.ts").write_text(text, encoding="utf-8")
    assert [str(d) for d in model.diagnostics if d.line == line] == [
        str(d) for d in model.diagnostics]
    assert len(model.diagnostics) == 1, [str(d) for d in model.diagnostics]
    warning = model.diagnostics[0]
    assert (warning.file, warning.line, warning.kind) == ("nodes.ts", line, "computed")
    before, after = by_type(baseline), by_type(model)
    # A node whose type itself is unknown is left out: that node, and only it, is gone.
    gone = set(before) - set(after)
    assert len(gone) <= 1 and (not gone or warning.node_type is None)
    touched = warning.node_type or next(iter(gone))
    assert {t: n for t, n in after.items() if t != touched} == {
        t: n for t, n in before.items() if t != touched}
    failure = strict_failure(model.diagnostics)
    assert failure is not None and failure.startswith(f"--strict: nodes.ts:{line}: ")
