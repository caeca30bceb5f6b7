"""`type_template` after extraction: each node's type written from its package's name and its
own, with every place that names the type following it (the CLI path is in
tests/commands/test_type_template.py)."""

from __future__ import annotations

import json
from pathlib import Path

from pygen.config import Config, Settings
from pygen.extract import typenames
from pygen.extract.typenames import full_type, registers_n8n_nodes, with_full_types
from pygen.model import Diagnostic, Handle, Location, NodeDef, NodeSources


def config(root: Path, template: str | None) -> Config:
    return Config(settings=Settings(nodes_file="nodes.ts", type_template=template),
                  source=None, root=root)


def node(type_: str, file: str, **extra: object) -> NodeDef:
    return NodeDef.model_validate({"type": type_, "label": type_,
                                   "source": {"file": file, "line": 3}, **extra})


def package(root: Path, folder: str, manifest: object) -> None:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / "package.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_the_template_writes_the_package_and_the_declared_type() -> None:
    assert full_type("{package}.{type}", "github", "n8n-nodes-base") == "n8n-nodes-base.github"
    assert full_type("acme/{type}", "mail", None) == "acme/mail"


def test_every_place_naming_a_type_follows_it_and_the_nearest_package_names_it(
        tmp_path: Path) -> None:
    package(tmp_path, "", {"name": "outer"})
    package(tmp_path, "packages/mail", {"name": "@acme/mail"})
    mail = node("send", "packages/mail/src/send.ts", connects_to=["log"],
                outputs=[{"id": "out", "accepts": ["send"], "connects_to": ["log", "image"]}])
    log = node("log", "src/log.ts")
    notes = (Diagnostic(level="warning", message="node 'send': x", node_type="send"),
             Diagnostic(level="warning", message="unrelated"))
    places = {"send": NodeSources(fields={"to": Location(file="a.ts", line=1)})}
    nodes, diagnostics, located = with_full_types(
        (mail, log), notes, places, config(tmp_path, "{package}.{type}"))
    assert [n.type for n in nodes] == ["@acme/mail.send", "outer.log"]
    assert nodes[0].connects_to == ("outer.log",)
    # A rule's other values name handle types, which keep their names.
    assert nodes[0].outputs == (Handle(id="out", accepts=("@acme/mail.send",),
                                       connects_to=("outer.log", "image")),)
    assert [d.node_type for d in diagnostics] == ["@acme/mail.send", None]
    assert list(located) == ["@acme/mail.send"]


def test_variants_of_one_type_keep_one_name_and_no_package_keeps_the_declared_type(
        tmp_path: Path) -> None:
    package(tmp_path, "a", {"name": "first"})
    package(tmp_path, "b", {"name": "second"})
    package(tmp_path, "c", {"version": "1.0.0"})
    nodes, diagnostics, _ = with_full_types(
        (node("set", "a/v1.ts", variant="1"), node("set", "b/v2.ts", variant="2"),
         node("loose", "c/x.ts")), (), {}, config(tmp_path, "{package}.{type}"))
    assert [n.type for n in nodes] == ["first.set", "first.set", "loose"]
    assert [(d.node_type, d.file, d.line, d.kind) for d in diagnostics] == [
        ("loose", "c/x.ts", 3, "type-template")]


def test_without_the_key_nothing_changes(tmp_path: Path) -> None:
    nodes = (node("set", "x.ts"),)
    assert with_full_types(nodes, (), {}, config(tmp_path, None))[0] is nodes


def test_only_a_package_listing_n8n_nodes_is_said_to_register_them(tmp_path: Path) -> None:
    package(tmp_path, "pkg", {"name": "n8n-nodes-acme", "n8n": {
        "nodes": ["dist/nodes/A/A.node.js"], "credentials": ["dist/credentials/A.credentials.js"]}})
    package(tmp_path, "plain", {"name": "plain"})
    (tmp_path / "pkg" / "nodes").mkdir()
    assert registers_n8n_nodes(tmp_path / "pkg" / "nodes" / "A" / "A.node.ts", tmp_path)
    assert not registers_n8n_nodes(tmp_path / "pkg" / "credentials" / "A.credentials.ts",
                                   tmp_path)
    assert not registers_n8n_nodes(tmp_path / "plain" / "a.ts", tmp_path)
    assert not registers_n8n_nodes(tmp_path / "none" / "a.ts", tmp_path / "none")


def test_a_manifest_nested_past_any_parser_is_no_name(tmp_path: Path) -> None:
    # A package.json is the user's file: one too deep for the parser names no package
    # rather than stopping the run with a RecursionError.
    (tmp_path / "package.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert typenames.manifest(tmp_path / "package.json") is None
