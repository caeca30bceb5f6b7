"""`pygen validate-workflow`: output, exit codes, inputs; one run through the real extractor."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.model import Model
from pygen.schema.document import schema_document
from pygen.validation.catalog import Catalog
from pygen.validation.workflow import validate_workflow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
REPO = Path(__file__).resolve().parents[2]
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
PIPELINE = FIXTURES / "valid" / "studio-pipeline.json"
BROKEN = FIXTURES / "invalid" / "bad-enum-value.json"


def workflow_text(case: Path) -> str:
    return json.dumps(json.loads(case.read_text(encoding="utf-8"))["workflow"])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config whose model is the studio fixture (no Node); workflows written beside it."""
    monkeypatch.setattr("pygen.tools.merge.load_model", lambda config, use_cache=False: STUDIO)
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    (tmp_path / "ok.json").write_text(workflow_text(PIPELINE), encoding="utf-8")
    (tmp_path / "broken.json").write_text(workflow_text(BROKEN), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["validate-workflow", *args], input=stdin)


def test_valid_workflow_exits_0(project: Path) -> None:
    result = run("ok.json")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "valid: 0 errors, "
                                                                       "0 warnings\n")


def test_invalid_workflow_exits_1_with_one_line_per_finding(project: Path) -> None:
    result = run("broken.json")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == json.loads(BROKEN.read_text(encoding="utf-8"))[
        "findings"]
    assert result.stderr == "invalid: 3 errors, 0 warnings\n"


def test_json_output(project: Path) -> None:
    result = run("broken.json", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert (doc["valid"], doc["errors"], doc["warnings"]) == (False, 3, 0)
    assert doc["findings"][0] == {
        "level": "error", "path": "$.nodes[0].data.provider", "suggestion": "flux", "rule": "enum",
        "message": '"flx" is not one of "flux", "flux-pro", "flux-kontext", "nano-banana-pro", '
                   '"ideogram"',
        "fix": {"op": "set", "path": "$.nodes[0].data.provider", "value": "flux"}}
    assert result.stderr == ""


def test_warnings_alone_exit_0(project: Path) -> None:
    (project / "w.json").write_text(json.dumps({"nodes": [{
        "id": "a", "type": "note", "position": {"x": 0, "y": 0},
        "data": {"label": "n", "text": "", "color": "gray", "colour": "grey"}}], "edges": []}),
        encoding="utf-8")
    result = run("w.json")
    assert result.exit_code == 0
    # No "did you mean color": color is there already.
    assert result.stdout == 'warning: $.nodes[0].data.colour: unknown field for "note" data\n'
    assert result.stderr == "valid: 0 errors, 1 warning\n"


def test_reads_stdin(project: Path) -> None:
    result = run("-", stdin=workflow_text(BROKEN))
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 3


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (["bad.json"], None, "error: bad.json:2:14: invalid JSON: Expecting ',' delimiter\n"),
    (["-"], "{]", "error: <stdin>:1:2: invalid JSON: Expecting property name enclosed in "
                  "double quotes\n"),
    (["missing.json"], None, "error: missing.json: cannot read: No such file or directory\n"),
])
def test_unreadable_input_exits_2(project: Path, args: list[str], stdin: str | None,
                                  message: str) -> None:
    (project / "bad.json").write_text('{"nodes": [],\n "edges": [] "x"}', encoding="utf-8")
    result = run(*args, stdin=stdin)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_schemas_file_needs_no_model(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_model(config: object) -> Model:
        raise AssertionError("the model must not be loaded")
    monkeypatch.setattr("pygen.tools.merge.load_model", no_model)
    schemas = project / "nodes.schema.json"
    schemas.write_text(schema_document(STUDIO), encoding="utf-8")
    result = run("broken.json", "--schemas", str(schemas))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == json.loads(BROKEN.read_text(encoding="utf-8"))[
        "findings"]


def test_end_to_end_through_the_real_extractor(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The studio example extracted by Node validates the corpus as the fixture model does, and
    `pygen schema` prints a document that validates the same way."""
    shutil.copytree(REPO / "examples" / "studio", tmp_path / "studio",
                    ignore=shutil.ignore_patterns("__pycache__", "tools"))
    (tmp_path / "pygen.toml").write_text(
        'nodes_file = "studio/src/types/nodes.ts"\ntsconfig = "studio/tsconfig.json"\n',
        encoding="utf-8")
    (tmp_path / "broken.json").write_text(workflow_text(BROKEN), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("broken.json")
    assert result.exit_code == 1, result.stderr
    assert result.stdout.splitlines() == json.loads(BROKEN.read_text(encoding="utf-8"))[
        "findings"]
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0, result.stderr
    catalog = Catalog.from_json(result.stdout, "schema output")
    assert catalog.types == [n.type for n in STUDIO.nodes]
    for case in (PIPELINE, BROKEN):
        workflow = json.loads(case.read_text(encoding="utf-8"))["workflow"]
        assert validate_workflow(workflow, catalog) == validate_workflow(workflow, STUDIO)


def test_fix_prints_the_repaired_workflow_and_each_change(project: Path) -> None:
    case = json.loads((REPO / "tests" / "fixtures" / "broken-workflows" /
                       "unknown-field-snake-case.json").read_text(encoding="utf-8"))
    (project / "slip.json").write_text(json.dumps(case["workflow"]), encoding="utf-8")
    result = run("slip.json", "--fix")
    assert result.exit_code == 0, result.stderr
    fixed = json.loads(result.stdout)
    assert "aspectRatio" in fixed["nodes"][1]["data"]
    assert "aspect_ratio" not in fixed["nodes"][1]["data"]
    assert result.stderr.splitlines() == [
        "fixed: rename $.nodes[1].data.aspect_ratio → aspectRatio (unknown-field)",
        "valid after 1 fix"]
    assert run("slip.json", "--fix", "--json").exit_code == 0


def test_rules_lists_every_rule_id_the_corpora_produce(project: Path) -> None:
    result = run("--rules")
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.stdout.splitlines()}
    seen: set[str] = set()
    for case in sorted((REPO / "tests" / "fixtures").glob("*workflows/*/*.json")) + sorted(
            (REPO / "tests" / "fixtures" / "broken-workflows").glob("*.json")):
        doc = json.loads(case.read_text(encoding="utf-8"))
        seen |= {f.rule for f in validate_workflow(doc["workflow"], STUDIO, "strict")}
    assert seen and seen <= listed
    assert run().exit_code == 2  # no FILE and no --rules


def test_variants_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant catalog extracted by Node: each node is checked against its own variant, and
    `pygen schema <type>.<value>` prints that variant's schema."""
    shutil.copytree(REPO / "tests" / "fixtures" / "ts" / "variant-catalog", tmp_path / "app",
                    ignore=shutil.ignore_patterns("expected.*"))
    shutil.copy(REPO / "tests" / "fixtures" / "ts" / "tsconfig.json", tmp_path)
    monkeypatch.chdir(tmp_path / "app")
    search = {"toolType": "search", "engine": "bing", "maxResults": 5, "precision": 2}
    workflow = {"nodes": [{"id": i, "type": t, "position": {"x": 0, "y": 0}, "data": data}
                          for i, t, data in (
        ("a", "agent", {"model": "gpt-4o"}), ("s", "tool", search),
        ("c", "tool", {"toolType": "calculator", "precision": 2}))],
        "edges": [{"id": "e", "source": "a", "target": "c", "targetHandle": "query"}]}
    result = run("-", stdin=json.dumps(workflow))
    assert result.exit_code == 1, result.stderr
    assert result.stdout.splitlines() == [
        'error: $.nodes[1].data.precision: "precision" is a field of "tool.calculator", not of '
        '"tool.search"; drop it, or set toolType to "calculator"',
        'error: $.edges[0].targetHandle: node "c" (tool.calculator) has no inputs; no edge can '
        "enter it"]
    result = CliRunner().invoke(main, ["schema", "tool.search"])
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    assert schema["properties"]["toolType"]["const"] == "search"
    assert "precision" not in schema["properties"]


def test_many_files_and_globs_in_one_call(project: Path) -> None:
    """One catalog load, each file's findings under its name, one line and exit for all."""
    flows = project / "flows" / "deep"
    flows.mkdir(parents=True)
    shutil.copy(project / "ok.json", flows / "a.json")
    shutil.copy(project / "broken.json", project / "flows" / "b.json")
    result = run("ok.json", "flows/**/*.json")
    assert result.exit_code == 1
    findings = json.loads(BROKEN.read_text(encoding="utf-8"))["findings"]
    assert result.stdout.splitlines() == [f"flows/b.json: {line}" for line in findings]
    assert result.stderr == "3 files: 2 valid, 1 invalid, 0 unreadable\n"


def test_many_files_json_carries_each_file_and_the_worst_exit(project: Path) -> None:
    (project / "bad.json").write_text("{", encoding="utf-8")
    result = run("--json", "ok.json", "broken.json", "bad.json", "none/*.json")
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert [(f["file"], f.get("valid")) for f in out["files"]] == [
        ("ok.json", True), ("broken.json", False), ("bad.json", None), ("none/*.json", None)]
    assert out["files"][1]["errors"] == 3
    assert out["files"][3]["error"] == "none/*.json: no file matches this pattern"
    assert (out["valid"], out["valid_files"], out["invalid"], out["unreadable"]) == (
        False, 1, 1, 2)


def test_fix_takes_one_file(project: Path) -> None:
    result = run("--fix", "ok.json", "broken.json")
    assert result.exit_code == 2 and "--fix takes one file" in result.stderr


def test_schemas_read_through_the_index_gen_writes(project: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With gen's index beside the document, only the types a workflow names are parsed,
    and the findings are the same; an index of another document is not used."""
    from pygen.schema.doc_index import index_text
    from pygen.schema.document import document

    schemas = project / "nodes.schema.json"
    text = schema_document(STUDIO)
    schemas.write_text(text, encoding="utf-8")
    index = project / "nodes.index.json"
    index.write_text(index_text(document(STUDIO), text), encoding="utf-8")
    whole: list[object] = []
    real = Catalog.from_json.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Catalog, "from_json", classmethod(
        lambda cls, *a: whole.append(a) or real(cls, *a)))
    expected = json.loads(BROKEN.read_text(encoding="utf-8"))["findings"]
    result = run("broken.json", "--schemas", str(schemas))
    assert (result.exit_code, result.stdout.splitlines(), whole) == (1, expected, [])
    schemas.write_text(text.replace("}\n", "} \n", 1), encoding="utf-8")  # not the indexed one
    result = run("broken.json", "--schemas", str(schemas))
    assert (result.exit_code, result.stdout.splitlines(), len(whole)) == (1, expected, 1)
