"""Vendored copies give init no evidence (pygen/init/vendored.py): folders named for vendored
code, folders of distribution files, packages npm installed, build-artifact names, minified
or bundled text."""

from __future__ import annotations

import json
from pathlib import Path

from pygen.init import scan, vendored

CATALOG = 'export const NODES = [{ type: "a", inputs: [], outputs: [] }];\n'


def write(path: Path, text: str = CATALOG) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_vendored_folders_and_artifacts_are_never_walked(tmp_path: Path) -> None:
    own = write(tmp_path / "src" / "nodes.ts")
    write(tmp_path / "vendor" / "kit" / "nodes.ts")
    write(tmp_path / "web" / "Third_Party" / "nodes.ts")
    write(tmp_path / "libs" / "graph" / "graph.ts")
    write(tmp_path / "libs" / "graph" / "graph.min.js", "var a=1;")
    write(tmp_path / "src" / "copied" / "nodes.ts")
    write(tmp_path / "src" / "copied" / "package.json",
          json.dumps({"name": "kit", "_resolved": "https://registry.example/kit.tgz"}))
    write(tmp_path / "src" / "app.bundle.js")
    write(tmp_path / "src" / "chart.umd.js")
    assert list(scan.project_files(tmp_path)) == [own]
    # a component named like a bundle is the project's own source
    assert not vendored.vendored_name("output-bundle.tsx")
    assert vendored.vendored_name("kit.min.ts") and vendored.vendored_name("app-bundle.js")


def test_a_project_package_json_and_a_min_js_at_the_root_keep_their_folder(
        tmp_path: Path) -> None:
    write(tmp_path / "package.json", json.dumps({"name": "app", "version": "1.0.0"}))
    write(tmp_path / "pkg" / "package.json", json.dumps({"name": "pkg", "main": "index.ts"}))
    write(tmp_path / "pkg" / "index.ts")
    assert not vendored.vendored_dir(tmp_path / "pkg", ["package.json", "index.ts"])
    assert tmp_path / "pkg" / "index.ts" in set(scan.project_files(tmp_path))


def test_minified_and_bundled_text_is_vendored_hand_written_text_is_not() -> None:
    assert vendored.vendored_text("var a=" + "1," * 4000 + "0;\n")
    assert vendored.vendored_text("(function (global, factory) {\n  global.kit = factory();\n"
                                  "})(this, function () { return {}; });\n")
    assert vendored.vendored_text("/******/ (() => { // webpackBootstrap\n var x;\n")
    long_but_written = "\n".join(f"  {{ type: 'n{i}', label: 'Node {i}' }}," for i in range(400))
    assert not vendored.vendored_text(f"export const NODES = [\n{long_but_written}\n];\n")
    icon = "export const Logo = () => <path d=\"" + "M1 2L3 4" * 900 + "\" />;\n"
    assert not vendored.vendored_text(icon + "\n".join(["export const x = 1;"] * 400))


def test_a_minified_copy_among_the_sources_is_not_read(tmp_path: Path) -> None:
    write(tmp_path / "src" / "nodes.ts")
    write(tmp_path / "src" / "kit.ts", "export const KIT_NODES=[" + '{type:"x",inputs:[]},'
          * 300 + "];")
    assert [p.name for p in scan.read_sources(tmp_path)] == ["nodes.ts"]
