"""Orphans: node files whose type is gone; --prune deletes only those without prose."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run

from pygen.gate import orphans
from pygen.model import Location, Model, NodeDef
from pygen.server.store import load_store
from pygen.skills import render

GENERATED = """\
---
node_type: gone
generated_at: 2026-01-01T00:00:00Z
---

# Gone Node

<!-- AUTO-GEN:START node-data-shape -->
- **Type:** `gone`
<!-- AUTO-GEN:END node-data-shape -->

## MCP call

<!-- AUTO-GEN:START mcp-call -->
call it
<!-- AUTO-GEN:END mcp-call -->

## When to use


## Common gotchas


## Worked example

<!-- AUTO-GEN:START examples -->
{}
<!-- AUTO-GEN:END examples -->
"""


def node(node_type: str) -> NodeDef:
    return NodeDef(type=node_type, label=node_type, source=Location(file="n.ts", line=1))


def test_template_headings_follow_the_renderer() -> None:
    headings = orphans.template_headings()
    assert headings == {"## MCP call", "## When to use", "## Common gotchas", "## Worked example"}
    template = render.node_template(node("x"), with_tool=True)
    assert all(h in template for h in headings)


def test_a_generated_file_without_prose_has_none() -> None:
    assert orphans.first_prose_line(GENERATED, "gone.md") is None
    assert orphans.first_prose_line(GENERATED.replace("\n", "\r\n"), "gone.md") is None


def line_of(text: str, wanted: str) -> int:
    return text.splitlines().index(wanted) + 1


@pytest.mark.parametrize(("anchor", "written"), [
    ("## When to use\n\n", "For stills."),
    ("## Common gotchas\n", "- none"),
    ("# Gone Node\n", "# Second title"),
    ("## Worked example\n", "<!-- a note -->"),
    ("---\n\n", "Intro."),
])
def test_any_line_a_person_wrote_is_prose(anchor: str, written: str) -> None:
    text = GENERATED.replace(anchor, anchor + written + "\n", 1)
    assert orphans.first_prose_line(text, "gone.md") == line_of(text, written)


def test_a_file_whose_markers_do_not_parse_is_kept_as_prose() -> None:
    broken = GENERATED.replace("<!-- AUTO-GEN:END examples -->\n", "")
    assert orphans.first_prose_line(broken, "gone.md") == 1


def test_find_lists_node_files_of_unknown_types_only(tmp_path: Path) -> None:
    nodes = tmp_path / "nodes"
    nodes.mkdir()
    (nodes / "gone.md").write_text(GENERATED)
    (nodes / "kept.md").write_text(GENERATED)
    written = GENERATED.replace("## Common gotchas\n", "## Common gotchas\nCareful.\n")
    (nodes / "written.md").write_text(written)
    (tmp_path / "guide.md").write_text("not a node file")
    found = orphans.find(tmp_path, Model(nodes=(node("kept"),)))
    assert [(o.node_type, o.prose_line) for o in found] == [
        ("gone", None), ("written", line_of(written, "Careful."))]
    assert orphans.find(tmp_path / "missing", Model(nodes=())) == []


def test_prune_deletes_only_files_without_prose_even_if_prose_came_late(tmp_path: Path) -> None:
    nodes = tmp_path / "nodes"
    nodes.mkdir()
    for name in ("a", "b", "c"):
        (nodes / f"{name}.md").write_text(GENERATED)
    (nodes / "b.md").write_text(GENERATED.replace("## When to use\n\n",
                                                  "## When to use\n\nHand text.\n"))
    found = orphans.find(tmp_path, Model(nodes=()))
    # Prose written between finding and pruning is still never deleted.
    (nodes / "c.md").write_text(GENERATED + "A late note.\n")
    deleted, kept = orphans.prune(found)
    assert [o.node_type for o in deleted] == ["a"]
    assert [o.node_type for o in kept] == ["b", "c"]
    assert sorted(p.name for p in nodes.iterdir()) == ["b.md", "c.md"]


# --- check and gen --prune through Node -----------------------------------------------------

NODES_TS = """\
export interface PromptData { text: string; }
export interface NoteData { body: string; }
export interface ClipData { url: string; }
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"], defaultData: { text: "" } },
  { type: "note", label: "Note", inputs: [], outputs: [], defaultData: { body: "" } },
  { type: "clip", label: "Clip", inputs: [], outputs: [], defaultData: { url: "" } },
];
"""


@pytest.mark.slow
def test_check_reports_orphans_and_gen_prune_never_deletes_prose(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    skills = tmp_path / "skills" / "nodes"
    clip = skills / "clip.md"
    clip.write_text(clip.read_text().replace("## When to use\n\n",
                                             "## When to use\n\nFor b-roll.\n"))
    prose_line = clip.read_text().splitlines().index("For b-roll.") + 1
    (tmp_path / "nodes.ts").write_text(
        "\n".join(line for line in NODES_TS.splitlines()
                  if '"note"' not in line and '"clip"' not in line) + "\n")

    check = run(tmp_path, "check", monkeypatch=monkeypatch)
    assert check.exit_code == 1
    assert check.stderr.splitlines()[:2] == [
        "orphan: skills/nodes/clip.md:" f"{prose_line}: node type 'clip' is no longer defined "
        "and the file holds hand-written prose; move the prose, then delete the file (or, to "
        "keep it served as written, add 'clip' to legacy_types)",
        "orphan: skills/nodes/note.md: node type 'note' is no longer defined; run "
        "`pygen gen --prune` to delete it",
    ]

    # gen wrote all the catalog has: the orphans are warnings there, kept; check fails on them.
    plain = run(tmp_path, "gen", "-q", monkeypatch=monkeypatch)
    assert plain.exit_code == 0 and (skills / "note.md").exists()
    assert "warning: orphan: skills/nodes/note.md" in plain.stderr

    pruned = run(tmp_path, "gen", "--prune", "-q", monkeypatch=monkeypatch)
    assert pruned.exit_code == 0
    assert "deleted orphan: skills/nodes/note.md (node type 'note' is gone)" in pruned.stderr
    assert "orphan: skills/nodes/clip.md:" in pruned.stderr
    assert sorted(p.name for p in skills.iterdir()) == ["_README.md", "clip.md", "prompt.md"]
    assert "For b-roll." in clip.read_text()

    clip.unlink()
    assert run(tmp_path, "check", "-q", monkeypatch=monkeypatch).exit_code == 0


def test_files_for_people_are_never_orphans(tmp_path: Path) -> None:
    nodes = tmp_path / "skills" / "nodes"
    nodes.mkdir(parents=True)
    for name in ("_README.md", "_draft-node.md", "gone.md"):
        (nodes / name).write_text("# Notes\n\nFor people.\n")
    found = orphans.find(tmp_path / "skills", Model(nodes=()))
    assert [o.path.name for o in found] == ["gone.md"]


def test_legacy_types_keep_their_files_served_and_never_orphans(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand-kept skill for a type the catalog no longer declares fails check (gen warns) until
    the config lists it in legacy_types; then both pass, the file is left byte for byte, and
    the server still answers for it."""
    (tmp_path / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    legacy = tmp_path / "skills" / "nodes" / "writer.md"
    text = GENERATED.replace("gone", "writer") + "\n> Deprecated: the editor migrates it.\n"
    legacy.write_text(text)
    gen = run(tmp_path, "gen", "-q", monkeypatch=monkeypatch)
    assert gen.exit_code == 0 and "add 'writer' to legacy_types" in gen.stderr
    assert run(tmp_path, "check", "-q", monkeypatch=monkeypatch).exit_code == 1
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\nlegacy_types = ["writer"]\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert run(tmp_path, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert legacy.read_text() == text
    assert "the editor migrates it" in load_store(tmp_path / "skills").nodes["writer"]
