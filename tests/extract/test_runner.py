"""pygen/extract.py at the Node boundary: every way the extractor can fail is one line.

Most tests stand a small shell script in for node (through PYGEN_NODE) that replies what a
failing extractor would; the corpus (test_extract_corpus.py) is the end-to-end part. The
ts-morph and --strict tests run the real Node.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.config import Config, load_config
from pygen.errors import ExtractionError, PygenError
from pygen.extract.runner import extract, noderuntime

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "fixtures" / "ts"


@pytest.fixture
def project(tmp_path: Path) -> Config:
    (tmp_path / "nodes.ts").write_text("export const NODE_DEFINITIONS = [];\n")
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\nextract_timeout = 5\n')
    return load_config(tmp_path / "pygen.toml")


def fake_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """Point PYGEN_NODE at a script that swallows the request and runs `body` instead."""
    script = tmp_path / "fake-node"
    script.write_text(f"#!/bin/sh\ncat >/dev/null\n{body}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PYGEN_NODE", str(script))


def replies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: dict[str, Any]) -> None:
    (tmp_path / "reply.json").write_text(json.dumps({"protocol": 1, **reply}))
    fake_node(tmp_path, monkeypatch, f"cat '{tmp_path / 'reply.json'}'")


def failure(config: Config) -> str:
    with pytest.raises(PygenError) as caught:
        extract(config)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_missing_nodes_file_names_the_config(tmp_path: Path) -> None:
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    config = load_config(tmp_path / "pygen.toml")
    assert failure(config) == (f"{tmp_path / 'src' / 'nodes.ts'}: nodes_file not found; "
                               f"fix nodes_file in {tmp_path / 'pygen.toml'}")


def test_located_error_is_compiler_style(project: Config, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    replies(tmp_path, monkeypatch, {"ok": False, "errors": [
        {"file": "src/nodes.ts", "line": 12, "col": 7, "message": "'label' must be static data"},
        {"file": "src/other.ts", "line": 1, "col": 1, "message": "not shown"}]})
    assert failure(project) == "src/nodes.ts:12:7: 'label' must be static data"


def test_config_error_names_the_config_file(project: Config, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    replies(tmp_path, monkeypatch, {"ok": False, "errors": [
        {"code": "config", "message": "data_types maps 'x' to 'XShape', but no …"}]})
    assert failure(project) == (f"{tmp_path / 'pygen.toml'}: "
                                "data_types maps 'x' to 'XShape', but no …")


def test_multi_line_message_is_cut_to_its_first_line(project: Config, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    replies(tmp_path, monkeypatch, {"ok": False, "errors": [
        {"code": "internal", "message": "internal error in the extractor: boom\n    at x",
         "detail": "stack"}]})
    assert failure(project) == "internal error in the extractor: boom"


def test_extractor_crash_shows_its_last_stderr_line(project: Config, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    fake_node(tmp_path, monkeypatch, "echo 'at frame' >&2; echo 'RangeError: too deep' >&2; exit 3")
    assert failure(project) == (f"{project.nodes_file}: the extractor failed (exit 3): "
                                "RangeError: too deep")


def test_protocol_mismatch_asks_for_a_reinstall(project: Config, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    fake_node(tmp_path, monkeypatch, """echo '{"protocol": 0, "ok": true}'""")
    assert failure(project) == "the extractor script does not match this pygen; reinstall pygen"


def test_malformed_reply_is_one_line(project: Config, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    replies(tmp_path, monkeypatch, {"ok": True, "nodes": [{"type": "x", "label": 3}],
                                    "sources": [], "diagnostics": []})
    assert failure(project).startswith("the extractor's reply is malformed: label: ")


def test_timeout_names_the_command_and_the_limit(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nodes.ts").write_text("")
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\nextract_timeout = 0.5\n')
    fake_node(tmp_path, monkeypatch, "sleep 5")
    message = failure(load_config(tmp_path / "pygen.toml"))
    assert message.startswith(f"`{tmp_path / 'fake-node'} ")
    assert message.endswith("extract.cjs` timed out after 0.5s")


@pytest.mark.parametrize("make", ["missing", "not-executable"])
def test_pygen_node_that_cannot_run(project: Config, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, make: str) -> None:
    node = tmp_path / "node"
    if make == "not-executable":
        node.write_text("#!/bin/sh\n")
    monkeypatch.setenv("PYGEN_NODE", str(node))
    assert failure(project) == (f"PYGEN_NODE={node} is not an executable file; point it at a "
                                "node binary or unset it to use the bundled one")


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A pygen checkout holding the real extractor script, for ts-morph install states."""
    root = tmp_path / "checkout"
    (root / "js").mkdir(parents=True)
    shutil.copyfile(REPO / "js" / "extract.cjs", root / "js" / "extract.cjs")
    shutil.copyfile(REPO / "package.json", root / "package.json")
    monkeypatch.setattr(noderuntime, "CHECKOUT_DIR", root)
    monkeypatch.delenv("NODE_PATH", raising=False)
    monkeypatch.delenv("PYGEN_NODE", raising=False)
    return root


def test_ts_morph_not_installed_says_npm_ci(project: Config, checkout: Path) -> None:
    assert failure(project) == f"ts-morph is not installed: run `npm ci` in {checkout}"


def test_ts_morph_that_node_cannot_load_says_npm_ci(project: Config, checkout: Path) -> None:
    # Installed on paper, broken on disk: the real script under real Node reports it.
    broken = checkout / "node_modules" / "ts-morph"
    broken.mkdir(parents=True)
    (broken / "package.json").write_text('{"name": "ts-morph", "main": "missing.js"}')
    assert failure(project) == f"ts-morph is not installed: run `npm ci` in {checkout}"


# ---------------------------------------------------------------------------------------
# Unresolved data types through the CLI: warnings by default, errors under --strict.

UNRESOLVED = [
    "warning: nodes.ts:7: node 'mystery': no data type found (no cast in its definition; no "
    "MysteryData, MysteryNodeData, MysteryDataType or MysteryNodeDataType; no plausible "
    "structural match); map it in data_types in the pygen config",
    "warning: nodes.ts:8: node 'bare': no data type found (no cast in its definition; no "
    "BareData, BareNodeData, BareDataType or BareNodeDataType; no plausible structural "
    "match); map it in data_types in the pygen config",
]
# Without --verbose, one line per kind of warning.
SUMMARY = ["warning: nodes without a data type (map them in data_types) — 2 times: "
           "nodes.ts:7, nodes.ts:8"]
STRICT = ("error: --strict: no data type found for mystery, bare; add them to data_types in "
          "the pygen config")


@pytest.fixture
def unresolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "case"
    shutil.copytree(CORPUS / "unresolved-data-type", root)
    shutil.copyfile(CORPUS / "tsconfig.json", root / "tsconfig.json")
    (root / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    monkeypatch.chdir(root)
    return root


def test_gen_warns_about_each_unresolved_data_type(unresolved: Path) -> None:
    result = CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == []  # -q: nothing but errors
    result = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == SUMMARY
    assert (unresolved / "skills" / "nodes" / "mystery.md").is_file()
    result = CliRunner().invoke(main, ["gen", "--verbose"], catch_exceptions=False)
    # --verbose also names each step of the run (`[   0.1s] rendering 3 nodes`).
    lines = result.stderr.splitlines()
    assert [line for line in lines if not line.startswith("[")] == UNRESOLVED
    assert "rendering 3 nodes" in result.stderr
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    assert result.stderr.splitlines() == SUMMARY, "a cached check summarises the same way"
    result = CliRunner().invoke(main, ["gen", "--json"], catch_exceptions=False)
    assert [w["line"] for w in json.loads(result.stdout)["warnings"]] == [7, 8]


@pytest.mark.matrix
@pytest.mark.parametrize("how", ["flag", "config"])
def test_strict_makes_them_errors_and_writes_nothing(unresolved: Path, how: str) -> None:
    args = ["gen", "--strict"] if how == "flag" else ["gen"]
    if how == "config":
        with (unresolved / "pygen.toml").open("a") as handle:
            handle.write("strict = true\n")
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [*SUMMARY, STRICT]
    assert not (unresolved / "skills").exists()


@pytest.mark.slow
def test_extraction_error_reaches_the_cli_as_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "case"
    shutil.copytree(CORPUS / "error-syntax", root)
    (root / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    assert result.exit_code == 2
    expected = json.loads((CORPUS / "error-syntax" / "expected.json").read_text())["error"]
    assert result.stderr == f"error: {expected}\n"
    assert result.stdout == ""


@pytest.mark.slow
def test_a_computed_value_is_a_warning_and_with_strict_an_error_naming_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "case"
    shutil.copytree(CORPUS / "call-in-default", root)
    (root / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    monkeypatch.chdir(root)
    gen = CliRunner().invoke(main, ["gen", "-q"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    assert "- `seed` — computed at run time: `randomSeed()` (number)" in (
        root / "skills" / "nodes" / "generate-image.md").read_text()
    strict = CliRunner().invoke(main, ["check", "--strict"], catch_exceptions=False)
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].startswith(
        "error: --strict: nodes.ts:16: node 'generate-image': 'defaultData.seed' is computed "
        "at run time")
    assert CliRunner().invoke(main, ["check"], catch_exceptions=False).exit_code == 0


def test_extraction_error_type_is_extraction_error(project: Config, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    replies(tmp_path, monkeypatch, {"ok": False, "errors": [{"message": "x"}]})
    with pytest.raises(ExtractionError):
        extract(project)


def test_node_out_of_memory_says_so_and_how_to_raise_the_limit(
        project: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real Node with a heap far too small for TypeScript: it dies as 100,000 nodes
    would, and the line says what happened and which setting to raise."""
    monkeypatch.setenv("NODE_OPTIONS", "--max-old-space-size=16")
    message = failure(project)
    assert message.startswith(f"{project.nodes_file}: the extractor ran out of memory")
    assert "NODE_OPTIONS=--max-old-space-size=" in message and "GC" not in message


@pytest.mark.matrix
@pytest.mark.parametrize("kind", ["device", "fifo", "link-to-device", "huge"])
def test_a_tsconfig_extending_a_device_pipe_or_huge_file_is_one_line(
        tmp_path: Path, kind: str) -> None:
    (tmp_path / "nodes.ts").write_text("export const NODE_DEFINITIONS = [];\n")
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    target = {"device": "/dev/zero", "fifo": "./base.json", "link-to-device": "./base.json",
              "huge": "./base.json"}[kind]
    (tmp_path / "tsconfig.json").write_text(json.dumps({"extends": "./mid.json"}))
    (tmp_path / "mid.json").write_text(json.dumps({"extends": target}))
    if kind == "fifo":
        os.mkfifo(tmp_path / "base.json")
    elif kind == "link-to-device":
        (tmp_path / "base.json").symlink_to("/dev/zero")
    elif kind == "huge":
        with (tmp_path / "base.json").open("wb") as sparse:  # no disk used: a hole
            sparse.truncate(65 << 20)
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pygen", "extract"], cwd=tmp_path, text=True,
                          capture_output=True, timeout=120, check=False)
    assert time.monotonic() - start < 60
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "internal error" not in done.stderr
    assert f"{tmp_path / 'mid.json'} extends " in done.stderr
    said = {"device": "a character device", "fifo": "a named pipe",
            "link-to-device": "a character device", "huge": "larger than 64 MB"}[kind]
    assert said in done.stderr
