"""The extraction cache: unchanged inputs run no Node process; any change or damage rebuilds it."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from cached_project import MODES_TS, config, make_project, node_runs, run

from pygen.config import Config, Settings
from pygen.extract import cache, noderuntime, prestart
from pygen.tools import merge


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return make_project(tmp_path, monkeypatch)


def enum_of(root: Path) -> tuple[object, ...] | None:
    model = merge.load_model(config(root), use_cache=True)
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


@pytest.mark.slow
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
    assert sorted(p.name for p in folder.iterdir()) == [
        ".gitignore", ".key", "examples.json", "extract.json", "render.json",
        "schema_text.json", "texts.json"]


@pytest.mark.slow
def test_an_unwritable_cache_only_costs_speed(project: Path) -> None:
    folder = project / ".pygen-cache"
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    folder.write_text("a file where the folder should be")
    assert enum_of(project) == ("fast", "slow")
    assert enum_of(project) == ("fast", "slow")
    assert node_runs(project) == 3


@pytest.mark.slow
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


def test_a_new_file_for_a_call_source_is_a_miss(tmp_path: Path) -> None:
    from pygen.extract.cache import definitions_listing

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.ts").write_text("registerNode({});\n")
    (tmp_path / "tsconfig.json").write_text("{}")
    config = Config(settings=Settings(nodes_file="src/a.ts", tsconfig="tsconfig.json",
                                      definitions=["NODES", "call:registerNode"]),
                    source=None, root=tmp_path)
    before = definitions_listing(config)
    (tmp_path / "src" / "b.ts").write_text("registerNode({});\n")
    assert definitions_listing(config) == [*before, str(tmp_path / "src" / "b.ts")]
    plain = Config(settings=Settings(nodes_file="src/a.ts"), source=None, root=tmp_path)
    assert definitions_listing(plain) == []


def test_a_new_file_in_a_node_package_the_manifest_lists_is_a_miss(tmp_path: Path) -> None:
    # Node-RED's root package.json lists each node's file; its package has its own tsconfig,
    # so a file added there is read (js/lib/sourcefiles.cjs) though no tsconfig above the
    # nodes file lists it.
    from pygen.extract.cache import definitions_listing

    (tmp_path / "package.json").write_text(
        '{"node-red": {"nodes": {"b": "packages/b/build/b.js"}}}')
    for name in ("a", "b"):
        (tmp_path / "packages" / name / "src").mkdir(parents=True)
        (tmp_path / "packages" / name / "package.json").write_text("{}")
        (tmp_path / "packages" / name / "tsconfig.json").write_text("{}")
        (tmp_path / "packages" / name / "src" / "editor.ts").write_text("// one node\n")
    config = Config(settings=Settings(nodes_file="packages/a/src/editor.ts",
                                      tsconfig="packages/a/tsconfig.json",
                                      definitions=["registrations:node-red"]),
                    source=None, root=tmp_path)
    before = definitions_listing(config)
    assert str(tmp_path / "packages" / "b" / "src" / "editor.ts") in before
    added = tmp_path / "packages" / "b" / "src" / "runtime.ts"
    added.write_text("// the same node's runtime side\n")
    assert definitions_listing(config) == sorted([*before, str(added)])
    # An editor side written as a .html file's script block is listed too.
    html = tmp_path / "packages" / "b" / "src" / "b.html"
    html.write_text("<script>RED.nodes.registerType('b', {});</script>\n")
    assert str(html) in definitions_listing(config)
    # A package the manifest does not list adds nothing beyond the tsconfig's own folder.
    (tmp_path / "packages" / "c" / "src").mkdir(parents=True)
    (tmp_path / "packages" / "c" / "package.json").write_text("{}")
    (tmp_path / "packages" / "c" / "src" / "editor.ts").write_text("// not a node\n")
    assert str(tmp_path / "packages" / "c" / "src" / "editor.ts") not in definitions_listing(
        config)


def test_an_entry_reads_back_in_its_own_key_order_and_an_edit_is_refused(
        tmp_path: Path) -> None:
    entry = tmp_path / "entry.json"
    payload = {"key": "k", "data": {"zeta": 1, "alpha": "é"}}
    cache.write_entry(entry, payload)
    back = cache.read_entry(entry, "k")
    assert back == payload and back is not None and list(back["data"]) == ["zeta", "alpha"]
    assert cache.read_entry(entry, "other") is None
    entry.write_text(entry.read_text().replace('"zeta":1', '"zeta":2'))
    assert cache.read_entry(entry, "k") is None


@pytest.mark.slow
def test_settled_inputs_are_trusted_by_their_stat_and_a_write_is_still_seen(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[Path] = []
    real = cache.sha256_of
    monkeypatch.setattr(cache, "sha256_of", lambda p: hashed.append(p) or real(p))
    assert enum_of(project) == ("fast", "slow")
    # Written just before the entry: their times cannot vouch for their bytes yet.
    assert project / "src" / "modes.ts" in hashed
    time.sleep(cache.RACY_NS / 1e9 + 0.2)
    assert enum_of(project) == ("fast", "slow")  # settled now: the entry is written again
    hashed.clear()
    assert enum_of(project) == ("fast", "slow")
    assert [p for p in hashed if p.suffix == ".ts"] == []
    assert node_runs(project) == 1
    # The same size, written after the entry: its times show it.
    (project / "src" / "modes.ts").write_text(MODES_TS.replace('"slow"', '"slod"'))
    assert enum_of(project) == ("fast", "slod")
    assert node_runs(project) == 2


def test_a_check_missing_its_memo_on_a_code_file_starts_one_node_early(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0  # the memo
    early: list[int] = []
    real = prestart.start
    monkeypatch.setattr(prestart, "start", lambda: early.append(1) or real())
    skill = project / "skills" / "nodes" / "prompt.md"
    skill.write_text(skill.read_text() + "\nA person's note.\n")
    # Only a skill file changed: the extraction is cached, no Node starts at all.
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert node_runs(project) == 1 and early == []
    (project / "src" / "modes.ts").write_text(MODES_TS.replace('"slow"', '"slod"'))
    check = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert check.exit_code == 1 and "stale: skills/nodes/prompt.md" in check.stderr
    assert early == [1] and node_runs(project) == 2  # the early process extracted
