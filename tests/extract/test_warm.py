"""The session's one extractor process (pygen.extract.warm), through real Node: its replies
are a one-request process's, byte for byte; one that dies or hangs is reported as a
one-request run's would be, and the next request starts a new one."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import replace
from pathlib import Path

import pytest

from pygen.config import Config, load_config
from pygen.errors import PygenError
from pygen.extract import noderuntime, warm
from pygen.extract.runner import request_for

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"


def casts(tmp_path: Path) -> tuple[Path, Config]:
    """A copy of the `casts` fixture project and its config."""
    root = tmp_path / "casts"
    shutil.copytree(CORPUS / "casts", root)
    shutil.copy(CORPUS / "tsconfig.json", tmp_path / "tsconfig.json")
    return root, load_config(root / "pygen.toml")


def test_served_replies_are_those_of_one_process_each(tmp_path: Path) -> None:
    root, config = casts(tmp_path)
    script = noderuntime.extractor()
    requests = [json.dumps(request_for(config)), json.dumps({**request_for(config),
                                                             "definitions": ["NOPE"]})]
    alone = [warm.run(script, r, 60, root) for r in requests]
    with warm.session():
        served = [warm.run(script, r, 60, root) for r in requests * 2]
    assert [d.stdout for d in served] == [d.stdout for d in alone] * 2
    assert json.loads(served[0].stdout)["ok"] and not json.loads(served[1].stdout)["ok"]


def test_a_file_edited_between_requests_is_parsed_again(tmp_path: Path) -> None:
    root, config = casts(tmp_path)
    script = noderuntime.extractor()
    request = json.dumps(request_for(config))
    params = root / "src" / "models" / "params.ts"
    with warm.session():
        before = warm.run(script, request, 60, root)
        params.write_text(params.read_text().replace("export interface DiffusionParams {",
                                                     "export interface DiffusionParams {\n"
                                                     "  added: string;"))
        after = warm.run(script, request, 60, root)
    assert after.stdout == warm.run(script, request, 60, root).stdout  # as one process reads
    assert after.stdout != before.stdout and '"added"' in after.stdout


def fake(tmp_path: Path, body: str) -> noderuntime.NodeScript:
    """The real Node running a stand-in script (it dies, or never answers)."""
    path = tmp_path / "fake.cjs"
    path.write_text(body)
    return replace(noderuntime.extractor(), script=path)


def test_a_process_that_dies_is_reported_with_its_exit_and_stderr(tmp_path: Path) -> None:
    script = fake(tmp_path, 'require("readline").createInterface({ input: process.stdin })'
                            '.on("line", () => { process.stderr.write("boom"); '
                            'process.exit(7); });\n')
    with warm.session():
        first = warm.run(script, "{}", 30, tmp_path)
        again = warm.run(script, "{}", 30, tmp_path)  # a new process answers
    assert (first.code, first.stdout, first.stderr) == (7, "", "boom")
    assert (again.code, again.stderr) == (7, "boom")


def test_a_process_that_hangs_times_out_as_one_request_would(tmp_path: Path) -> None:
    script = fake(tmp_path, "setInterval(() => {}, 1000);\n")
    with warm.session(), pytest.raises(PygenError, match=r"timed out after 0\.5s") as raised:
        warm.run(script, "{}", 0.5, tmp_path)
    assert "--serve" not in str(raised.value)  # the command a one-request run shows


def test_a_session_left_by_an_error_kills_its_process(tmp_path: Path) -> None:
    # Answers a line, and would then keep running after its input ends.
    script = fake(tmp_path, 'require("readline").createInterface({ input: process.stdin })'
                            '.on("line", () => process.stdout.write("{}\\n"));\n'
                            "setInterval(() => {}, 1000);\n")
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), warm.session():
        assert warm.run(script, "{}", 30, tmp_path).stdout == "{}"
        server = warm._active[0] if warm._active else None
        raise KeyboardInterrupt
    assert server is not None and server.process.returncode is not None
    assert time.monotonic() - started < 5  # killed, not waited for
