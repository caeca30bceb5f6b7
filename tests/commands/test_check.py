"""`pygen check` as a process: the one error boundary gives exit 2 and one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_cli_as_a_process_exits_2_with_one_line_on_a_missing_nodes_file(tmp_path: Path) -> None:
    (tmp_path / "pygen.toml").write_text('nodes_file = "missing.ts"\n')
    done = subprocess.run([sys.executable, "-m", "pygen", "check"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'missing.ts'}: nodes_file not found; fix nodes_file in "
        f"{tmp_path / 'pygen.toml'}"]
    assert done.stdout == ""
