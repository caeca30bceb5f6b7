"""bench.package_flow's package route: the package gen writes for this repo's skills, read as
an agent with no server reads it (SKILL.md, the index it points to, the script's verdicts)."""

from __future__ import annotations

from pathlib import Path

from bench import agent_flow, package_flow

SKILLS = Path(__file__).resolve().parents[2] / "skills"


def test_the_package_route_reads_the_index_and_the_scripts_verdicts(tmp_path: Path) -> None:
    editor = package_flow.write_package(SKILLS, tmp_path)
    assert "`references/index.md`" in (editor / "SKILL.md").read_text(encoding="utf-8")
    slipped = agent_flow.broken_workflow(SKILLS)
    reads = dict(package_flow.package_reads(editor, slipped, agent_flow.editor_workflow(SKILLS)))
    # The slipped workflow's errors are worth reading; the repaired one's verdict is one line.
    assert reads["validate (slipped)"] > 4 * reads["validate (again)"] > 0
    index = (editor / "references" / "index.md").read_text(encoding="utf-8")
    for node in slipped["nodes"]:
        assert f"\n{node['type']} (" in index, node["type"]
