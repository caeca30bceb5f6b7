"""`pygen gen --watch`: a real process, real saves, a TypeScript error survived; bounded in time."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest

from pygen.commands import watch
from pygen.config import load_config

NODES_TS = """\
export interface PromptData {
  text: string;
}
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"], defaultData: { text: "" } },
];
"""
# Each wait covers one Node extraction on a busy two-core machine.
WAIT = 60.0


def with_field(declaration: str, default: str) -> str:
    return (NODES_TS.replace("  text: string;", f"  text: string;\n  {declaration};")
            .replace('defaultData: { text: "" }', f'defaultData: {{ text: "", {default} }}'))


class Watcher:
    """The process and its stderr lines, read on a thread so waiting never blocks."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pygen", "gen", "--watch", "-q"], cwd=root, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert self.process.stderr is not None
        threading.Thread(target=self._read, args=(self.process.stderr,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line.rstrip("\n"))

    def wait_line(self, wanted: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                assert self.process.poll() is None, f"watch exited early; saw {self.seen}"
                continue
            self.seen.append(line)
            if wanted(line):
                return line
        raise AssertionError(f"no {what} within {WAIT:g}s; saw {self.seen}")


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {WAIT:g}s")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    return tmp_path


@pytest.fixture
def watcher(project: Path) -> Iterator[Watcher]:
    running = Watcher(project)
    try:
        yield running
    finally:
        if running.process.poll() is None:
            running.process.kill()
        running.process.wait(timeout=10)


@pytest.mark.slow
def test_regenerates_on_save_survives_a_typescript_error_and_stops_on_ctrl_c(
        project: Path, watcher: Watcher) -> None:
    skill = project / "skills" / "nodes" / "prompt.md"
    nodes_ts = project / "src" / "nodes.ts"
    watcher.wait_line(lambda line: "waiting for changes" in line, "first run")
    assert skill.is_file()

    nodes_ts.write_text(with_field("first: string", 'first: ""'))
    wait_for(lambda: "`first: string`" in skill.read_text(), "regeneration after a save")

    nodes_ts.write_text("export const NODE_DEFINITIONS = [ { type: ")
    error = watcher.wait_line(lambda line: line.startswith("error:"), "error line")
    assert "src/nodes.ts:1:" in error

    nodes_ts.write_text(with_field("second: number", "second: 0"))
    wait_for(lambda: "`second: number`" in skill.read_text(), "regeneration after the fix")
    assert "`first: string`" not in skill.read_text()

    # A type file in a folder nobody watched yet is watched once nodes.ts imports it.
    extra = project / "src" / "types" / "extra.ts"
    extra.parent.mkdir()
    extra.write_text('export type Speed = "slow" | "fast";\n')
    nodes_ts.write_text('import { Speed } from "./types/extra";\n'
                        + with_field("speed: Speed", 'speed: "slow"'))
    wait_for(lambda: '"slow" | "fast"' in skill.read_text(), "regeneration after an import")
    watcher.wait_line(lambda line: "watching 3 files in 3 folders" in line, "a wider watch")
    extra.write_text('export type Speed = "slow" | "fast" | "warp";\n')
    wait_for(lambda: '"warp"' in skill.read_text(), "regeneration after the imported file")

    watcher.process.send_signal(signal.SIGINT)
    assert watcher.process.wait(timeout=WAIT) == 0
    # Writing the skills never woke the watch: one run per save.
    while not watcher.lines.empty():
        watcher.seen.append(watcher.lines.get())
    assert sum(" changed: nodes.ts" in line for line in watcher.seen) == 4, watcher.seen
    assert sum(" changed: extra.ts" in line for line in watcher.seen) == 1, watcher.seen


def test_watched_files_and_the_filter(project: Path) -> None:
    config = load_config(project / "pygen.toml")
    files = watch.watched_files(config)
    assert files == {(project / "src" / "nodes.ts").resolve(),
                     (project / "pygen.toml").resolve()}
    keep = watch.relevant(config, files)
    assert keep(None, str(project / "src" / "nodes.ts"))
    assert keep(None, str(project / "src" / "other.ts"))
    assert not keep(None, str(project / "skills" / "nodes" / "prompt.md"))
    assert not keep(None, str(project / "skills" / "x.ts"))
    assert not keep(None, str(project / ".pygen-cache" / "extract.json"))
    assert not keep(None, str(project / "src" / ".nodes.ts.swp"))
    assert not keep(None, str(project / "README.md"))


def test_a_failing_run_is_printed_and_survived(project: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from pygen.errors import ExtractionError

    def broken(_config: object) -> int:
        raise ExtractionError("src/nodes.ts:3:1: bad")

    def buggy(_config: object) -> int:
        raise ValueError("oops")

    config = load_config(project / "pygen.toml")
    assert watch.attempt(config, broken) == 2
    assert watch.attempt(config, buggy) == 2
    err = capsys.readouterr().err
    assert "error: src/nodes.ts:3:1: bad" in err
    assert "internal error: ValueError: oops" in err


@pytest.mark.matrix
@pytest.mark.parametrize("config", [b'nodes_file = "src/nodes.ts"\n# caf\xe9\n',
                                    b'nodes_file = "src/nodes.ts"\nextract_timeout = nan\n',
                                    b'nodes_file = "src/nodes.ts"\ntools = 5\n'])
def test_a_broken_config_save_keeps_the_watch_and_the_last_config(
        project: Path, watcher: Watcher, config: bytes) -> None:
    skill = project / "skills" / "nodes" / "prompt.md"
    watcher.wait_line(lambda line: "waiting for changes" in line, "first run")
    good = (project / "pygen.toml").read_bytes()
    (project / "pygen.toml").write_bytes(config)
    error = watcher.wait_line(lambda line: line.startswith("error:"), "error line")
    assert "pygen.toml" in error and "keeping the previous configuration" in error
    (project / "pygen.toml").write_bytes(good)
    (project / "src" / "nodes.ts").write_text(with_field("third: string", 'third: ""'))
    wait_for(lambda: "`third: string`" in skill.read_text(), "regeneration after the fix")
    assert not any("internal error" in line for line in watcher.seen)
