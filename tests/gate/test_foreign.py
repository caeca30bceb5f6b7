"""Foreign blocks: another tool's AUTO-GEN blocks are listed, declared ones are not, and a block
pygen once wrote (its digest says so) is never taken for a foreign one."""

from __future__ import annotations

from pathlib import Path

from pygen.config import Config, Settings
from pygen.gate import foreign
from pygen.skills import plan

GUIDE = """\
---
pygen_digests: "node-catalog=000000000000,old-catalog=111111111111"
---
# Guide

<!-- AUTO-GEN:START provider-prompting -->
x
<!-- AUTO-GEN:END provider-prompting -->
<!-- AUTO-GEN:START old-catalog -->
y
<!-- AUTO-GEN:END old-catalog -->
<!-- AUTO-GEN:START node-catalog -->
z
<!-- AUTO-GEN:END node-catalog -->
"""


def config(root: Path, **settings: object) -> Config:
    return Config(settings=Settings.model_validate({"nodes_file": "n.ts", **settings}),
                  source=None, root=root)


def test_foreign_and_once_pygens_blocks_are_listed_per_id(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "guide.md").write_text(GUIDE)
    (skills / "nodes" / "a.md").write_text(GUIDE.split("---\n", 2)[2])
    (skills / "nodes" / "_README.md").write_text(GUIDE)  # for people: not looked at
    planned = [plan.FileUpdate(skills / "b.md", None, GUIDE.split("---\n", 2)[2])]
    found = foreign.find(config(tmp_path), planned)
    assert [(b.id, b.count, b.was_pygens) for b in found] == [
        ("old-catalog", 2, False), ("old-catalog", 1, True), ("provider-prompting", 3, False)]
    assert "was written by pygen" in found[1].message(["skills/guide.md"])
    assert "foreign_blocks = [\"provider-prompting\"]" in found[2].message(["a", "b"])
    declared = foreign.find(config(tmp_path, foreign_blocks=["provider-prompting",
                                                             "old-catalog"]), planned)
    assert [(b.id, b.was_pygens) for b in declared] == [("old-catalog", True)]


def test_every_block_pygen_writes_is_its_own(tmp_path: Path) -> None:
    """The example's skills hold only pygen's blocks: none of them may be listed."""
    repo = Path(__file__).resolve().parents[2]
    planned = [plan.FileUpdate(p, p.read_text(), p.read_text())
               for p in sorted((repo / "skills").rglob("*.md"))]
    assert foreign.find(config(repo, skills_dir="skills"), planned) == []
