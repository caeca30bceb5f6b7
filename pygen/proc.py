"""The one subprocess wrapper: find the executable, always a timeout, return or raise."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from pygen.errors import PygenError


@dataclass(frozen=True)
class Completed:
    code: int
    stdout: str
    stderr: str


def run(cmd: Sequence[str], *, timeout: float, input: str | None = None,
        cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Completed:
    """Run cmd to completion; a missing executable or a timeout is a PygenError."""
    shown = shlex.join(cmd)
    try:
        done = subprocess.run(
            list(cmd), input=input, capture_output=True, text=True, encoding="utf-8",
            timeout=timeout, cwd=cwd, env=dict(env) if env is not None else None, check=False,
        )
    except FileNotFoundError:
        raise PygenError(f"executable `{cmd[0]}` not found") from None
    except PermissionError:
        raise PygenError(f"executable `{cmd[0]}` is not executable") from None
    except subprocess.TimeoutExpired:
        raise PygenError(f"`{shown}` timed out after {timeout:g}s") from None
    return Completed(done.returncode, done.stdout, done.stderr)


def start(cmd: Sequence[str], *, env: Mapping[str, str] | None = None) -> subprocess.Popen[str]:
    """Start cmd with pipes for stdin, stdout and stderr; `finish` completes it."""
    try:
        return subprocess.Popen(list(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                env=dict(env) if env is not None else None)
    except FileNotFoundError:
        raise PygenError(f"executable `{cmd[0]}` not found") from None
    except PermissionError:
        raise PygenError(f"executable `{cmd[0]}` is not executable") from None


def finish(process: subprocess.Popen[str], input: str, timeout: float) -> Completed:
    """Send input to a process from `start`, wait for it; a timeout kills it and raises."""
    try:
        stdout, stderr = process.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        shown = shlex.join(str(a) for a in cast("Sequence[str]", process.args))
        raise PygenError(f"`{shown}` timed out after {timeout:g}s") from None
    return Completed(process.returncode, stdout, stderr)


def indented(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines())


def environ(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}
