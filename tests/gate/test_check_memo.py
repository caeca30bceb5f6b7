"""The memo of a clean check: it answers the next check until any input changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from cached_project import MODES_TS, config, make_project, node_runs, run

from pygen.extract import cache
from pygen.gate import check_memo


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return make_project(tmp_path, monkeypatch)


def clean_check_then(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert check_memo.clean_check(config(project), strict=False) is not None


def test_a_clean_check_is_remembered_and_answers_the_next_one(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    again = run(project, "check", monkeypatch=monkeypatch)
    assert again.exit_code == 0 and again.output == "4 skill files are current.\n"
    assert check_memo.clean_check(config(project), strict=True) is None  # other flags, other key


def test_a_hand_edit_after_a_clean_check_is_still_caught(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    skill = project / "skills" / "nodes" / "prompt.md"
    skill.write_text(skill.read_text().replace("- **Type:**", "- **Kind:**"))
    result = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "hand-edited" in result.output


def test_a_new_file_in_the_skills_dir_after_a_clean_check_is_still_caught(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    (project / "skills" / "nodes" / "gone.md").write_text("---\nnode_type: gone\n---\n# Gone\n")
    result = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "gone.md" in result.output


def test_a_type_change_after_a_clean_check_is_still_caught(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    (project / "src" / "modes.ts").write_text(MODES_TS.replace('"slow"', '"slod"'))
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 1


def test_a_changed_pygen_of_the_same_version_is_a_miss(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    monkeypatch.setattr(cache, "code_id", lambda: "another build")
    assert check_memo.clean_check(config(project), strict=False) is None
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert node_runs(project) == 2


WARNED_TS = """\
export interface PromptData {
  /** @default 30 */
  steps: number;
}
const stamp = () => Date.now();
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"],
    defaultData: { steps: 45, seed: stamp() } },
];
"""


def test_a_passing_check_with_warnings_is_remembered_and_says_them_again(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's warnings (a computed value) and a contradiction in the code (@default
    against the default data) are said by the remembered run exactly as by the first."""
    (project / "src" / "nodes.ts").write_text(WARNED_TS)
    assert run(project, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    first = run(project, "check", monkeypatch=monkeypatch)
    passed = check_memo.clean_check(config(project), strict=False)
    assert passed is not None and passed.warnings and passed.contradictions
    runs = node_runs(project)
    again = run(project, "check", monkeypatch=monkeypatch)
    assert first.exit_code == again.exit_code == 0
    assert "computed" in first.output and "@default 30 disagrees" in first.output
    assert again.output == first.output and node_runs(project) == runs
    as_json = run(project, "check", "--json", monkeypatch=monkeypatch)
    fresh = run(project, "check", "--json", "--no-cache", monkeypatch=monkeypatch)
    assert as_json.output == fresh.output and '"warnings": []' not in as_json.output
