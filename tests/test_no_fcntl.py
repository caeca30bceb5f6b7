"""Every pygen module imports, and a command runs, where POSIX-only modules do not exist
(Windows): the lock comes from `filelock`, never from `fcntl`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from packaging_helpers import NODES_TS

# Modules CPython ships on POSIX only; `None` in sys.modules makes their import fail.
POSIX_ONLY = ("fcntl", "termios", "grp", "resource")
# Dependencies that import a POSIX module only when sys.platform is not win32: on Windows they
# never ask for it, so they are imported before the modules go away.
PLATFORM_GUARDED = ("mcp.server.stdio",)

BLOCK = f"""
import importlib, sys
for name in {PLATFORM_GUARDED!r}:
    importlib.import_module(name)
for name in {POSIX_ONLY!r}:
    sys.modules[name] = None
"""
IMPORT_ALL = BLOCK + """import pkgutil, pygen
names = sorted(m.name for m in pkgutil.walk_packages(pygen.__path__, "pygen."))
for name in names:
    if not name.endswith("__main__"):
        importlib.import_module(name)
try:
    import fcntl  # the block holds: a module importing it would fail here too
except ImportError:
    print(len(names))
"""

RUN_CLI = BLOCK + """
from pygen.cli import main
sys.argv = ["pygen", *sys.argv[1:]]
main()
"""


def _python(code: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYGEN_")}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=300, check=False)


def test_every_module_imports_without_fcntl() -> None:
    done = _python(IMPORT_ALL)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 50


@pytest.mark.slow
def test_gen_and_check_run_without_fcntl(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "nodes.ts").write_text(NODES_TS, encoding="utf-8")
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n', encoding="utf-8")
    gen = _python(RUN_CLI, "gen", cwd=tmp_path)
    assert gen.returncode == 0, gen.stderr
    assert (tmp_path / "skills" / "workflow-editor.md").is_file()
    check = _python(RUN_CLI, "check", cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
