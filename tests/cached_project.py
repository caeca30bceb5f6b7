"""A small project whose node binary logs every run: what the cache tests count."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run

from pygen.config import Config, load_config
from pygen.extract import noderuntime

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


def make_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
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
