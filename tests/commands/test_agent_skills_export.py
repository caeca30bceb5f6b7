"""`agent_skills_dir`: `pygen gen` also writes an Agent Skills package, `check` gates it, the
format's reference validator (`skills-ref`) accepts it and its script validates workflows."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run
from studio_project import make_studio

REPO = Path(__file__).resolve().parents[2]
NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The studio and its package after one `gen`, shared by the tests that only read it
    (each `gen` of the studio costs seconds); HOME and caches kept in its temp folder."""
    base = tmp_path_factory.mktemp("exported")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(base / "home"))
        patch.setenv("XDG_CACHE_HOME", str(base / "home" / ".cache"))
        patch.setenv("SOURCE_DATE_EPOCH", "1767225600")
        studio = make_studio(base / "studio")
        for folder in ("film-director", "protocol"):
            shutil.copytree(REPO / "skills" / folder, studio / "skills" / folder)
        with (studio / "pygen.toml").open("a", encoding="utf-8") as config:
            config.write('agent_skills_dir = "agent-skills"\n')
        result = run(studio, "gen", monkeypatch=patch)
    assert result.exit_code == 0, result.output
    return studio / "agent-skills"


@pytest.fixture
def exported(package: Path, tmp_path: Path) -> Path:
    """A copy of that project of the test's own, for a test that changes it (no cache: a
    copy's runs read the project afresh)."""
    root = tmp_path / "studio"
    shutil.copytree(package.parent, root, symlinks=True,
                    ignore=shutil.ignore_patterns(".pygen-cache"))
    return root / "agent-skills"


def frontmatter(path: Path) -> dict[str, str]:
    head = path.read_text(encoding="utf-8").split("---\n")[1]
    return {k: json.loads(v) for k, v in (line.split(": ", 1) for line in head.splitlines())}


def test_off_by_default(studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(studio, "gen", monkeypatch=monkeypatch).exit_code == 0
    assert not (studio / "agent-skills").exists()


def test_the_package_follows_the_format(package: Path) -> None:
    skills = sorted(p.parent for p in package.glob("*/SKILL.md"))
    # The Film Director plans calls with the server's protocol tools: left out, with a note.
    assert [p.name for p in skills] == ["workflow-editor"]
    note = (package / "workflow-editor" / "SKILL.md").read_text(encoding="utf-8")
    assert "## Left out of this package\n\n`film-director`: " in note
    for tool in ("plan_skill_call", "list_callable_skills", "validate_skill_result"):
        assert not any(tool in p.read_text() for p in package.rglob("*.md")), tool
    for folder in skills:
        meta = frontmatter(folder / "SKILL.md")
        assert set(meta) <= {"name", "description", "license", "allowed-tools", "compatibility"}
        assert meta["name"] == folder.name and NAME.match(meta["name"])
        assert len(meta["name"]) <= 64 and 0 < len(meta["description"]) <= 1024
        body = (folder / "SKILL.md").read_text(encoding="utf-8").split("---\n", 2)[2]
        assert len(body) / 4 < 5000 and "AUTO-GEN" not in body
    editor = package / "workflow-editor"
    assert (editor / "references" / "generate-image.md").is_file()
    assert not (editor / "references" / "generate-image.md").read_text().startswith("---")
    guide = (editor / "SKILL.md").read_text()
    assert "`scripts/validate_workflow.py WORKFLOW.json`" in guide
    # Read from files, the guide offers this package, not the skills server's tools.
    assert "In this package (no skills server needed)" in guide
    assert "- `autofix_workflow(" not in guide and "- `update_workflow_json`:" in guide


def test_the_reference_validator_accepts_every_skill(package: Path) -> None:
    import skills_ref as validator  # a dev dependency: the specification's own validator
    for skill in sorted(package.glob("*/SKILL.md")):
        assert validator.validate(skill.parent) == [], skill


def test_check_gates_the_package(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = exported.parent
    assert run(root, "check", monkeypatch=monkeypatch).exit_code == 0
    reference = exported / "workflow-editor" / "references" / "loop.md"
    reference.write_text(reference.read_text() + "edited\n", encoding="utf-8")
    assert run(root, "check", monkeypatch=monkeypatch).exit_code == 1
    assert run(root, "gen", monkeypatch=monkeypatch).exit_code == 0
    assert "edited" not in reference.read_text()


def test_the_script_validates_a_workflow_without_pygen(package: Path, tmp_path: Path) -> None:
    script = package / "workflow-editor" / "scripts" / "validate_workflow.py"
    guide = (REPO / "skills" / "workflow-editor.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"nodes\".*?)\n```", guide, re.DOTALL)
    assert block is not None
    workflow = json.loads(block.group(1))
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(workflow), encoding="utf-8")
    workflow["edges"][0]["source"] = "nope"
    workflow["nodes"][0]["type"] = "text-promt"
    bad.write_text(json.dumps(workflow), encoding="utf-8")
    # -I: isolated, so the script cannot import pygen from this checkout.
    ok = subprocess.run([sys.executable, "-I", str(script), str(good)], capture_output=True,
                        text=True, check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = subprocess.run([sys.executable, "-I", str(script), str(bad)], capture_output=True,
                            text=True, check=False)
    assert broken.returncode == 1
    assert ('error: $.nodes[0].type: unknown node type "text-promt" [unknown-node-type]'
            in broken.stdout)
    assert 'error: $.edges[0].source: no node has id "nope" [edge-node]' in broken.stdout


def _point_at(root: Path, folder: str) -> None:
    config = root / "pygen.toml"
    kept = [line for line in config.read_text().splitlines()
            if not line.startswith("agent_skills_dir")]
    config.write_text("\n".join([*kept, f'agent_skills_dir = "{folder}"']) + "\n")


@pytest.mark.matrix
@pytest.mark.parametrize("folder", [".", "agent-link", "agent-link/skills", "../outside"])
def test_the_package_is_never_written_outside_the_project_or_over_it(
        exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str) -> None:
    root = exported.parent
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "agent-link").symlink_to(outside)
    (root / "NOTES.md").write_text("mine\n")
    _point_at(root, folder)
    result = run(root, "gen", monkeypatch=monkeypatch)
    assert result.exit_code == 2, result.output
    assert "agent_skills_dir" in result.output and "Traceback" not in result.output
    assert list(outside.iterdir()) == []
    assert not (root / "workflow-editor").exists()
    assert (root / "NOTES.md").read_text() == "mine\n"


@pytest.mark.slow
def test_a_hand_written_file_in_the_package_is_never_overwritten(
        exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = exported.parent
    assert (exported / ".pygen-manifest").read_text().splitlines()[1:] == sorted(
        p.relative_to(exported).as_posix() for p in exported.rglob("*")
        if p.is_file() and p.name != ".pygen-manifest")
    mine = root / "mine"
    (mine / "workflow-editor").mkdir(parents=True)
    (mine / "workflow-editor" / "SKILL.md").write_text("my own skill\n")
    (mine / "other").mkdir()
    (mine / "other" / "SKILL.md").write_text("another skill\n")
    _point_at(root, "mine")
    result = run(root, "gen", monkeypatch=monkeypatch)
    assert result.exit_code == 2, result.output
    assert "mine/workflow-editor/SKILL.md: agent_skills_dir holds a file pygen did not " \
        "write" in result.output
    assert (mine / "workflow-editor" / "SKILL.md").read_text() == "my own skill\n"
    (mine / "workflow-editor" / "SKILL.md").unlink()
    # Beside other skills the package is written, and those skills are left alone.
    assert run(root, "gen", monkeypatch=monkeypatch).exit_code == 0
    assert (mine / "other" / "SKILL.md").read_text() == "another skill\n"
    assert (mine / "workflow-editor" / "SKILL.md").read_text().startswith("---\nname: ")
    assert run(root, "check", monkeypatch=monkeypatch).exit_code == 0


def test_the_script_answers_help_with_its_usage(package: Path) -> None:
    script = package / "workflow-editor" / "scripts" / "validate_workflow.py"
    for flag in ("--help", "-h"):
        done = subprocess.run([sys.executable, "-I", str(script), flag], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0 and done.stdout.startswith("Validate a saved workflow")
        assert "Usage: python scripts/validate_workflow.py WORKFLOW.json" in done.stdout


def test_the_package_guide_names_files_and_the_script_not_server_tools(package: Path) -> None:
    guide = (package / "workflow-editor" / "SKILL.md").read_text(encoding="utf-8")
    for tool in ("get_node_skill", "search_nodes", "validate_workflow_json", "autofix_workflow"):
        assert tool not in guide, tool
    assert "For one node type's fields read `references/<type>.md`;" in guide
    assert "Check the workflow with `scripts/validate_workflow.py WORKFLOW.json`" in guide


def test_the_exported_script_gives_the_servers_verdict_on_the_planted_set(
        package: Path) -> None:
    """Through the real export: the package's script, run by a plain `python -I`, against
    the server's validation on bench/package_parity's plants (≥ 95% the same verdict)."""
    from bench import package_parity
    from pygen.validation.catalog import Catalog

    editor = package / "workflow-editor"
    schemas = editor / "references" / "nodes.schema.json"
    catalog = Catalog.from_json(schemas.read_bytes(), str(schemas))
    workflows = package_parity.planted()
    scripts = package_parity.script_verdicts(workflows, editor / "scripts" /
                                             "validate_workflow.py")
    same = [package_parity.agree(package_parity.server_verdict(w, catalog), scripts[n])
            for n, w in workflows.items()]
    assert len(same) >= 20 and sum(same) >= 0.95 * len(same)
    for plant in ("field-mappings-emptied", "nested-above-maximum",
                  "node-id-reference-to-missing-node"):
        assert not scripts[plant].valid, plant


def test_the_package_indexes_every_type_at_minimal_detail(package: Path) -> None:
    editor = package / "workflow-editor"
    index = (editor / "references" / "index.md").read_text(encoding="utf-8")
    doc = json.loads((editor / "references" / "nodes.schema.json").read_text(encoding="utf-8"))
    for name in doc["$defs"]:
        assert f"\n{name} (" in index, name
    assert "seed: number minimum=-1 =-1" in index and "MCP" not in index
    assert " · app tool: " in index
    assert len(index) < sum(len(p.read_text()) for p in editor.glob("references/*.md")) / 4
    assert "`references/index.md`: every node type" in (editor / "SKILL.md").read_text()
