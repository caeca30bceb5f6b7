"""`pygen gen` end to end (and `check` after it): real Node, real ts-morph, the embedded example."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import run
from click.testing import CliRunner

from pygen.cli import main


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "skills").rglob("*"))
            if p.is_file()}


@pytest.fixture
def generated(studio: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    result = run(studio, "gen", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    return studio


def test_gen_creates_one_file_per_node_and_fills_the_catalog(generated: Path) -> None:
    files = sorted(p.stem for p in (generated / "skills" / "nodes").glob("*.md"))
    assert files[0] == "_README"  # the index, for people
    nodes = files[1:]
    assert {"generate-image", "merge-video-audio", "loop", "text-prompt"} <= set(nodes)
    editor = (generated / "skills" / "workflow-editor.md").read_text()
    for node_type in nodes:
        assert f"- `{node_type}` " in editor
    image = (generated / "skills" / "nodes" / "generate-image.md").read_text()
    assert image.startswith("---\nnode_type: generate-image\n"
                            "generated_at: 2026-01-01T00:00:00Z\n")
    assert '- `provider: ImageProvider` — one of `"flux" | "flux-pro"' in image
    assert "## When to use\n\n\n## Common gotchas\n" in image


def test_second_gen_changes_nothing_and_check_passes(
        generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(generated)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # a later day must not cause drift
    result = run(generated, "gen", "--json", monkeypatch=monkeypatch)
    assert json.loads(result.output)["counts"]["updated"] == 0
    assert snapshot(generated) == before
    check = run(generated, "check", monkeypatch=monkeypatch)
    assert check.exit_code == 0, check.output


def test_field_edit_is_drift_and_gen_keeps_every_byte_of_prose(
        generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skill = generated / "skills" / "nodes" / "generate-image.md"
    prose = "Use it for stills.\r\nKeep `prompt` short — üñí.\n"
    text = skill.read_text().replace("## When to use\n\n", "## When to use\n\n" + prose)
    skill.write_bytes(text.encode())
    nodes_ts = generated / "examples" / "studio" / "src" / "types" / "nodes.ts"
    nodes_ts.write_text(nodes_ts.read_text().replace("What the image must not contain.",
                                                     "What the image must never show.", 1))
    check = run(generated, "check", monkeypatch=monkeypatch)
    assert check.exit_code == 1
    assert "+- `negativePrompt: string` — What the image must never show." in check.output
    assert "stale: skills/nodes/generate-image.md" in check.output
    old = skill.read_text()
    assert run(generated, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    new = skill.read_bytes().decode()
    assert prose in new
    outside = [line for line in old.splitlines() if line not in new.splitlines()]
    assert all("negativePrompt" in line or line.startswith(("generated_", "pygen_digests:"))
               for line in outside)
    assert run(generated, "check", "-q", monkeypatch=monkeypatch).exit_code == 0


def test_marker_error_fails_the_run_and_writes_nothing(
        generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = generated / "skills" / "nodes" / "loop.md"
    broken.write_text(broken.read_text().replace("<!-- AUTO-GEN:END examples -->\n", ""))
    nodes_ts = generated / "examples" / "studio" / "src" / "types" / "nodes.ts"
    nodes_ts.write_text(nodes_ts.read_text().replace('label: "Generate Image"',
                                                     'label: "Generate Picture"'))
    before = snapshot(generated)
    result = run(generated, "gen", monkeypatch=monkeypatch)
    assert result.exit_code == 2
    line = [x for x in result.output.splitlines() if x.startswith("error:")]
    assert len(line) == 1 and "skills/nodes/loop.md:" in line[0]
    assert "AUTO-GEN block 'examples' is never closed" in line[0]
    assert snapshot(generated) == before


@pytest.mark.slow
def test_crlf_skill_file_stays_crlf(generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skill = generated / "skills" / "nodes" / "note.md"
    crlf = skill.read_bytes().replace(b"\n", b"\r\n")
    skill.write_bytes(crlf)
    assert run(generated, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    nodes_ts = generated / "examples" / "studio" / "src" / "types" / "nodes.ts"
    nodes_ts.write_text(nodes_ts.read_text().replace('label: "Note"', 'label: "Sticky note"'))
    assert run(generated, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    data = skill.read_bytes()
    assert b"Sticky note" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert data.count(b"---\r\n") == 2


def test_unknown_config_key_is_named(studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with (studio / "pygen.toml").open("a") as handle:
        handle.write("skill_dir = 'x'\n")
    result = run(studio, "gen", monkeypatch=monkeypatch)
    assert result.exit_code == 2
    assert "pygen.toml: unknown key 'skill_dir'; valid keys: nodes_file," in result.output


def test_strict_turns_unresolved_imports_and_a_broken_tsconfig_into_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
    project = tmp_path / "kit"
    shutil.copytree(corpus / "tsconfig-missing-extends", project)
    monkeypatch.chdir(project)
    loose = CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False)
    assert loose.exit_code == 0
    result = CliRunner().invoke(main, ["gen", "--strict"], catch_exceptions=False)
    assert result.exit_code == 2
    assert ("--strict: src/lib/flow/nodes.ts:2: cannot resolve '$lib/types/nodes', so these "
            "types are unknown: the data type OscillatorData of node 'oscillator'; the data "
            "type GainData of node 'gain' (and 3 more like it)") in result.output
