"""registries.json as Python reads it, and the node packages a library's package.json map
declares (Node-RED's `node-red.nodes`)."""

from __future__ import annotations

import json
from pathlib import Path

from pygen.extract import registries


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")


def test_only_node_red_declares_its_nodes_in_package_json() -> None:
    assert registries.package_map("node-red") == "node-red.nodes"
    assert registries.package_map("litegraph") is None
    assert registries.package_map("no-such-library") is None


def test_each_listed_file_names_the_nearest_package_above_it(tmp_path: Path) -> None:
    # The listed file need not exist: `build/` is made from the package's sources.
    write(tmp_path / "package.json", {"node-red": {"nodes": {
        "lamp": "packages/lamp/build/lamp.js", "hub": "packages/hub/dist/nodes/hub.js"}}})
    write(tmp_path / "packages" / "lamp" / "package.json", {})
    write(tmp_path / "packages" / "hub" / "package.json", {})
    write(tmp_path / "packages" / "template" / "package.json", {})  # listed by nobody
    assert registries.declared_folders(tmp_path, "node-red.nodes") == (
        tmp_path / "packages" / "hub", tmp_path / "packages" / "lamp")


def test_a_single_package_declares_itself_and_what_no_one_reads_declares_nothing(
        tmp_path: Path) -> None:
    write(tmp_path / "package.json", {"node-red": {"nodes": {"a": "./dist/a.js",
                                                             "out": "../elsewhere/b.js"}}})
    # Installed packages declare their own nodes; a broken manifest declares none.
    write(tmp_path / "node_modules" / "x" / "package.json",
          {"node-red": {"nodes": {"x": "x.js"}}})
    write(tmp_path / "broken" / "package.json", "{not json")
    write(tmp_path / "odd" / "package.json", {"node-red": {"nodes": ["a.js"]}})
    # `../elsewhere` leaves the manifest's folder: the manifest's own package, nothing outside.
    assert registries.declared_folders(tmp_path, "node-red.nodes") == (tmp_path,)
    assert registries.declared_folders(tmp_path / "broken", "node-red.nodes") == ()
