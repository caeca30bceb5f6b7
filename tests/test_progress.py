"""Progress on stderr: a spinner on a terminal after a second, step lines with --verbose,
nothing otherwise; stdout is never touched."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from pygen import progress as progress_module
from pygen.progress import progress

NODES_TS = """\
export interface PromptData { text: string }
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"], defaultData: { text: "" } },
];
"""


def fake_stderr(monkeypatch: pytest.MonkeyPatch, terminal: bool) -> io.StringIO:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=80)
    monkeypatch.setattr(progress_module, "err_console", console)
    return out


def test_a_terminal_sees_the_step_once_the_run_lasts(monkeypatch: pytest.MonkeyPatch) -> None:
    out = fake_stderr(monkeypatch, terminal=True)
    monkeypatch.setattr(progress_module, "DELAY", 0.05)
    with progress() as steps:
        steps.step("rendering 3 nodes")
        time.sleep(0.5)
    assert "rendering 3 nodes" in out.getvalue()


def test_a_quick_run_on_a_terminal_prints_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    out = fake_stderr(monkeypatch, terminal=True)
    with progress() as steps:
        steps.step("rendering 3 nodes")
    assert out.getvalue() == ""


def test_no_terminal_is_silent_unless_verbose(monkeypatch: pytest.MonkeyPatch) -> None:
    out = fake_stderr(monkeypatch, terminal=False)
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    with progress() as steps:
        steps.step("rendering 3 nodes")
        time.sleep(0.1)
    assert out.getvalue() == ""
    with progress(verbose=True) as steps:
        steps.step("rendering [3] nodes")
    assert "] rendering [3] nodes\n" in out.getvalue()
    with progress(verbose=True, quiet=True) as steps:
        steps.step("quiet wins")
    assert "quiet wins" not in out.getvalue()


def test_gen_verbose_names_each_step_on_stderr_only(tmp_path: Path) -> None:
    (tmp_path / "nodes.ts").write_text(NODES_TS, encoding="utf-8")
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    pygen = [sys.executable, "-m", "pygen"]
    verbose = subprocess.run([*pygen, "gen", "--verbose"], cwd=tmp_path, capture_output=True,
                             text=True, check=False)
    assert verbose.returncode == 0, verbose.stderr
    steps = [line.split("] ", 1)[1] for line in verbose.stderr.splitlines() if "s] " in line]
    assert steps == ["extracting the catalog (NODE_DEFINITIONS)", "rendering 1 node",
                     "writing and checking 5 files"]
    assert "extracting" not in verbose.stdout
    plain = subprocess.run([*pygen, "check"], cwd=tmp_path, capture_output=True, text=True,
                           check=False)
    assert plain.returncode == 0, plain.stderr
    assert "extracting" not in plain.stderr + plain.stdout
