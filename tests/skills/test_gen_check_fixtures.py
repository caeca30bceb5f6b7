"""On the projects shaped like editors in the wild, `pygen gen` then `pygen check` exit 0 with no
hand edits: what gen writes (worked examples included) passes gen's own check."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_runs import CorpusRuns

WILD = ["casts", "colliding-union", "index-signature-omit", "monorepo-built", "monorepo-unbuilt",
        "partial-defaults", "structural-decoy", "tsconfig-missing-extends", "untyped-nodes"]


@pytest.mark.matrix
@pytest.mark.parametrize("name", WILD)
def test_gen_then_check_passes_untouched(name: str, corpus_runs: CorpusRuns) -> None:
    # Through the real CLI, in a fresh process, on a copy of the project: the session's run
    # (tests/corpus_runs.py), which the corpus-wide test also reads.
    run = corpus_runs.run(name)
    assert run.codes == [0, 0], run.output
    assert (Path(run.root) / "skills" / "nodes").is_dir()
    assert run.files
