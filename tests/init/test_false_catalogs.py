"""`pygen init` with no flags never writes a catalog it cannot defend (tests/fixtures/
false-catalogs): hand-written projects shaped like the false catalogs seen on real editors
(one node's ports keyed by side, a CSS-variable map, a generated API schema, one node's form
values, a test route's nodes, a dead copy of the catalog, one trigger's descriptor). Each
expected.json says init's exit code, the phrase naming what the refused candidate lacks, and
for a pick, the nodes file chosen."""

from __future__ import annotations

import contextlib
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "false-catalogs"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "expected.json").is_file())


def init(root: Path, *args: str) -> tuple[int, str]:
    with contextlib.chdir(root):
        result = CliRunner().invoke(main, ["init", *args])
    return result.exit_code, result.output


@pytest.mark.matrix
@pytest.mark.parametrize("case", CASES)
def test_init_refuses_a_catalog_it_cannot_defend(case: str, tmp_path: Path) -> None:
    root = tmp_path / case
    shutil.copytree(FIXTURES / case, root, ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / case / "expected.json").read_text(encoding="utf-8"))
    code, out = init(root)
    assert code == expected["init"], out
    assert expected.get("lacks", expected.get("says", "")) in out, out
    if code == 0:
        written = tomllib.loads((root / "pygen.toml").read_text(encoding="utf-8"))
        assert written["nodes_file"] == expected["nodes_file"], written
        assert f"{expected['nodes']} node(s)" in out
        return
    # A refusal writes nothing, the extraction cache included, and says how to pick one.
    assert sorted(p.name for p in root.iterdir()) == sorted(
        p.name for p in (FIXTURES / case).iterdir() if p.name != "expected.json")
    if "lacks" in expected:
        assert "pygen wrote no config" in out and "`pygen init --definitions " in out, out


def test_naming_a_refused_candidate_takes_it_on_the_users_word(tmp_path: Path) -> None:
    root = tmp_path / "dead-copy-alone"
    shutil.copytree(FIXTURES / "dead-copy-alone", root,
                    ignore=shutil.ignore_patterns("expected.json"))
    code, out = init(root, "--definitions", "NODE_DEFINITIONS", "--nodes-file",
                     "src/old/definitions.ts")
    assert code == 0, out
    assert tomllib.loads((root / "pygen.toml").read_text(encoding="utf-8"))["nodes_file"] == (
        "src/old/definitions.ts")


def test_every_false_catalog_of_the_issue_has_a_fixture() -> None:
    assert {"descriptor-keys", "css-variables", "openapi-schema", "form-values", "test-route",
            "dead-copy", "dead-copy-alone", "trigger-descriptor", "no-catalog",
            "one-node-config", "vendored-library"} <= set(CASES)


def test_a_hand_written_skills_folder_is_left_alone_and_gen_writes_beside_it(
        tmp_path: Path) -> None:
    root = tmp_path / "dead-copy"
    shutil.copytree(FIXTURES / "dead-copy", root, ignore=shutil.ignore_patterns("expected.json"))
    skill = root / "skills" / "deploy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: deploy\n---\n# Deploy\n\nRun the release script.\n",
                     encoding="utf-8")
    code, out = init(root)
    assert code == 0, out
    assert "left alone: skills " in out and "pygen-skills/" in out, out
    assert tomllib.loads((root / "pygen.toml").read_text(encoding="utf-8"))[
        "skills_dir"] == "pygen-skills"
    with contextlib.chdir(root):
        gen = CliRunner().invoke(main, ["gen", "-q"])
    assert gen.exit_code == 0, gen.output
    assert sorted(p.name for p in (root / "skills").rglob("*")) == ["SKILL.md", "deploy"]
    assert len(list((root / "pygen-skills" / "nodes").glob("*.md"))) == 5


def test_gen_warns_when_the_catalog_has_fewer_than_three_nodes(tmp_path: Path) -> None:
    root = tmp_path / "dead-copy-alone"
    shutil.copytree(FIXTURES / "dead-copy-alone", root,
                    ignore=shutil.ignore_patterns("expected.json"))
    (root / "pygen.toml").write_text('nodes_file = "src/old/definitions.ts"\n', encoding="utf-8")
    with contextlib.chdir(root):
        gen = CliRunner().invoke(main, ["gen"])
    assert gen.exit_code == 0, gen.output
    assert "warning: the catalog (NODE_DEFINITIONS) has 2 nodes" in gen.output, gen.output
