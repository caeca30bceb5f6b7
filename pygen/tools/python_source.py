"""`python:<module>:<attr>` tool sources: the server object's tools, captured in a child
process (capture.py) that is killed with its process group when `tool_timeout` passes; the
message says whether the import or the listing was still running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from pygen import jsonread
from pygen.errors import ToolSchemaError
from pygen.output import excerpt
from pygen.tools.source_entry import DOTTED, RawTools, stderr_tail

CAPTURE_SCRIPT = Path(__file__).resolve().parent / "capture.py"


def load(rest: str, root: Path, timeout: float, source: str) -> RawTools:
    module, _, attr = rest.partition(":")
    module, attr = module.strip(), attr.strip()
    if not DOTTED.match(module) or not DOTTED.match(attr):
        raise ToolSchemaError(f"tools entry '{source}': write python:<module>:<attr>, "
                              "e.g. python:app.server:mcp")
    command = [sys.executable, "-P", str(CAPTURE_SCRIPT), str(root), module, attr]
    try:
        code, out, err = _run(command, root, timeout, _capture_env())
    except subprocess.TimeoutExpired as exc:
        raise ToolSchemaError(_python_timeout(source, module, attr, exc, timeout)) from None
    messages = _messages(out)
    final = messages[-1] if messages else {}
    if "error" in final:
        raise ToolSchemaError(f"{source}: {excerpt(str(final['error']))}")
    if code != 0 or "tools" not in final:
        raise ToolSchemaError(f"{source}: capturing the tools failed (exit code {code})"
                              f"{stderr_tail(err)}")
    tools: RawTools = final["tools"]
    return tools


def _python_timeout(source: str, module: str, attr: str, exc: subprocess.TimeoutExpired,
                    timeout: float) -> str:
    imported = any(m.get("stage") == "imported" for m in _messages(_text(exc.stdout)))
    if imported:
        return (f"{source}: listing the tools of {module}:{attr} did not finish within "
                f"{timeout:g}s (tool_timeout)")
    return (f"{source}: importing {module} did not finish within {timeout:g}s (tool_timeout); "
            "does it block at import time, e.g. connecting to a service?")


def _capture_env() -> dict[str, str]:
    # Reading schemas must leave the project as it was: no __pycache__ left behind.
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def _run(command: list[str], cwd: Path, timeout: float,
         env: dict[str, str]) -> tuple[int, str, str]:
    """Run with a timeout; on timeout kill the whole process group, children included.

    Not pygen.proc.run: the timeout message needs the output read so far (did the import
    finish?), and a module may have started processes of its own.
    """
    with subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, encoding="utf-8",
                          errors="replace", start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            _kill_group(process)
            try:
                out, err = process.communicate(timeout=2)
            except subprocess.TimeoutExpired:
                # A grandchild that left the group still holds the pipes; what was read is enough.
                out, err = _text(exc.stdout), _text(exc.stderr)
            raise subprocess.TimeoutExpired(command, timeout, out, err) from exc
    return process.returncode, out, err


def _kill_group(process: subprocess.Popen[str]) -> None:
    if sys.platform == "win32":
        process.kill()
    else:
        os.killpg(process.pid, signal.SIGKILL)


def _messages(out: str) -> list[dict[str, Any]]:
    messages = []
    for line in out.splitlines():
        try:
            message = jsonread.loads(line, "a stdio message")
        except jsonread.JsonInputError:
            continue
        if isinstance(message, dict):
            messages.append(message)
    return messages


def _text(data: str | bytes | None) -> str:
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data or ""
