"""validation.examples: the ```json examples in skill files, and `check` failing on a wrong
worked example or a broken orchestrator SKILL.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.model import Model
from pygen.validation.catalog import build_catalog
from pygen.validation.examples import (
    PLACEHOLDER_HINT,
    check_skill_examples,
    json_blocks,
    placeholders,
)
from pygen.validation.findings import Finding

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
REPO = Path(__file__).resolve().parents[2]
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
EXOTIC = Model.model_validate_json((FIXTURES / "exotic.model.json").read_text(encoding="utf-8"))
CATALOG = build_catalog(Model(nodes=STUDIO.nodes + EXOTIC.nodes, conventions=STUDIO.conventions))


def lines(findings: list[Finding]) -> list[str]:
    return [f"{f.level}: {f}" for f in findings]


# --- Examples in skill files -------------------------------------------------------------

SKILL = """\
# Generate image

Default data (a data object, neither a node nor a workflow: skipped):

```json
{ "label": "x" }
```

A sketch that is not JSON (skipped):

```json
{ "nodes": [ { "data": {...} } ], "edges": [] }
```

```json
{
  "id": "a",
  "type": "note",
  "data": { "label": "<your title>", "text": "<URL from response>", "colour": "pink" }
}
```

````json
{"nodes": [{"id": "a", "type": "text-prompt", "data": {"label": "t", "text": ""}}],
 "edges": [{"id": "e", "source": "a", "sourceHandle": "txt", "target": "b"}]}
````

```python
{"type": "note", "data": {}}
```
"""


def test_check_skill_examples_reports_file_and_line() -> None:
    # The runtime profile: `color` is missing but its default fills it, so it is not reported.
    assert lines(check_skill_examples(SKILL, "skills/nodes/x.md", CATALOG)) == [
        "warning: skills/nodes/x.md:15: $.data.colour: unknown field for \"note\" data "
        '(did you mean "color"?)',
        'error: skills/nodes/x.md:23: $.edges[0].sourceHandle: "txt" is not one of the outputs '
        'of node "a" (text-prompt): "text" (did you mean "text"?)',
        'error: skills/nodes/x.md:23: $.edges[0].target: no node has id "b"',
        'error: skills/nodes/x.md:23: $.nodes[0].position: expected {"x": number, "y": number}, '
        "it is missing",
    ]


def test_json_blocks() -> None:
    text = "```json\n{}\n```\n  ~~~JSON\n[1]\n~~~\n```json\nunclosed"
    assert list(json_blocks(text)) == [(1, "{}"), (4, "[1]"), (7, "unclosed")]


def test_committed_skill_examples_pass() -> None:
    """Every example the skills teach validates against the studio model they came from."""
    checked = 0
    for path in sorted((REPO / "skills").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert check_skill_examples(text, str(path), STUDIO) == []
        checked += len(list(json_blocks(text)))
    assert checked > 0


# --- `pygen check` on the skill files ----------------------------------------------------

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


SCHEMATIC = """A shape, not a workflow:

```json schematic
{"nodes": [{"id": "n1", "type": "no-such-type", "data": {}}], "edges": []}
```

<!-- pygen: schematic -->

```json
{"id": "n1", "type": "no-such-type", "data": {}}
```

```json
{"id": "n1", "type": "<node-type>", "data": {}}
```

```json
{"id": "n1", "type": "no-such-type", "data": {}}
```
"""


def test_schematic_blocks_are_not_validated_and_placeholders_get_a_hint() -> None:
    assert [line for line, _ in json_blocks(SCHEMATIC)] == [13, 17]
    findings = check_skill_examples(SCHEMATIC, "skills/x.md", CATALOG)
    assert [(f.level, f.line) for f in findings] == [("warning", 13), ("error", 17)]
    assert findings[0].message == PLACEHOLDER_HINT


def test_placeholders_count_where_names_go_not_in_sample_data() -> None:
    assert placeholders({"nodes": [{"id": "n1", "type": "<node-type>"}]})
    assert placeholders({"edges": [{"sourceHandle": "<output>"}]})
    assert not placeholders({"id": "a", "type": "note", "data": {"text": "<your text>"}})
    assert not placeholders({"type": "note", "data": {}, "note": "a < b > c"})
