"""The .pygen-cache: unchanged inputs run no Node process; any change, or damage, rebuilds it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.config import Config, load_config
from pygen.extract import cache, noderuntime
from pygen.model import ToolSchema
from pygen.skills import pipeline

NODES_TS = """\
import { Mode } from "./modes";
export interface PromptData {
  text: string;
  mode: Mode;
}
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"],
    defaultData: { text: "", mode: "fast" } },
];
"""
MODES_TS = 'export type Mode = "fast" | "slow";\n'


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose node binary is a wrapper that logs every run to node-runs.log."""
    real = noderuntime.find_node()
    wrapper = tmp_path / "bin" / "node"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\necho run >> "{tmp_path / "node-runs.log"}"\n'
                       f'exec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PYGEN_NODE", str(wrapper))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "src" / "modes.ts").write_text(MODES_TS)
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return tmp_path


def node_runs(root: Path) -> int:
    log = root / "node-runs.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def config(root: Path) -> Config:
    return load_config(root / "pygen.toml")


def enum_of(root: Path) -> tuple[object, ...] | None:
    model = pipeline.load_model(config(root), use_cache=True)
    prompt = model.node("prompt")
    assert prompt is not None
    mode = next(f for f in prompt.data_type.fields if f.name == "mode")
    return mode.type.literal_values()


def test_unchanged_inputs_run_no_node_process(project: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert node_runs(project) == 1
    for _ in range(2):
        assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert node_runs(project) == 1
    assert run(project, "check", "-q", "--no-cache", monkeypatch=monkeypatch).exit_code == 0
    assert node_runs(project) == 2


def test_one_character_in_an_imported_type_file_invalidates(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "src" / "modes.ts").write_text(MODES_TS.replace('"slow"', '"slod"'))
    check = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert check.exit_code == 1 and "stale: skills/nodes/prompt.md" in check.stderr
    assert node_runs(project) == 2
    assert enum_of(project) == ("fast", "slod")
    assert node_runs(project) == 2


def test_a_config_change_invalidates(project: Path) -> None:
    with (project / "pygen.toml").open("a") as handle:
        handle.write('result_fields = ["text"]\n')
    assert enum_of(project) == ("fast", "slow")
    assert node_runs(project) == 2


def damaged(stored: dict[str, Any], entry: Path, damage: str) -> None:
    if damage == "truncate":
        entry.write_text(json.dumps(stored)[:200])
    elif damage == "garbage":
        entry.write_bytes(b"\xff\xfe not json")
    elif damage == "tamper":
        text = json.dumps(stored).replace('"slow"', '"tampered"')
        assert "tampered" in text
        entry.write_text(text)
    elif damage == "other-format":
        entry.write_text(json.dumps({**stored, "format": 0}))
    else:
        payload = {k: v for k, v in stored["payload"].items() if k != "reply"}
        entry.write_text(json.dumps({**stored, "payload": payload,
                                     "checksum": cache.digest_json(payload)}))


def test_a_damaged_cache_is_ignored_and_rebuilt(project: Path) -> None:
    entry = project / ".pygen-cache" / "extract.json"
    damages = ["truncate", "garbage", "tamper", "other-format", "no-reply"]
    for count, damage in enumerate(damages, start=2):
        damaged(json.loads(entry.read_text()), entry, damage)
        assert enum_of(project) == ("fast", "slow"), damage
        assert node_runs(project) == count, damage
        assert json.loads(entry.read_text())["payload"]["reply"]["ok"] is True
        assert enum_of(project) == ("fast", "slow")
        assert node_runs(project) == count, damage


def test_the_cache_folder_ignores_itself_and_holds_only_cache_files(project: Path) -> None:
    folder = project / ".pygen-cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert sorted(p.name for p in folder.iterdir()) == [".gitignore", "extract.json"]


def test_an_unwritable_cache_only_costs_speed(project: Path) -> None:
    folder = project / ".pygen-cache"
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    folder.write_text("a file where the folder should be")
    assert enum_of(project) == ("fast", "slow")
    assert enum_of(project) == ("fast", "slow")
    assert node_runs(project) == 3


# --- tool schemas -----------------------------------------------------------------------------

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


# --- a whole clean check ------------------------------------------------------------------------

def clean_check_then(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert cache.clean_check(config(project), strict=False) is not None


def test_a_clean_check_is_remembered_and_answers_the_next_one(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    again = run(project, "check", monkeypatch=monkeypatch)
    assert again.exit_code == 0 and again.output == "3 skill files are current.\n"
    assert cache.clean_check(config(project), strict=True) is None  # other flags, other key


def test_a_hand_edit_after_a_clean_check_is_still_caught(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    skill = project / "skills" / "nodes" / "prompt.md"
    skill.write_text(skill.read_text().replace("- **Type:**", "- **Kind:**"))
    result = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "hand-edited" in result.output


def test_a_new_file_in_the_skills_dir_after_a_clean_check_is_still_caught(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    (project / "skills" / "nodes" / "gone.md").write_text("---\nnode_type: gone\n---\n# Gone\n")
    result = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "gone.md" in result.output


def test_a_type_change_after_a_clean_check_is_still_caught(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    (project / "src" / "modes.ts").write_text(MODES_TS.replace('"slow"', '"slod"'))
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 1


def test_a_changed_pygen_of_the_same_version_is_a_miss(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean_check_then(project, monkeypatch)
    monkeypatch.setattr(cache, "code_id", lambda: "another build")
    assert cache.clean_check(config(project), strict=False) is None
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert node_runs(project) == 2


def test_an_edit_to_any_extractor_module_is_a_miss(
        project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The key covers every module the entry script requires, not the entry alone."""
    copy = tmp_path_factory.mktemp("js") / "js"
    shutil.copytree(noderuntime.CHECKOUT_DIR / "js", copy)
    modules = noderuntime.CHECKOUT_DIR / "node_modules"
    script = noderuntime.NodeScript(noderuntime.find_node(), copy / "extract.cjs", modules)
    monkeypatch.setattr(noderuntime, "extractor", lambda: script)
    assert run(project, "gen", "-q", "--no-cache", monkeypatch=monkeypatch).exit_code == 0
    assert run(project, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    runs = node_runs(project)
    module = next(p for p in sorted((copy / "lib").glob("*.cjs")) if p.name != "extract.cjs")
    module.write_text(module.read_text() + "\n// an edit\n")
    assert run(project, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert node_runs(project) == runs + 1
