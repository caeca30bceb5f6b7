"""`type_template`: node types as saved workflows name them (n8n's `n8n-nodes-base.github` for a
class declaring `name: 'github'`), through the real CLI: skills, the schema document, `check`
on saved workflows and `validate-workflow` all use the full type."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
MANIFEST = {"name": "n8n-nodes-base", "version": "1.0.0",
            "n8n": {"nodes": ["dist/nodes/GitHub/GitHub.node.js", "dist/nodes/Set/Set.node.js"]}}


def n8n_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The n8n-shaped fixture as a package checkout: its package.json names the package, the
    config writes types as n8n registers them, its saved workflow names them so."""
    root = tmp_path / "package"
    shutil.copytree(CORPUS / "n8n-workflow", root, ignore=shutil.ignore_patterns("expected.*"))
    (root / "package.json").write_text(json.dumps(MANIFEST), encoding="utf-8")
    config = root / "pygen.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        'variant_field = "version"\n',
        'variant_field = "version"\ntype_template = "{package}.{type}"\n'), encoding="utf-8")
    saved = root / "workflows" / "issue.json"
    saved.write_text(saved.read_text(encoding="utf-8").replace(
        '"type": "set"', '"type": "n8n-nodes-base.set"').replace(
        '"type": "github"', '"type": "n8n-nodes-base.github"'), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_an_n8n_package_is_keyed_by_the_type_workflows_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = n8n_package(tmp_path, monkeypatch)
    gen = CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    # check validates the saved workflow, whose nodes name the full types.
    check = CliRunner().invoke(main, ["check", "-q"], catch_exceptions=False)
    assert check.exit_code == 0, check.output
    nodes = root / "skills" / "nodes"
    assert sorted(p.name for p in nodes.glob("*.md")) == [
        "_README.md", "n8n-nodes-base.github.md", "n8n-nodes-base.set.1.md",
        "n8n-nodes-base.set.2.md", "n8n-nodes-base.set.3.md"]
    assert "- **Type:** `n8n-nodes-base.github`" in (nodes / "n8n-nodes-base.github.md").read_text()
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert {"n8n-nodes-base.github", "n8n-nodes-base.set"} <= set(doc["$defs"])
    workflow = json.loads((root / "workflows" / "issue.json").read_text())
    github = workflow["nodes"][1]
    del github["parameters"]["title"]
    (root / "broken.json").write_text(json.dumps(workflow), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", "broken.json"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "error: $.nodes[1].parameters.title: missing required field (required when "
        "`resource` is `issue` and `operation` is `create`)")
    github["type"] = "github"  # the name the class declares is not what workflows save
    (root / "short.json").write_text(json.dumps(workflow), encoding="utf-8")
    short = CliRunner().invoke(main, ["validate-workflow", "short.json"])
    assert short.exit_code == 1
    assert 'unknown node type "github"' in short.stdout


def test_a_renamed_package_is_drift_check_reports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = n8n_package(tmp_path, monkeypatch)
    for command in (["gen", "-q"], ["check", "-q"]):
        assert CliRunner().invoke(main, command, catch_exceptions=False).exit_code == 0
    (root / "package.json").write_text(json.dumps({**MANIFEST, "name": "n8n-nodes-acme"}))
    stale = CliRunner().invoke(main, ["check", "-q"], catch_exceptions=False)
    assert stale.exit_code == 1, stale.output
    saved = root / "workflows" / "issue.json"
    saved.write_text(saved.read_text().replace("n8n-nodes-base.", "n8n-nodes-acme."))
    gen = CliRunner().invoke(main, ["gen", "-q", "--prune"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    assert (root / "skills" / "nodes" / "n8n-nodes-acme.github.md").is_file()
    assert not (root / "skills" / "nodes" / "n8n-nodes-base.github.md").exists()
    assert CliRunner().invoke(main, ["check", "-q"], catch_exceptions=False).exit_code == 0


def test_each_node_takes_the_name_of_the_package_it_ships_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pygen.toml").write_text(
        'nodes_file = "nodes.ts"\ndefinitions = "packages/*/src/node.ts:definition"\n'
        'type_template = "{package}.{type}"\n')
    (tmp_path / "tsconfig.json").write_text('{"include": ["**/*.ts"]}')
    (tmp_path / "nodes.ts").write_text("export {};\n")
    for folder, package in (("mail", '{"name": "@acme/nodes-mail"}'), ("chat", '{"private": 1}')):
        src = tmp_path / "packages" / folder / "src"
        src.mkdir(parents=True)
        (src.parent / "package.json").write_text(package)
        (src / "node.ts").write_text(
            f'export const definition = {{ type: "{folder}", label: "{folder}", '
            'defaultData: { to: "" } };\n')
    monkeypatch.chdir(tmp_path)
    gen = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    # A package without a name leaves its node as declared, with one warning; the rest is named.
    assert ("warning: packages/chat/src/node.ts:1: node 'chat': no package.json with a 'name' "
            "above its file, so type_template's {package} is unknown; the node keeps the type "
            "its code declares") in gen.stderr
    doc = json.loads((tmp_path / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert sorted(doc["$defs"]) == ["@acme/nodes-mail.mail", "chat"]
    strict = CliRunner().invoke(main, ["check", "--strict"], catch_exceptions=False)
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].endswith(
        'its code declares; give the package.json above it a "name" or drop --strict')


@pytest.mark.parametrize(("template", "why"), [
    ("{package}", "it must contain {type} (the type the code declares)"),
    ("{scope}.{type}", "unknown placeholder {scope}; the placeholders are {type}, {package}"),
])
def test_a_template_pygen_cannot_use_is_one_line_naming_the_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: str, why: str) -> None:
    (tmp_path / "pygen.toml").write_text(
        f'nodes_file = "nodes.ts"\ntype_template = "{template}"\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'pygen.toml'}: key 'type_template': {why}"]


@pytest.mark.slow
def test_init_proposes_the_template_for_a_package_that_lists_n8n_nodes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "nodes-package"
    shutil.copytree(CORPUS.parent / "init" / "node-type-classes", root,
                    ignore=shutil.ignore_patterns("expected.*"))
    manifest = root / "package.json"
    plain = manifest.read_text(encoding="utf-8")
    (root / "package.json").write_text(json.dumps({
        **json.loads(plain), "n8n": {"nodes": ["dist/nodes/Switch/Switch.node.js"]}}))
    monkeypatch.chdir(root)
    init = CliRunner().invoke(main, ["init"], catch_exceptions=False)
    assert init.exit_code == 0, init.output
    config = (root / "pygen.toml").read_text(encoding="utf-8")
    assert '\ntype_template = "{package}.{type}"\n' in config
    assert CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False).exit_code == 0
    assert CliRunner().invoke(main, ["check", "-q"], catch_exceptions=False).exit_code == 0
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert "flow-nodes-base.httpRequest" in doc["$defs"]
    # Without n8n's list of nodes, the package.json says nothing of how types are named.
    shutil.rmtree(root / "skills")
    (root / "pygen.toml").unlink()
    manifest.write_text(plain, encoding="utf-8")
    again = CliRunner().invoke(main, ["init"], catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert "type_template" not in (root / "pygen.toml").read_text(encoding="utf-8")
