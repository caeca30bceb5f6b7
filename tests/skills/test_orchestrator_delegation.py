"""The example's orchestrators name the callable skill for each step they delegate, and each
one named exists in the registry and returns the kind the orchestrator says it does."""

from __future__ import annotations

import re
from pathlib import Path

from pygen.protocol.registry import load_registry
from pygen.skills.orchestrators import orchestrator_files

REPO = Path(__file__).resolve().parents[2]
SKILLS = REPO / "skills"
# "`skill-name` (returns `kind`)", as the orchestrators write each delegated step.
DELEGATED = re.compile(r"`([a-z0-9-]+)` \(returns `(\w+)`\)")


def test_every_delegated_step_names_a_registered_skill_that_returns_its_kind() -> None:
    registry = load_registry(SKILLS / "protocol" / "registry.toml")
    checked = 0
    for path in orchestrator_files(SKILLS):
        text = path.read_text(encoding="utf-8")
        if "plan_skill_call" not in text:
            continue
        steps = DELEGATED.findall(text)
        assert steps, f"{path.name} delegates through the protocol but names no skill"
        for name, kind in steps:
            skill = registry.get(name)
            assert skill is not None, f"{path}: `{name}` is not a callable skill"
            assert kind in skill.allowed, f"{path}: `{name}` does not return `{kind}`"
            checked += 1
    assert checked >= 3
