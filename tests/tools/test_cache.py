"""The tool schemas cache: sources that can be fingerprinted are loaded once per change."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pygen.config import Config, load_config
from pygen.model import ToolSchema
from pygen.tools import cache


class CountingLoader:
    """A loader that reads json: sources itself and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, sources: list[str], root: Path, timeout: float
                 ) -> tuple[ToolSchema, ...]:
        self.calls += 1
        out = []
        for source in sources:
            data = json.loads((root / source.removeprefix("json:")).read_text())
            out += [ToolSchema(name=t["name"], input_schema=t.get("inputSchema", {}),
                               source=source) for t in data["tools"]]
        return tuple(out)


def tool_config(root: Path, sources: list[str]) -> Config:
    (root / "pygen.toml").write_text(
        'nodes_file = "nodes.ts"\ntools = [' + ", ".join(json.dumps(s) for s in sources) + "]\n")
    return load_config(root / "pygen.toml")


def test_json_tool_schemas_are_cached_until_the_file_changes(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": [{"name": "a"}]}))
    loader = CountingLoader()
    cfg = tool_config(tmp_path, ["json:tools.json"])
    assert [t.name for t in cache.tool_schemas(cfg, loader)] == ["a"]
    assert [t.name for t in cache.tool_schemas(cfg, loader)] == ["a"]
    assert loader.calls == 1
    tools.write_text(json.dumps({"tools": [{"name": "b"}]}))
    assert [t.name for t in cache.tool_schemas(cfg, loader)] == ["b"]
    assert loader.calls == 2


def test_python_sources_are_fingerprinted_by_their_package(tmp_path: Path) -> None:
    package = tmp_path / "app" / "server"
    package.mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text("X = 1\n")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "tools.cpython-311.pyc").write_bytes(b"\0")
    files = cache.source_files("python:app.server.tools:mcp", tmp_path)
    assert files == sorted([tmp_path / "app" / "__init__.py", package / "__init__.py",
                            package / "tools.py"])
    (tmp_path / "single.py").write_text("")
    assert cache.source_files("python:single:mcp", tmp_path) == [tmp_path / "single.py"]
    assert cache.source_files("python:installed.elsewhere:mcp", tmp_path) is None
    assert cache.source_files("stdio:node server.mjs", tmp_path) is None
    assert cache.source_files("json:t.json", tmp_path) == [tmp_path / "t.json"]


def test_a_source_that_cannot_be_fingerprinted_is_always_loaded(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [{"name": "a"}]}))
    calls = []

    def loader(sources: list[str], root: Path, timeout: float) -> tuple[ToolSchema, ...]:
        calls.append(sources)
        return (ToolSchema(name="a"),)

    cfg = tool_config(tmp_path, ["json:tools.json", "stdio:node server.mjs"])
    cache.tool_schemas(cfg, loader)
    cache.tool_schemas(cfg, loader)
    assert len(calls) == 2
    assert not (tmp_path / ".pygen-cache" / "tools.json").exists()


def test_a_new_module_in_the_package_changes_the_key(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    cfg = tool_config(tmp_path, ["python:app:mcp"])
    loader = CountingLoader()

    def load(sources: list[str], root: Path, timeout: float) -> tuple[ToolSchema, ...]:
        loader.calls += 1
        return (ToolSchema(name="t"),)

    cache.tool_schemas(cfg, load)
    cache.tool_schemas(cfg, load)
    (tmp_path / "app" / "more.py").write_text("")
    cache.tool_schemas(cfg, load)
    assert loader.calls == 2
    os.utime(tmp_path / "app" / "more.py")  # a touch without a change keeps the cache
    cache.tool_schemas(cfg, load)
    assert loader.calls == 2
