"""One extraction where one is enough: `extract` answers from the cache `gen` wrote, and
`init` sends the extractor each request once (its ranking, the chosen candidate's
confirmation and its handles all ask the same), all of them to one Node process."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pygen.extract import runner, warm
from pygen.init import scan
from tests.cli_run import generated, run

NODES_TS = """\
export interface MiddleData { strength: number; }
export interface NoteData { body: string; }
export const NODE_DEFINITIONS = [
  { type: "middle", label: "Middle", inputs: ["text"], outputs: ["image"],
    defaultData: { strength: 3 } },
  { type: "note", label: "Note", inputs: [], outputs: [], defaultData: { body: "" } },
  { type: "last", label: "Last", inputs: ["image"], outputs: [], defaultData: {} },
];
"""
# A part copied from the catalog: a rival the ranking confirms, and the catalog wins.
COPY_TS = """\
export const COPIED_NODES = [
  { type: "middle", label: "Middle", inputs: ["text"], outputs: ["image"], defaultData: {} },
  { type: "note", label: "Note", inputs: [], outputs: [], defaultData: {} },
];
"""


def spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The requests the extractor really ran (a Node process each), in order."""
    sent: list[str] = []
    real = runner._run

    def counted(config: Any, request: str) -> dict[str, Any]:
        sent.append(request)
        return real(config, request)

    monkeypatch.setattr(runner, "_run", counted)
    return sent


def test_extract_answers_from_the_cache_gen_wrote(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = generated(tmp_path / "app", monkeypatch)
    sent = spy(monkeypatch)
    cached = run(root, "extract", monkeypatch=monkeypatch)
    assert cached.exit_code == 0, cached.output
    assert sent == []  # nothing changed since gen: no Node process
    fresh = run(root, "extract", "--no-cache", monkeypatch=monkeypatch)
    assert fresh.exit_code == 0, fresh.output
    assert len(sent) == 1
    assert cached.stdout == fresh.stdout


def test_init_sends_each_request_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS)
    (root / "src" / "copy.ts").write_text(COPY_TS)
    sent = spy(monkeypatch)
    done = run(root, "init", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert 'definitions = "NODE_DEFINITIONS"' in (root / "pygen.toml").read_text()
    assert len(sent) == 2  # both candidates ranked; the winner's confirmation remembered
    assert len(set(sent)) == len(sent)


def node_starts(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The extractor processes really started (any Node running a pygen script), in order."""
    started: list[list[str]] = []
    real = subprocess.Popen

    class Counted(real):  # type: ignore[valid-type,misc]
        def __init__(self, args: list[str], *rest: Any, **options: Any) -> None:
            if any(str(arg).endswith(".cjs") for arg in args):
                started.append([str(arg) for arg in args])
            super().__init__(args, *rest, **options)

    monkeypatch.setattr(subprocess, "Popen", Counted)
    return started


def test_init_confirms_its_candidates_with_one_node_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS)
    (root / "src" / "copy.ts").write_text(COPY_TS)
    sent = spy(monkeypatch)
    started = node_starts(monkeypatch)
    done = run(root, "init", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert len(sent) == 2  # two candidates, two distinct requests ...
    assert len(started) == 1 and started[0][-1] == "--serve"  # ... and one Node process
    # What init says and writes is what one process per request gave (the requests' order).
    single = tmp_path / "single"
    shutil.copytree(root / "src", single / "src")
    monkeypatch.setattr(warm, "session", contextlib.nullcontext)
    alone = run(single, "init", monkeypatch=monkeypatch)
    assert len(started) == 3 and "--serve" not in started[1] + started[2]
    assert alone.output == done.output.replace(str(root), str(single))
    assert (single / "pygen.toml").read_text() == (root / "pygen.toml").read_text()


def test_init_reads_the_sources_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS)
    (root / "src" / "copy.ts").write_text(COPY_TS)
    reads: list[tuple[Path, tuple[str, ...]]] = []
    real = scan._read_sources

    def counted(where: Path, suffixes: tuple[str, ...]) -> dict[Path, str]:
        reads.append((where, suffixes))
        return real(where, suffixes)

    monkeypatch.setattr(scan, "_read_sources", counted)
    done = run(root, "init", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert reads == [(root, scan.SOURCE_SUFFIXES)]  # the scan's; the load-step maps reuse it
    assert scan._read is None  # forgotten after the run: a later one reads the files again
