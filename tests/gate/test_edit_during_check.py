"""Edits at random moments of real `pygen check` processes (bench.edit_during_check, a few
trials of its series): the next check never passes where `check --no-cache` fails. Whatever
the machine's load, the memo's answer must match: only the moment of the edit is random."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.edit_during_check import full_check_seconds, make_project, trial


@pytest.mark.slow
def test_edits_during_real_checks_leave_no_false_green(tmp_path: Path) -> None:
    root = make_project(tmp_path / "project")
    # The edits fall within the part of a run after the sources are read (Node loads
    # TypeScript first): where a memo that hashes again at the end goes wrong.
    seconds = full_check_seconds(root)
    rng = random.Random(37)
    for n in range(1, 5):
        found = trial(root, n, rng, seconds, earliest=0.4 * seconds, confirm=True)
        assert found.memo == found.truth == 1, found
