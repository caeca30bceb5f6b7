"""Adopting pygen on an existing skills folder (tests/fixtures/adoption): `gen` then `check`
pass, no byte outside pygen's blocks changes, `doctor` lists the foreign block and the code's
contradictions; a renamed field that prose names fails `check` until the prose changes."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.skills import frontmatter, markers, render

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "adoption"
NODES_TS = Path("web/src/editor/nodes.ts")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "adoption"
    shutil.copytree(FIXTURE, root)
    return root


def run(root: Path, *args: str) -> Result:
    with contextlib.chdir(root):
        return CliRunner().invoke(main, list(args))


def outside_pygen(text: str, path: str) -> str:
    """The text without frontmatter and pygen's own blocks: what a person wrote."""
    _, body = frontmatter.split(text)
    own = render.own_blocks()
    lines = body.splitlines(keepends=True)
    dropped: set[int] = set()
    for block in markers.parse(body, path):
        if block.id in own:
            dropped.update(range(block.start_line - 1, block.end_line))
    # pygen appends missing blocks at the end, each after a blank line, and separates its
    # frontmatter by one: only blank lines at either end may differ.
    return "".join(line for i, line in enumerate(lines) if i not in dropped).strip("\n")


def test_gen_then_check_pass_and_every_byte_outside_pygens_blocks_stays(repo: Path) -> None:
    before = {p: p.read_text(encoding="utf-8") for p in (repo / "skills").rglob("*.md")}
    gen = run(repo, "gen")
    assert gen.exit_code == 0, gen.output
    assert "provider-prompting" in gen.output  # an undeclared foreign block: a warning
    assert "stale name" not in gen.output  # `version`, `enter`, `element`: never names
    check = run(repo, "check")
    assert check.exit_code == 0, check.output
    assert "stale:" not in check.output
    for path, text in before.items():
        after = path.read_text(encoding="utf-8")
        assert outside_pygen(after, str(path)) == outside_pygen(text, str(path)), path
    foreign = markers.bodies(before[repo / "skills/nodes/generate-image.md"], "x")
    assert markers.bodies((repo / "skills/nodes/generate-image.md").read_text(), "x")[
        "provider-prompting"] == foreign["provider-prompting"]
    readme = (repo / "skills/nodes/_README.md").read_text(encoding="utf-8")
    assert "| [`generate-image`](generate-image.md) | Generate Image | ai | — | written |" \
        in readme


def test_doctor_lists_the_foreign_block_and_the_codes_contradictions(repo: Path) -> None:
    run(repo, "gen")
    doctor = run(repo, "doctor", "--json")
    report = json.loads(doctor.output)
    assert doctor.exit_code == 1  # the contradictions need a person
    assert report["foreign_blocks"] == [{"id": "provider-prompting", "count": 1,
                                         "files": ["skills/nodes/generate-image.md"],
                                         "was_pygens": False}]
    found = {(c["node_type"], c["field"], c["kind"]) for c in report["contradictions"]}
    assert found == {("generate-music", "provider", "default"),
                     ("generate-music", "model", "required"),
                     ("generate-image", "styleStrength", "handle")}
    music = next(c for c in report["contradictions"] if c["field"] == "provider")
    source = (repo / NODES_TS).read_text().splitlines()
    default_line = int(music["default_at"].rpartition(":")[2])
    type_line = int(music["type_at"].rpartition(":")[2])
    assert 'provider: "suno"' in source[default_line - 1]
    assert "provider: MusicProvider;" in source[type_line - 1]
    assert music["default_at"].startswith(f"{NODES_TS.as_posix()}:")
    hints = {h["name"] for h in report["prose_hints"]}
    assert {"version", "enter", "element", "EXTEND_VIDEO_PROVIDERS"} <= hints
    assert report["stale_prose"] == []


def test_a_declared_foreign_block_is_no_longer_listed(repo: Path) -> None:
    config = repo / "pygen.toml"
    config.write_text(config.read_text() + 'foreign_blocks = ["provider-prompting"]\n')
    gen = run(repo, "gen")
    assert gen.exit_code == 0 and "provider-prompting" not in gen.output
    assert json.loads(run(repo, "doctor", "--json").output)["foreign_blocks"] == []


TOOLS = {"tools": [{"name": "generate_image", "inputSchema": {"type": "object", "properties": {
    "prompt": {"type": "string"}, "reference_image_url": {"type": "string"}}}}]}


@pytest.mark.matrix
@pytest.mark.parametrize("tool_twin", [False, True])
def test_a_renamed_field_fails_check_until_the_prose_changes(repo: Path, tool_twin: bool) -> None:
    if tool_twin:
        (repo / "tools.json").write_text(json.dumps(TOOLS))
        config = repo / "pygen.toml"
        config.write_text(config.read_text() + 'tools = ["json:tools.json"]\n')
    assert run(repo, "gen").exit_code == 0
    assert run(repo, "check").exit_code == 0
    source = repo / NODES_TS
    source.write_text(source.read_text().replace("referenceImageUrl", "referenceImage"))
    prose = repo / "skills/nodes/generate-image.md"
    line = next(n for n, text in enumerate(prose.read_text().splitlines(), start=1)
                if "`referenceImageUrl`" in text)
    stale = f"skills/nodes/generate-image.md:{line}: stale name '`referenceImageUrl`'"
    gen = run(repo, "gen")
    assert gen.exit_code == 1 and stale in gen.output, gen.output
    for _ in range(2):  # not only the run that renamed it
        check = run(repo, "check")
        assert check.exit_code == 1 and stale in check.output, check.output
    prose.write_text(prose.read_text().replace("`referenceImageUrl`", "`referenceImage`"))
    assert run(repo, "check").exit_code == 0


@pytest.mark.slow
def test_forget_lets_a_person_acknowledge_a_retired_name(repo: Path) -> None:
    run(repo, "gen")
    source = repo / NODES_TS
    source.write_text(source.read_text().replace("referenceImageUrl", "referenceImage"))
    assert "stale name '`referenceImageUrl`'" in run(repo, "gen").output
    forgot = run(repo, "gen", "--forget", "referenceImageUrl")
    assert forgot.exit_code == 0 and "stale name" not in forgot.output
    check = run(repo, "check")
    assert check.exit_code == 0 and "stale name" not in check.output
    record = json.loads((repo / "skills/schemas/nodes.schema.json").read_text())
    assert "referenceImageUrl" not in json.dumps(record.get("x-retired", {}))
