"""Over any sequence of edits between checks (a source edited, a file added that shadows an
import, a file removed, the skills regenerated), `check` through its memos answers as
`check --no-cache` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from cached_project import make_project, run
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

TYPE = 'export type Mode = "fast" | "{word}";\n'
WORDS = ["slow", "slod", "mid"]

# (operation, word): `edit` rewrites src/modes/index.ts; `shadow` writes src/modes.ts, which
# `./modes` then resolves to; `unshadow` removes it; `gen` makes the skills current.
Step = tuple[str, str]
steps = st.lists(st.tuples(st.sampled_from(["edit", "shadow", "unshadow", "gen"]),
                           st.sampled_from(WORDS)), min_size=1, max_size=3)


def apply(root: Path, step: Step) -> None:
    op, word = step
    src = root / "src"
    if op == "edit":
        (src / "modes" / "index.ts").write_text(TYPE.format(word=word))
    elif op == "shadow":
        (src / "modes.ts").write_text(TYPE.format(word=word))
    elif op == "unshadow":
        (src / "modes.ts").unlink(missing_ok=True)


@pytest.mark.slow
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sequence=steps)
@example(sequence=[("shadow", "slod")])
@example(sequence=[("edit", "mid"), ("gen", "slow"), ("unshadow", "slow")])
def test_the_memo_answers_as_no_cache_after_any_edits(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        sequence: list[Step]) -> None:
    root = make_project(tmp_path_factory.mktemp("edits"), monkeypatch)
    (root / "src" / "modes").mkdir()
    (root / "src" / "modes.ts").rename(root / "src" / "modes" / "index.ts")
    assert run(root, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    for step in sequence:
        apply(root, step)
        if step[0] == "gen":
            assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
        memo = run(root, "check", "-q", monkeypatch=monkeypatch).exit_code
        truth = run(root, "check", "-q", "--no-cache", monkeypatch=monkeypatch).exit_code
        assert memo == truth, (sequence, step)
