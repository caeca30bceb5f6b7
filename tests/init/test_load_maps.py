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


def test_a_map_of_drawn_ids_is_no_rename() -> None:
    found = Proposal()
    # Keyed by the ids each type draws (a colour per pip): the keys are the catalog's ids,
    # one the catalog lacks ("picture") included; no rename map keys its current ids.
    classify("h.ts:D", {"modify-image": {"image": "image", "picture": "image"},
                        "prompt": {"text": "text"}}, HANDLES, found)
    classify("h.ts:DI", {"modify-image": {"prompt": "blue", "image": "cyan"}}, HANDLES, found)
    # A map of other names that shares an id by chance is not a handle map at all.
    classify("h.ts:F", {"modify-image": {"a": "image", "b": "x", "c": "y"}}, HANDLES, found)
    # A table of the ids of a few types only (labels for a popover) is no registry.
    many = {**HANDLES, **{f"t{i}": ((), ("out",)) for i in range(4)}}
    classify("h.ts:L", {"modify-image": {"prompt": "Prompt", "image": "Image"}}, many, found)
    assert found == Proposal(drawn_inputs=["h.ts:DI"], drawn_outputs=["h.ts:D"])
    assert 'drawn_outputs = ["h.ts:D"]' in proposal_lines(found)


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


def test_init_proposes_a_map_of_drawn_handles(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end on the hand-written drawn-handles project: init reads its map of the ids
    each component draws as `drawn_outputs`, not as a rename of "video-out" to "video"."""
    root = tmp_path / "app"
    shutil.copytree(FIXTURES / "drawn-handles", root,
                    ignore=shutil.ignore_patterns("expected.*", "pygen.toml"))
    done = run(root, "init", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert "maps of the handle ids its components draw" in done.output
    assert 'drawn_outputs = ["src/handles.ts:DRAWN_OUTPUTS"]' in done.output
    assert "output_handles" not in done.output
