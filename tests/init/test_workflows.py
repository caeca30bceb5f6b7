"""The saved workflows init proposes, and the node layout it reads from them."""

from __future__ import annotations

import json
from pathlib import Path

from pygen.init import workflows


def write(path: Path, nodes: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"nodes": nodes, "connections": {}}), encoding="utf-8")


def test_folders_of_workflows_of_the_catalog_are_proposed_and_others_are_not(
        tmp_path: Path) -> None:
    write(tmp_path / "flows" / "a.json", [{"type": "if", "data": {}}, {"type": "set", "data": {}}])
    write(tmp_path / "other" / "b.json", [{"type": "chart", "data": {}}])
    write(tmp_path / "node_modules" / "lib" / "c.json", [{"type": "if", "data": {}}])
    (tmp_path / "package.json").write_text('{"nodes": [{"type": "if"}]}', encoding="utf-8")
    found = workflows.saved(tmp_path, ("if", "set"), set())
    assert found.globs == ["flows/*.json"]
    assert found.conventions == {}


def test_the_data_and_version_keys_are_read_from_the_saved_nodes(tmp_path: Path) -> None:
    write(tmp_path / "w" / "a.json", [
        {"id": "1", "type": "if", "typeVersion": 2, "position": [0, 0], "parameters": {}},
        {"id": "2", "type": "if", "typeVersion": 1.0, "position": [1, 0], "parameters": {"a": 1}},
    ])
    found = workflows.saved(tmp_path, ("if",), {"1", "2"})
    assert found.conventions == {"node_data_key": "parameters", "node_version_key": "typeVersion"}


def test_no_key_is_guessed_when_two_could_hold_the_data(tmp_path: Path) -> None:
    write(tmp_path / "w" / "a.json", [{"type": "if", "parameters": {}, "meta": {}}])
    assert workflows.saved(tmp_path, ("if",), set()).conventions == {}
