"""Catalog sources as real editors write them, through the CLI: ids that are not file names,
every exported entry of a glob, a type defined twice, and a catalog that finds nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen import layout
from pygen.cli import main
from pygen.errors import PygenError
from pygen.server.store import load_store

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"


def case(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / name
    shutil.copytree(CORPUS / name, root, ignore=shutil.ignore_patterns("expected.*"))
    if not (root / "tsconfig.json").is_file():
        shutil.copyfile(CORPUS / "tsconfig.json", root / "tsconfig.json")
    monkeypatch.chdir(root)
    return root


def test_ids_with_spaces_get_a_slug_file_and_keep_their_id(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("glob-star", tmp_path, monkeypatch)
    gen = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    nodes = root / "skills" / "nodes"
    assert sorted(p.name for p in nodes.glob("*.md")) == [
        "Limit-Times.md", "_README.md", "limit-rate.md", "note.md"]
    text = (nodes / "Limit-Times.md").read_text()
    assert "node_type: Limit Times" in text
    assert "`Limit Times`" in text
    store = load_store(root / "skills")
    # Served by its id (sections without prose are not served, so not the file verbatim).
    served = store.get_node_skill("Limit Times")
    assert served is not None and "node_type: Limit Times" in served
    assert served.split("## ")[0] == text.split("## ")[0]
    check = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    assert check.exit_code == 0, check.output


def test_a_type_defined_twice_keeps_the_first_and_strict_refuses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("glob-star", tmp_path, monkeypatch)
    gen = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert gen.exit_code == 0
    assert ("warning: nodes/notes.ts:12: duplicate node type 'note': defined at "
            "nodes/notes.ts:4 and at nodes/notes.ts:12; the first is used") in gen.stderr
    assert "Note (legacy)" not in (root / "skills" / "nodes" / "note.md").read_text()
    strict = CliRunner().invoke(main, ["check", "--strict"], catch_exceptions=False)
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].startswith(
        "error: --strict: nodes/notes.ts:12: duplicate node type 'note'")
    assert strict.stderr.splitlines()[-1].endswith(
        "; remove or rename one of the definitions or drop --strict")


def test_an_empty_catalog_stops_the_run_naming_its_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("error-empty-catalog", tmp_path, monkeypatch)
    for command in ("gen", "check"):
        result = CliRunner().invoke(main, [command], catch_exceptions=False)
        assert result.exit_code == 2
        assert "the node catalog is empty: no node definition found by 'NODE_DEFINITIONS', " \
               "'class:description'" in result.stderr
    assert not (root / "skills").exists()


def test_slugs_keep_safe_types_and_refuse_collisions() -> None:
    assert layout.slug("llm-chat") == "llm-chat"
    assert layout.slug("tool.search") == "tool.search"
    assert layout.slug("Limit Times") == "Limit-Times"
    assert layout.slug(" a/b:c ") == "a-b-c"
    assert layout.slug("x" * 80) != layout.slug("x" * 81)
    assert len(layout.slug("x" * 80)) <= 64
    with pytest.raises(PygenError, match=re.escape(
            "'Limit Times' and 'Limit/Times' would share the skill file nodes/Limit-Times.md")):
        layout.slugs(["Limit Times", "Limit/Times"])
    with pytest.raises(PygenError, match="no letter or digit"):
        layout.slugs(["  "])


@pytest.mark.slow
def test_a_class_source_keeps_the_classes_that_implement_what_it_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("class-credentials", tmp_path, monkeypatch)
    config = root / "pygen.toml"
    gen = CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    nodes = root / "skills" / "nodes"
    # A credential sets a name, a label and inputs like a node does.
    assert (nodes / "localApi.md").is_file()
    config.write_text(config.read_text().replace('"class:*"', '"class:*:Node"'))
    gen = CliRunner().invoke(main, ["gen", "-q", "--prune"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    # derived.md: a class that extends an abstract base implementing Node (the base itself,
    # never constructed, is no node).
    assert sorted(p.name for p in nodes.glob("[!_]*.md")) == [
        "chatLocal.md", "derived.md", "stickyNote.md"]
    check = CliRunner().invoke(main, ["check", "-q"], catch_exceptions=False)
    assert check.exit_code == 0, check.output
    config.write_text(config.read_text().replace('"class:*:Node"', '"class:*:Nothing"'))
    empty = CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False)
    assert empty.exit_code == 2
    assert "no node definition found by 'class:*:Nothing'" in empty.output
