"""The example checks' memo: a file's JSON examples are checked again exactly when the
catalog entries they name (or their text) change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import TWO_NODES_TS, generated, run

from pygen.validation import example_memo, examples

EXAMPLE = """
## When to use

Like this:

```json
{"id": "m", "type": "middle", "position": {"x": 0, "y": 0}, "data": {"strength": 4}}
```
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    generated(tmp_path, monkeypatch)
    note = tmp_path / "skills" / "nodes" / "note.md"
    note.write_text(note.read_text().replace("## When to use\n", EXAMPLE, 1))
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0  # the index
    assert run(tmp_path, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    return tmp_path


def checked_files(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = examples.file_problems

    def counting(text: str, label: str, catalog: object) -> tuple[list[str], list[str]]:
        seen.append(Path(label).name)
        return real(text, label, catalog)  # type: ignore[arg-type]

    monkeypatch.setattr(examples, "file_problems", counting)
    return seen


@pytest.mark.slow
def test_an_example_of_a_changed_node_is_checked_again(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = project / "src" / "nodes.ts"
    nodes.write_text(TWO_NODES_TS.replace("strength: number;", "strength: string;"))
    seen = checked_files(monkeypatch)
    memo_run = run(project, "check", monkeypatch=monkeypatch)
    assert "note.md" in seen  # its example names the middle node
    fresh = run(project, "check", "--no-cache", monkeypatch=monkeypatch)
    assert memo_run.exit_code == fresh.exit_code == 1
    assert memo_run.output == fresh.output
    assert "note.md" in memo_run.output and "strength" in memo_run.output


def test_an_example_naming_no_changed_node_is_not_checked_again(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = project / "src" / "nodes.ts"
    nodes.write_text(TWO_NODES_TS.replace("body: string;", "body: string;\n  /** New. */\n"
                                      "  pinned?: boolean;"))
    seen = checked_files(monkeypatch)
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 1  # note.md drifts
    # The note's own file is checked again (its text changed); the middle node's is not.
    assert "middle.md" not in seen


def test_a_damaged_memo_is_checked_afresh(project: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (project / ".pygen-cache" / example_memo.FILE).write_text("{not json")
    seen = checked_files(monkeypatch)
    (project / ".pygen-cache" / "check.json").unlink()
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert "note.md" in seen and "middle.md" in seen


def test_strings_are_every_key_and_value() -> None:
    value = {"nodes": [{"type": "a", "data": {"k": ["v", 1, 'say "hi"', "\u00e9\\"]}}]}
    text = f"Prose with a \"word\".\n```json\n{json.dumps(value)}\n```\n"
    assert example_memo.strings(text) == {"word", "a", "data", "k", "nodes", "type", "v",
                                          'say "hi"', "\u00e9\\"}
