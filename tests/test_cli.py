"""The CLI's error boundary: a PygenError is one line, anything else one line naming it as a
bug, and a dependency missing from an old install one line saying how to mend it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from packaging_helpers import NODES_TS

# A pygen installed before a dependency was added: the package is gone.
WITHOUT_RAPIDFUZZ = """
import sys
sys.modules["rapidfuzz"] = None
from pygen.cli import main
sys.argv = ["pygen", *sys.argv[1:]]
main()
"""


def test_a_dependency_missing_from_the_install_is_one_line_saying_how_to_mend_it(
        tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "nodes.ts").write_text(NODES_TS, encoding="utf-8")
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYGEN_")}
    done = subprocess.run([sys.executable, "-c", WITHOUT_RAPIDFUZZ, "gen"], cwd=tmp_path,
                          env=env, text=True, capture_output=True, timeout=300, check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("error: the package 'rapidfuzz' pygen needs is not installed")
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_crash_exits_3_with_one_line_naming_its_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug is not a config error (2): exit 3, and the traceback in a Markdown file."""
    import tempfile

    from click.testing import CliRunner

    from pygen.cli import main

    def boom(_file: str) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr("pygen.commands.validate_workflow.read_workflow", boom)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, ["validate-workflow", "x.json"])
    assert result.exit_code == 3
    [line] = result.stderr.splitlines()
    [report] = tmp_path.glob("pygen-crash-*.md")
    assert line == (f"internal error: RuntimeError: boom (the report is in {report}; "
                    "please attach it to a bug report)")
    text = report.read_text(encoding="utf-8")
    assert text.startswith("# pygen crash report") and 'raise RuntimeError("boom")' in text


@pytest.mark.parametrize(("typed", "said"), [
    ("chek", "No such command 'chek' (did you mean 'check'?)."),
    ("valdate-workflow", "No such command 'valdate-workflow' (did you mean "
                         "'validate-workflow'?)."),
    ("zzz", "No such command 'zzz'."),
])
def test_an_unknown_command_names_the_nearest(typed: str, said: str) -> None:
    from click.testing import CliRunner

    from pygen.cli import main

    result = CliRunner().invoke(main, [typed])
    assert result.exit_code == 2 and result.stderr.splitlines()[-1] == f"Error: {said}"


# The real entry point in its own process, with one function replaced by a bug: what a user
# whose run hits a pygen bug sees on the terminal and finds in the report.
WITH_A_BUG = """
import sys
import pygen.commands.validate_workflow as command
def read_workflow(_file):
    raise RuntimeError("boom")
command.read_workflow = read_workflow
from pygen.cli import main
sys.argv = ["pygen", *sys.argv[1:]]
main()
"""


def _process(tmp_path: Path, *argv: str, script: str | None = None
             ) -> subprocess.CompletedProcess[str]:
    """pygen run as a user runs it, in tmp_path, its temp folder (where reports go) inside."""
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PYGEN_")},
           "TMPDIR": str(temp)}
    head = [sys.executable, "-c", script] if script else [sys.executable, "-m", "pygen"]
    return subprocess.run([*head, *argv], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=300, check=False)


def test_a_crash_of_the_real_cli_exits_3_naming_a_report_that_holds_the_traceback(
        tmp_path: Path) -> None:
    done = _process(tmp_path, "validate-workflow", "x.json", script=WITH_A_BUG)
    assert done.returncode == 3, done.stderr
    [report] = (tmp_path / "tmp").glob("pygen-crash-*.md")
    assert done.stderr.splitlines() == [
        f"internal error: RuntimeError: boom (the report is in {report}; please attach it to "
        "a bug report)"]
    text = report.read_text(encoding="utf-8")
    assert "- command: `pygen validate-workflow x.json`" in text
    assert "Traceback (most recent call last)" in text
    assert 'in read_workflow\nRuntimeError: boom\n```' in text


def test_a_config_error_of_the_real_cli_stays_2_and_writes_no_report(tmp_path: Path) -> None:
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\nextract_timeout = "x"\n',
                                         encoding="utf-8")
    done = _process(tmp_path, "gen")
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("error: ") and "pygen.toml" in line and "extract_timeout" in line
    assert not list((tmp_path / "tmp").glob("pygen-crash-*"))


def test_an_unknown_command_of_the_real_cli_names_the_nearest(tmp_path: Path) -> None:
    done = _process(tmp_path, "chek")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "Error: No such command 'chek' (did you mean 'check'?)."
    assert "Traceback" not in done.stderr and not list((tmp_path / "tmp").glob("pygen-crash-*"))
