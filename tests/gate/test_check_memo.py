"""The memo of a clean check: it answers the next check until any input changes."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from cached_project import MODES_TS, config, make_project, node_runs, run

from pygen.extract import cache, cachefile
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
    assert again.exit_code == 0 and again.output == "5 skill files are current.\n"
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


@pytest.mark.slow
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


@pytest.mark.slow
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


def memo(project: Path) -> tuple[Path, dict[str, object]]:
    path = cache.cache_dir(config(project)) / "check.json"
    stored = json.loads(path.read_text())
    assert isinstance(stored["payload"], dict)
    return path, stored["payload"]


def test_a_settled_file_with_its_recorded_stat_is_not_read_again(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm check costs a stat per file: no file is hashed when every stat matches and
    the memo was written well after the files last changed."""
    clean_check_then(project, monkeypatch)
    path, payload = memo(project)
    cache.write_entry(path, {**payload, "written_ns": time.time_ns() + 10**10})

    real = cachefile.sha256_of

    def hashed(file: Path) -> str | None:
        assert project not in file.parents, f"hashed {file}"
        return real(file)  # pygen's own (the ts-morph install in the key)

    monkeypatch.setattr(cachefile, "sha256_of", hashed)
    assert check_memo.clean_check(config(project), strict=False) is not None


def test_a_file_changed_around_the_memo_is_hashed_though_its_stat_matches(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file rewritten just after it was hashed, its new stat recorded: the memo's time says
    the stat cannot be trusted, so its bytes are compared and the edit is caught."""
    clean_check_then(project, monkeypatch)
    skill = project / "skills" / "nodes" / "prompt.md"
    skill.write_text(skill.read_text().replace("- **Type:**", "- **Kind:**"))
    path, payload = memo(project)
    inputs = payload["inputs"]
    assert isinstance(inputs, list)
    stats = cache.stats([Path(e[0]) for e in inputs])
    cache.write_entry(path, {**payload, "stats": stats, "written_ns": time.time_ns()})
    assert check_memo.clean_check(config(project), strict=False) is None
    cache.write_entry(path, {**payload, "stats": stats, "written_ns": time.time_ns() + 10**10})
    assert check_memo.clean_check(config(project), strict=False) is not None  # settled: trusted


@pytest.mark.slow
def test_a_same_size_edit_of_a_settled_file_is_caught_by_its_stat(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    path, payload = memo(project)
    cache.write_entry(path, {**payload, "written_ns": time.time_ns() + 10**10})
    modes = project / "src" / "modes.ts"
    before = modes.stat()
    modes.write_text(modes.read_text().replace('"slow"', '"slod"'))
    os.utime(modes, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime
    assert check_memo.clean_check(config(project), strict=False) is None
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 1
