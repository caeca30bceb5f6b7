"""The real CLI run in a test's project folder, a hand-written fixture project copied,
generated and checked as a user's would be, and the extractor run as pygen runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.config import load_config
from pygen.extract import noderuntime
from pygen.extract.noderuntime import node_command, node_env
from pygen.extract.runner import request_for

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ts"


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# Two nodes, one wired to nothing: the project the cache memos' tests edit one node of.
TWO_NODES_TS = """\
export interface MiddleData {
  /** How strong. */
  strength: number;
}
export interface NoteData {
  /** What it says. */
  body: string;
}
export const NODE_DEFINITIONS = [
  { type: "middle", label: "Middle", inputs: ["text"], outputs: ["image"],
    defaultData: { strength: 3 } },
  { type: "note", label: "Note", inputs: [], outputs: [], defaultData: { body: "" } },
];
"""


def generated(root: Path, monkeypatch: pytest.MonkeyPatch, nodes_ts: str = TWO_NODES_TS) -> Path:
    """`root` holding `src/nodes.ts` and its config, after a `gen` that exits 0."""
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(nodes_ts)
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return root


def fixture_case(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of fixture `name` (without its expected outputs) after `gen` and `check`, both
    exit 0: what pygen generates passes its own check on an untouched project."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root, ignore=shutil.ignore_patterns("expected.*"))
    for args in (["gen", "-q"], ["check", "-q"]):
        done = run(root, *args, monkeypatch=monkeypatch)
        assert done.exit_code == 0, done.output
    return root


def cli_extract(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """`pygen extract`'s JSON document for the project at `root`."""
    result = run(root, "extract", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def extractor_reply(root: Path, every: bool) -> dict[str, Any]:
    """The extractor's own reply with its profile (`every`: no import left out)."""
    config = load_config(root / "pygen.toml")
    script = noderuntime.extractor()
    request = {**request_for(config), "profile": True, "loadEveryImport": every}
    done = subprocess.run(node_command(script), input=json.dumps(request), capture_output=True,
                          text=True, cwd=root, env=node_env(script), check=True)
    reply: dict[str, Any] = json.loads(done.stdout)
    assert reply["ok"], reply
    return reply
