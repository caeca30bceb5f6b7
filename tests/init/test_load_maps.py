"""The load step `pygen init` proposes: the project's maps of legacy names, by content."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pygen.init.load_maps import Proposal, classify, proposal_lines, propose
from tests.cli_run import FIXTURES, run

HANDLES = {"modify-image": (("prompt", "image"), ("image",)), "prompt": ((), ("text",))}


def test_maps_classified_by_content() -> None:
    found = Proposal()
    classify("a.ts:T", {"image-to-image": "modify-image"}, HANDLES, found)
    classify("a.ts:I", {"modify-image": {"in": "prompt"}}, HANDLES, found)
    classify("a.ts:O", {"prompt": {"out": "text"}}, HANDLES, found)
    # Not maps of the catalog's names: a colour table, types mapping to unknown names.
    classify("a.ts:C", {"red": "#f00"}, HANDLES, found)
    classify("a.ts:U", {"x": {"a": "b"}, "y": {"c": "d"}}, HANDLES, found)
    assert found == Proposal(["a.ts:T"], ["a.ts:I"], ["a.ts:O"])
    assert proposal_lines(Proposal()) == []


def test_init_proposes_the_load_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "app"
    shutil.copytree(FIXTURES / "load-step", root,
                    ignore=shutil.ignore_patterns("expected.*", "pygen.toml"))
    asked: list[bool] = []

    def handles() -> dict[str, tuple[tuple[str | None, ...], tuple[str | None, ...]]]:
        asked.append(True)
        return dict(HANDLES)
    found = propose(root, ["prompt", "modify-image"], handles)
    assert found.node_types == ["src/store/migrate.ts:LEGACY_TYPES"]
    assert found.input_handles == ["src/store/migrate.ts:TARGET_RENAMES"]
    assert asked == [True]
    done = run(root, "init", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert 'node_types = ["src/store/migrate.ts:LEGACY_TYPES"]' in done.output
