"""Conventions `fallback_fields` held against the catalog at gen: an entry naming a type or a
field the catalog lacks answers for nothing, and gen says so (real ts-morph, the real CLI,
on the hand-written drawn-handles project)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen.conventions import Conventions
from pygen.model import DataField, DataType, Location, NodeDef, TypeRef
from pygen.tools.fallback_fields import unmatched
from tests.cli_run import fixture_case, run
from tests.validation.test_drawn_and_fallback import findings


def test_each_unmatched_entry_is_one_warning() -> None:
    node = NodeDef(type="mixer", label="Mixer", source=Location(file="n.ts", line=1),
                   data_type=DataType(fields=(DataField(name="level", type_text="number",
                                                        type=TypeRef(kind="number")),)))
    conv = Conventions(fallback_fields={"mixer": ["level", "lvl"], "ghost": ["x"]})
    assert [(d.node_type, d.message) for d in unmatched(conv, [node])] == [
        ("mixer", "conventions.fallback_fields: 'mixer' has no data field 'lvl'; it answers "
                  "for nothing"),
        ("ghost", "conventions.fallback_fields: no node type 'ghost' in the catalog; its "
                  "entry answers for nothing")]
    assert unmatched(Conventions(), [node]) == ()


def test_a_fallback_entry_the_catalog_does_not_match_is_said_at_gen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("drawn-handles", tmp_path, monkeypatch)
    toml = root / "pygen.toml"
    toml.write_text(toml.read_text().replace(
        'upscaler = ["factor"]', 'upscaler = ["factr"], blender = ["mode"]'))
    done = run(root, "gen", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert "fallback_fields entries the catalog does not match — 2 times: upscaler, blender" \
        in done.output, done.output
    done = run(root, "gen", "--verbose", monkeypatch=monkeypatch)
    assert "conventions.fallback_fields: 'upscaler' has no data field 'factr'" in done.output
    assert "conventions.fallback_fields: no node type 'blender' in the catalog" in done.output
    # ... and the field it meant is owed again.
    found = findings(root, monkeypatch, "--profile", "strict")
    assert ("error", "required", "$.nodes[2].data.factor") in found
