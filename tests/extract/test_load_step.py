"""Reading the load step's maps (config `load_step`): from the code as syntax, or the config."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen.config import load_config
from pygen.extract.load_step import KEYS, read_load_step
from tests.cli_run import fixture_case, run


def test_an_unreadable_map_is_one_warning(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("load-step", tmp_path, monkeypatch)
    text = (root / "pygen.toml").read_text().replace(
        'output_handles = ["src/store/migrate.ts:SOURCE_RENAMES"]',
        'output_handles = ["src/store/migrate.ts:NOPE", "src/store/migrate.ts:byId", '
        '{ "modify-image" = { "result" = "image" } }]')
    (root / "pygen.toml").write_text(text)
    step, notes = read_load_step(load_config(root / "pygen.toml"))
    assert step.node_types == {"image-to-image": "modify-image"}
    assert step.output_handles == {"modify-image": {"result": "image"}}
    assert [n.message.split(";")[0] for n in notes] == [
        "load_step: no constant 'NOPE' in src/store/migrate.ts",
        "load_step: 'new Map(nodes.map((n) => [n.id, LEGACY_TYPES[n.type] ?? n.ty' is not "
        "a string or an object literal"]
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    step = load_config(root / "pygen.toml").settings.load_step
    assert step is not None
    assert tuple(r for key in KEYS for r in getattr(step, key) if isinstance(r, str)) == (
        "src/store/migrate.ts:LEGACY_TYPES", "src/store/migrate.ts:TARGET_RENAMES",
        "src/store/migrate.ts:NOPE", "src/store/migrate.ts:byId")
