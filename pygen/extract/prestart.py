"""An early start for the Node extractor: a command that always extracts (`pygen extract`)
starts Node before Python has imported its modules and read the config, so that Node start-up
and loading TypeScript overlap with them; the request follows on stdin when it is known.
Light on purpose (no pydantic): the CLI imports it before anything else.
"""

from __future__ import annotations

import atexit
import subprocess
from pathlib import Path

from pygen import proc
from pygen.errors import PygenError
from pygen.extract import noderuntime

# The script, the process, and the folder it runs in (a run elsewhere starts its own).
_started: tuple[noderuntime.NodeScript, subprocess.Popen[str], Path] | None = None


def start() -> None:
    """Start the extractor now; any problem is left for the real run to report."""
    global _started
    if _started is not None:
        return
    try:
        script = noderuntime.extractor()
        process = proc.start(noderuntime.node_command(script), env=noderuntime.node_env(script))
    except (PygenError, OSError):
        return
    _started = (script, process, Path.cwd())
    atexit.register(_discard)


def take(script: noderuntime.NodeScript, cwd: Path) -> subprocess.Popen[str] | None:
    """The process started early for this script and folder (the caller's from now on)."""
    global _started
    started, _started = _started, None
    if started is None:
        return None
    if started[0] != script or started[2] != cwd or started[1].poll() is not None:
        _kill(started[1])
        return None
    return started[1]


def _discard() -> None:
    global _started
    if _started is not None:
        _kill(_started[1])
        _started = None


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate()

