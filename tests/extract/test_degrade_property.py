"""Degrade per value, never per run: a value of a realistic catalog replaced by a call of an
unknown function costs one warning at its line, and nothing else changes; `pygen gen --strict`
on the same project exits 2 naming that line.

Hypothesis picks the value; each example is one real extraction (Node + ts-morph), so the
example count is small and the deadline off. The extraction fills the cache, which the
`--strict` run then reads: both halves see one extraction, as a user's second run would.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygen.cli import main
from pygen.config import load_config
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
    """The model, as `pygen gen` would load it (through the cache, which this fills)."""
    return merge.load_model(load_config(root / "pygen.toml"), use_cache=True)


def strict_run(root: Path) -> tuple[int, str]:
    """`pygen gen --strict` in the project: its exit code and what it printed."""
    result = CliRunner().invoke(main, ["gen", "--strict", "--config", str(root / "pygen.toml")])
    return result.exit_code, result.output


def by_type(model: Model) -> dict[str, dict[str, Any]]:
    return {n.type: n.model_dump(mode="json") for n in model.nodes}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Model]:
    root = tmp_path_factory.mktemp("degrade") / CASE
    shutil.copytree(CORPUS / CASE, root)
    shutil.copy(CORPUS / "tsconfig.json", root.parent / "tsconfig.json")
    (root / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    text = (root / "nodes.ts").read_text(encoding="utf-8")
    return root, text, extract(root)


def test_the_fixture_reads_clean_and_has_values_to_replace(
        project: tuple[Path, str, Model]) -> None:
    _, text, baseline = project
    assert not baseline.diagnostics
    assert len(value_sites(text)) >= 15


@pytest.mark.slow
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
        code, output = strict_run(root)
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
    # --strict: exit 2 with one error line naming the place (after the warning), nothing written.
    assert code == 2, output
    errors = [text for text in output.splitlines() if text.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith(f"error: --strict: nodes.ts:{line}: "), (
        output)
    assert not (root / "skills").exists()
