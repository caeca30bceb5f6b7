"""`pygen gen` then `pygen check` exit 0 on every corpus project, with no hand edits.

Each project is copied (with the corpus's shared tsconfig) and run as a user would: the
commands in a fresh process, in the project folder (tests/corpus_runs.py, once per session for
every module that reads the runs). Error cases (an `expected.json` holding the error) are left
out: they are meant to stop the run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_runs import CASES, CorpusRuns, Run

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"


class Runs:
    """The session's runs, each made when a test first asks for it: a quick loop that leaves
    the corpus-wide test out runs only the projects its other tests name."""

    def __init__(self, corpus_runs: CorpusRuns) -> None:
        self.corpus_runs = corpus_runs

    def __getitem__(self, name: str) -> Run:
        return self.corpus_runs.run(name)


@pytest.fixture(scope="module")
def runs(corpus_runs: CorpusRuns) -> Runs:
    return Runs(corpus_runs)


@pytest.fixture(scope="module")
def every_run(corpus_runs: CorpusRuns) -> dict[str, Run]:
    # The whole corpus (~90 projects, ~100 s of CPU), run here: `--durations` charges it to
    # the first case's setup (acronym-names), whose own run takes about a second.
    return corpus_runs.runs(CASES)


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_gen_then_check_pass(name: str, every_run: dict[str, Run]) -> None:
    run = every_run[name]
    assert run.codes == [0, 0], run.output


def test_variants_of_one_type_get_a_skill_file_each(runs: Runs) -> None:
    assert runs["variant-catalog"].files == ["agent.md", "tool.calculator.md", "tool.search.md"]


def test_variants_of_one_type_get_a_schema_each(runs: Runs) -> None:
    doc = json.loads(runs["variant-catalog"].document)
    assert list(doc["$defs"]) == ["agent", "tool", "tool.search", "tool.calculator"]
    assert doc["$defs"]["tool.search"]["properties"]["toolType"]["const"] == "search"
    assert list(doc["x-handles"]) == list(doc["$defs"])


def test_handle_counts_as_bare_numbers_are_unnamed_handles(runs: Runs) -> None:
    handles = json.loads(runs["handle-count-number"].document)["x-handles"]
    assert handles["conditions"]["inputs"] == [None]
    assert handles["conditions"]["outputs"] == [None]
    assert handles["trigger"]["inputs"] == []
    assert "unreadable-handle" not in runs["handle-count-number"].output


def test_a_record_of_handle_factories_keeps_its_keys_as_handle_ids(runs: Runs) -> None:
    handles = json.loads(runs["handle-factories"].document)["x-handles"]
    assert handles["MathNode"]["inputs"] == ["operation", "num1", "num2"]
    assert handles["MathNode"]["outputs"] == ["result"]
    assert handles["DisplayNode"]["inputs"] == ["value"]
    assert "computed" not in runs["handle-factories"].output



def gen_output(name: str, tmp_path: Path) -> tuple[str, list[str]]:
    """What `pygen gen` (not quiet) says on one corpus project, run as a user would, and the
    node skill files it writes."""
    shutil.copy(CORPUS / "tsconfig.json", tmp_path / "tsconfig.json")
    root = shutil.copytree(CORPUS / name, tmp_path / name,
                           ignore=shutil.ignore_patterns("expected.*"))
    done = subprocess.run([sys.executable, "-m", "pygen", "gen"], cwd=root, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    files = sorted(p.name for p in (root / "skills" / "nodes").glob("[!_]*.md"))
    return done.stdout + done.stderr, files


def test_an_entry_whose_type_is_computed_is_left_out_saying_so(tmp_path: Path) -> None:
    output, files = gen_output("computed-type", tmp_path)
    assert files == ["fetch.md"]
    assert ("nodes.ts:17: the node definition at nodes.ts:16 is left out: its 'type' is "
            "computed at run time") in output
    assert "listed as computed" not in output


def test_an_asset_import_in_an_entry_is_skipped_silently(tmp_path: Path) -> None:
    output, files = gen_output("asset-members", tmp_path)
    assert files == ["end.md", "start.md"]
    assert "'meta.hint' (computed by lookupDescription at run time)" in output
    assert "badge" not in output and "icon" not in output


def test_classes_that_are_not_nodes_cause_no_warning(tmp_path: Path) -> None:
    # A helper class sets no type field: left out silently. A credential class that is named
    # like a node is read as one (its fields are static data), without a computed warning
    # (`class:*:Node` leaves it out). An abstract base class is never constructed: no node.
    output, files = gen_output("class-credentials", tmp_path)
    assert files == ["chatLocal.md", "derived.md", "localApi.md", "stickyNote.md"]
    assert "computed" not in output and "skipped" not in output
    assert "utils.ts" not in output and "credential.ts" not in output
