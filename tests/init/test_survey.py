"""What init reports of an existing skills folder."""

from __future__ import annotations

from pathlib import Path

from pygen.init.survey import new_skills_dir, skills_folders, survey_skills


def test_block_ids_are_read_as_gen_reads_them(tmp_path: Path) -> None:
    """A marker shown inside a code fence, or not on a line of its own, is prose: `gen` leaves
    it alone, so init does not count it as a block either."""
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "note.md").write_text(
        "# Note\n\n<!-- AUTO-GEN:START node-data-shape -->\nfields\n"
        "<!-- AUTO-GEN:END node-data-shape -->\n\n"
        "```md\n<!-- AUTO-GEN:START shown-in-a-fence -->\n<!-- AUTO-GEN:END shown-in-a-fence -->\n"
        "```\n\nWrite `<!-- AUTO-GEN:START inline -->` to open a block.\n", encoding="utf-8")
    (found,) = skills_folders(tmp_path)
    assert found.block_ids == ("node-data-shape",)


def test_a_file_with_broken_markers_adds_no_ids(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "open.md").write_text("<!-- AUTO-GEN:START never-closed -->\n",
                                              encoding="utf-8")
    (skills / "nodes" / "ok.md").write_text("<!-- AUTO-GEN:START examples -->\nx\n"
                                            "<!-- AUTO-GEN:END examples -->\n", encoding="utf-8")
    (found,) = skills_folders(tmp_path)
    assert found.block_ids == ("examples",) and found.node_files == 2


def test_docs_without_pygen_blocks_and_a_package_mentioning_skills_are_no_skills_folder(
        tmp_path: Path) -> None:
    (tmp_path / "docs" / "nodes").mkdir(parents=True)
    (tmp_path / "docs" / "nodes" / "math.md").write_text("# Math\n", encoding="utf-8")
    (tmp_path / "skills-pane-adapter").mkdir()
    (tmp_path / "skills-pane-adapter" / "README.md").write_text("# Pane\n", encoding="utf-8")
    (tmp_path / "agent-skills").mkdir()
    (tmp_path / "agent-skills" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    assert [f.path.name for f in skills_folders(tmp_path)] == ["agent-skills"]


def test_a_skills_folder_without_pygen_blocks_is_left_alone_and_new_skills_go_beside_it(
        tmp_path: Path) -> None:
    """A hand-written Agent Skill in skills/ is named and left alone: gen writes pygen-skills/."""
    hand = tmp_path / "skills" / "release-notes"
    hand.mkdir(parents=True)
    (hand / "SKILL.md").write_text("---\nname: release-notes\n---\n# Release notes\n",
                                   encoding="utf-8")
    (tmp_path / "skills" / "README.md").write_text("# Our skills\n", encoding="utf-8")
    chosen, others, left = survey_skills(tmp_path, None)
    assert chosen is None and others == []
    assert [f.path.name for f in left] == ["skills"]
    assert new_skills_dir(tmp_path, left) == "pygen-skills"


def test_a_folder_with_auto_gen_blocks_is_adopted(tmp_path: Path) -> None:
    nodes = tmp_path / "backend" / "skills" / "nodes"
    nodes.mkdir(parents=True)
    (nodes / "note.md").write_text("# Note\n\n<!-- AUTO-GEN:START node-data-shape -->\nx\n"
                                   "<!-- AUTO-GEN:END node-data-shape -->\n", encoding="utf-8")
    chosen, _others, left = survey_skills(tmp_path, None)
    assert chosen is not None and chosen.path == tmp_path / "backend" / "skills" and left == []
