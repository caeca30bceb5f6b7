"""One class serving several versions (`version: [1, 1.1, 2, 2.1]`) whose parameters say
which versions show them (`@version`), through the CLI: each distinct set of fields is a
variant, its skill names its versions, and a saved node's `typeVersion` picks the fields its
parameters are checked against."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "ts" / "versions-single-class"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture after `gen`; `check` passes on it (and validates its saved
    workflow, whose nodes name versions 1, 2.1 and 2)."""
    out = tmp_path / "project"
    shutil.copytree(CASE, out, ignore=shutil.ignore_patterns("expected.*"))
    monkeypatch.chdir(out)
    for command in ("gen", "check"):
        result = CliRunner().invoke(main, [command, "-q"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return out


def validate(root: Path, version: float | None, parameters: dict[str, object]) -> list[str]:
    node: dict[str, object] = {"id": "s", "name": "Sheet", "type": "sheet",
                               "position": [0, 0], "parameters": parameters}
    if version is not None:
        node["typeVersion"] = version
    path = root / "one.json"
    path.write_text(json.dumps({"nodes": [node], "connections": {}}), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", "--profile", "strict", str(path)])
    lines = result.stdout.splitlines()
    assert result.exit_code == any(line.startswith("error:") for line in lines), result.output
    return lines


def test_each_set_of_fields_is_a_skill_naming_its_versions(root: Path) -> None:
    skills = sorted(p.name for p in (root / "skills" / "nodes").glob("*.md"))
    assert skills == ["_README.md", "note.md", "sheet.1.1.md", "sheet.2.1.md", "sheet.2.md"]
    old = (root / "skills" / "nodes" / "sheet.1.1.md").read_text(encoding="utf-8")
    assert ("- **Variant:** `1.1` (versions `1`, `1.1`; one of several `sheet` nodes; its "
            "`typeVersion` says which)") in old
    assert "`range?: string`" in old and "sheetId" not in old
    newest = (root / "skills" / "nodes" / "sheet.2.1.md").read_text(encoding="utf-8")
    assert "- `sheetId: string` — Sheet ID" in newest and "rawData" not in newest
    assert "`headerRow?: boolean`" in newest  # a nested option shown from version 2 on
    # Versions with the same fields stay one node; a field no version shows is left out.
    note = (root / "skills" / "nodes" / "note.md").read_text(encoding="utf-8")
    assert "- **Versions:** `1`, `2` (the same data fields in each)" in note
    assert "legacy" not in note
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert doc["$defs"]["sheet"]["x-variants"] == {
        "field": "version", "default": "sheet.2.1",
        "values": {"1": "sheet.1.1", "1.1": "sheet.1.1", "2": "sheet.2", "2.1": "sheet.2.1"}}


def test_a_saved_nodes_version_picks_the_fields_it_is_checked_against(root: Path) -> None:
    assert validate(root, 1, {"operation": "read", "range": "A:C", "rawData": True}) == []
    assert validate(root, 2.1, {"sheetId": "s-1", "range": "A:C"}) == [
        'error: $.nodes[0].parameters.range: "range" is a field of "sheet.1.1", not of '
        '"sheet.2.1"; drop it, or set typeVersion to "1.1"']
    assert validate(root, 2, {"sheetId": "s-1", "range": "A:C", "rawData": True}) == [
        'error: $.nodes[0].parameters.range: "range" is a field of "sheet.1.1", not of '
        '"sheet.2"; drop it, or set typeVersion to "1.1"']
    assert validate(root, 2, {"operation": "read"}) == [
        "error: $.nodes[0].parameters.sheetId: missing required field (string)"]
    assert validate(root, 1.1, {"options": {"headerRow": True}}) == [
        "warning: $.nodes[0].parameters.options.headerRow: unknown field"]


def test_a_node_naming_no_version_is_checked_as_the_latest(root: Path) -> None:
    assert validate(root, None, {"sheetId": "s-1", "options": {"headerRow": False}}) == []
    assert validate(root, 3, {"sheetId": "s-1"}) == [
        'error: $.nodes[0].typeVersion: "sheet" has no version 3; its versions are "1", '
        '"1.1", "2", "2.1"; it is checked as version "2.1"']


@pytest.mark.slow
def test_a_class_whose_versions_come_apart_is_read_again_alone(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Incremental extraction: the changed class is re-read and split as a full run does."""
    note = root / "nodes" / "Note" / "Note.node.ts"
    text = note.read_text(encoding="utf-8")
    note.write_text(text.replace('show: { "@version": [1, 2] }', 'show: { "@version": [2] }'),
                    encoding="utf-8")
    check = CliRunner().invoke(main, ["check", "-v"])
    assert check.exit_code == 1
    assert "re-read 1 of 2 nodes" in check.output and "skills/nodes/note.1.md" in check.output
    gen = CliRunner().invoke(main, ["gen", "-q", "--prune"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    assert CliRunner().invoke(main, ["check", "-q"]).exit_code == 0
    cold = tmp_path / "cold"
    shutil.copytree(root, cold, ignore=shutil.ignore_patterns("skills", ".pygen*"))
    monkeypatch.chdir(cold)
    assert CliRunner().invoke(main, ["gen", "-q", "--no-cache"]).exit_code == 0
    # The node skills a cold run writes (the schema document also keeps what was retired).
    made = sorted(p.name for p in (root / "skills" / "nodes").glob("*.md"))
    assert made == sorted(p.name for p in (cold / "skills" / "nodes").glob("*.md"))
    assert [name for name in made if "note" in name] == ["note.1.md", "note.2.md"]
    for name in made:
        assert body(root / "skills" / "nodes" / name) == body(cold / "skills" / "nodes" / name)


def body(path: Path) -> list[str]:
    """A skill file without its generation time."""
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith("generated_at:")]


@pytest.mark.slow
def test_serve_answers_the_plain_type_a_workflow_names(root: Path) -> None:
    # gen wrote the schema document's index: serve opens the document through it.
    import anyio
    from serve_helpers import stdio_session, text_of

    assert (root / "skills" / "schemas" / "nodes.index.json").is_file()

    async def ask() -> tuple[str, bool]:
        async with stdio_session(["--skills-dir", str(root / "skills")],
                                 root.parent / "err.log") as client:
            result = await client.call_tool("get_node_skill", {"node_type": "sheet"})
            return text_of(result), bool(result.is_error)

    said, failed = anyio.run(ask)
    assert not failed, said
    assert said.startswith("Note: `sheet` has 3 versions (`typeVersion`: ")
    assert "`sheetId: string`" in said  # the default (newest) variant's fields
