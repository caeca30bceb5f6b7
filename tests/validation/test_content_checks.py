"""check fails on a wrong worked example and on a broken orchestrator SKILL.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main

BAD_EXAMPLE = """
## Worked example (hand-written)

```json
{ "id": "n1", "type": "generate-image", "data": { "label": "x", "provider": "flx" } }
```
"""


def run(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def generated(studio: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    assert run(studio, monkeypatch, "gen", "-q").exit_code == 0
    return studio


def test_a_wrong_hand_written_example_fails_check_with_file_and_line(
        generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skill = generated / "skills" / "nodes" / "generate-image.md"
    text = skill.read_text()
    skill.write_text(text.replace("## Common gotchas\n", BAD_EXAMPLE + "\n## Common gotchas\n"))
    lines = skill.read_text().splitlines()
    line = lines.index("```json", lines.index("## Worked example (hand-written)")) + 1
    result = run(generated, monkeypatch, "check", "-q")
    assert result.exit_code == 1
    errors = [x for x in result.output.splitlines() if x.startswith("error:")]
    assert any(e.startswith(f"error: skills/nodes/generate-image.md:{line}:") and '"flx"' in e
               for e in errors), errors


def test_generated_examples_pass(generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(generated, monkeypatch, "check")
    assert result.exit_code == 0, result.output


def test_orchestrator_name_must_match_its_folder(
        generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = generated / "skills" / "trailer"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: film-director\ndescription: x\n---\n# T\n")
    result = run(generated, monkeypatch, "check", "-q")
    assert result.exit_code == 1
    assert "skills/trailer/SKILL.md" in result.output and "film-director" in result.output


def test_schema_file_is_generated_and_drift_gated(
        generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schema = generated / "skills" / "schemas" / "nodes.schema.json"
    assert '"generate-image"' in schema.read_text()
    schema.write_text(schema.read_text().replace('"flux-pro"', '"flux-max"'))
    result = run(generated, monkeypatch, "check", "-q")
    assert result.exit_code == 1
    assert "stale: skills/schemas/nodes.schema.json" in result.output


def test_the_fallback_copy_is_written_by_gen_and_gated_by_check(
        studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with (studio / "pygen.toml").open("a") as handle:
        handle.write('fallback_file = "server/fallback/workflow-editor.md"\n')
    assert run(studio, monkeypatch, "gen", "-q").exit_code == 0
    copy = studio / "server" / "fallback" / "workflow-editor.md"
    assert copy.read_bytes() == (studio / "skills" / "workflow-editor.md").read_bytes()
    copy.write_bytes(copy.read_bytes() + b"\n")
    result = run(studio, monkeypatch, "check", "-q")
    assert result.exit_code == 1
    assert "stale: server/fallback/workflow-editor.md" in result.output
