"""Hand edits inside generated blocks: digests in the frontmatter, gen refuses, --force, check."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run

from pygen.skills import block_digests, frontmatter
from pygen.skills.plan import Stamp, update_text

TEMPLATE = "# T\n\n<!-- AUTO-GEN:START a -->\n<!-- AUTO-GEN:END a -->\n\n## Prose\n\n" \
           "<!-- AUTO-GEN:START b -->\n<!-- AUTO-GEN:END b -->\n"
META = {"generated_at": "2026-01-01T00:00:00Z", "generated_from": "abc1234"}


def write(blocks: dict[str, str], existing: str | None = None,
          meta: dict[str, str] = META) -> str:
    stamp = Stamp(meta["generated_at"], lambda: meta["generated_from"])
    return update_text(existing, TEMPLATE, blocks, ("a", "b"), stamp, "t.md")


# --- digests and the frontmatter ------------------------------------------------------------

def test_digest_ignores_line_endings_and_is_twelve_hex() -> None:
    assert block_digests.digest("x\r\ny\r\n") == block_digests.digest("x\ny\n")
    assert len(block_digests.digest("x")) == 12
    assert block_digests.digest("x\n") != block_digests.digest("y\n")


def test_parse_and_render_round_trip_and_skip_junk() -> None:
    value = "node-data-shape=0123456789ab,examples=ba9876543210"
    assert block_digests.render(block_digests.parse(value)) == value
    assert block_digests.parse("a=1, junk ,=2,b=") == {"a": "1"}


def test_new_file_records_one_digest_per_generated_block() -> None:
    text = write({"a": "one", "b": "two"})
    one, two = block_digests.digest("one\n"), block_digests.digest("two\n")
    assert frontmatter.read(text)[block_digests.FIELD] == f"a={one},b={two}"


def test_frontmatter_unchanged_when_no_block_changes() -> None:
    first = write({"a": "one", "b": "two"})
    later = {"generated_at": "2027-06-01T00:00:00Z", "generated_from": "fff0000"}
    assert write({"a": "one", "b": "two"}, first, later) == first


def test_a_block_change_restamps_and_updates_its_digest() -> None:
    first = write({"a": "one", "b": "two"})
    later = {"generated_at": "2027-06-01T00:00:00Z", "generated_from": "fff0000"}
    second = write({"a": "ONE", "b": "two"}, first, later)
    meta = frontmatter.read(second)
    assert meta["generated_at"] == "2027-06-01T00:00:00Z"
    assert block_digests.parse(meta[block_digests.FIELD])["a"] == block_digests.digest("ONE\n")


def test_file_written_before_digests_gains_them_once() -> None:
    legacy = "---\ngenerated_at: x\n---\n\n" + TEMPLATE.replace(
        "START a -->\n", "START a -->\none\n").replace("START b -->\n", "START b -->\ntwo\n")
    updated = write({"a": "one", "b": "two"}, legacy)
    assert block_digests.FIELD in frontmatter.read(updated)
    assert updated.split("---\n", 2)[2] == legacy.split("---\n", 2)[2]
    assert write({"a": "one", "b": "two"}, updated) == updated


# --- finding hand edits ---------------------------------------------------------------------

def test_no_digest_means_generated_never_a_hand_edit() -> None:
    legacy = TEMPLATE.replace("START a -->\n", "START a -->\nedited by someone\n")
    new = write({"a": "one", "b": "two"}, legacy)
    assert block_digests.hand_edits(Path("t.md"), legacy, new) == []


def test_edit_inside_a_block_is_found_with_its_line_and_diff() -> None:
    generated = write({"a": "one\ntwo\nthree", "b": "four"})
    edited = generated.replace("two\n", "two, improved by hand\n")
    new = write({"a": "one\ntwo\nthree", "b": "four"}, edited)
    [edit] = block_digests.hand_edits(Path("skills/t.md"), edited, new)
    assert edit.block == "a"
    assert edited.splitlines()[edit.line - 1] == "two, improved by hand"
    assert "-two\n+two, improved by hand\n" in edit.diff
    assert edit.message("skills/t.md") == (
        f"skills/t.md:{edit.line}: block 'a' was edited by hand; move the change into the "
        "prose or the source, or run `pygen gen --force` to overwrite it")


def test_untouched_block_whose_source_changed_is_not_a_hand_edit() -> None:
    generated = write({"a": "one", "b": "four"})
    new = write({"a": "one", "b": "five"}, generated)
    assert block_digests.hand_edits(Path("t.md"), generated, new) == []


def test_hand_edit_that_matches_the_new_text_is_not_reported() -> None:
    generated = write({"a": "one", "b": "four"})
    edited = generated.replace("four\n", "five\n")
    new = write({"a": "one", "b": "five"}, edited)
    assert block_digests.hand_edits(Path("t.md"), edited, new) == []


def test_crlf_file_is_compared_without_line_endings() -> None:
    generated = write({"a": "one", "b": "four"}).replace("\n", "\r\n")
    new = write({"a": "one", "b": "four"}, generated)
    assert new == generated
    assert block_digests.hand_edits(Path("t.md"), generated, new) == []


def test_block_the_digests_do_not_name_is_not_checked() -> None:
    generated = write({"a": "one", "b": "four"})
    value = frontmatter.read(generated)[block_digests.FIELD]
    only_a = generated.replace(value, value.split(",")[0])
    edited = only_a.replace("four\n", "by hand\n")
    assert block_digests.hand_edits(Path("t.md"), edited, write({"a": "one", "b": "four"})) == []


# --- gen and check, end to end through Node --------------------------------------------------

NODES_TS = """\
export interface PromptData {
  /** What to say. */
  text: string;
}
export interface NoteData {
  body: string;
}
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"], defaultData: { text: "" } },
  { type: "note", label: "Note", inputs: [], outputs: [], defaultData: { body: "" } },
];
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\nskills_dir = "skills"\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return tmp_path


def test_gen_refuses_a_hand_edited_file_writes_the_rest_and_force_overwrites(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prompt = project / "skills" / "nodes" / "prompt.md"
    note = project / "skills" / "nodes" / "note.md"
    edited = prompt.read_text().replace("— What to say.", "— What to say (edited).")
    prompt.write_text(edited)
    nodes_ts = project / "src" / "nodes.ts"
    nodes_ts.write_text(NODES_TS.replace("What to say.", "What to say aloud.")
                        .replace("  body: string;", "  /** Sticky text. */\n  body: string;"))

    result = run(project, "gen", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    line = edited.splitlines().index("- `text: string` — What to say (edited).") + 1
    assert (f"hand-edited: skills/nodes/prompt.md:{line}: block 'node-data-shape' was edited "
            "by hand") in result.stderr
    assert ("-- `text: string` — What to say aloud.\n"
            "+- `text: string` — What to say (edited).\n") in result.stdout
    assert prompt.read_text() == edited
    assert "Sticky text." in note.read_text()

    forced = run(project, "gen", "--force", "-q", monkeypatch=monkeypatch)
    assert forced.exit_code == 0, forced.output
    assert "(edited)" not in prompt.read_text() and "What to say aloud." in prompt.read_text()
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0


def test_check_reports_a_hand_edit_as_its_own_failure(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prompt = project / "skills" / "nodes" / "prompt.md"
    prompt.write_text(prompt.read_text().replace("- **Inputs (target handles):** none",
                                                 "- **Inputs (target handles):** nothing"))
    result = run(project, "check", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    assert "hand-edited: skills/nodes/prompt.md:" in result.stderr
    assert "Generated blocks were edited by hand" in result.stderr
    assert "stale: skills/nodes/prompt.md" not in result.stderr
    as_json = run(project, "check", "--json", monkeypatch=monkeypatch)
    assert as_json.exit_code == 1
    assert '"block": "node-data-shape"' in as_json.stdout and '"ok": false' in as_json.stdout
