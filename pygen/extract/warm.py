"""One extractor process for a whole session: `pygen init` confirms several candidates, and a
Node process per candidate loaded TypeScript again and ran its checker cold each time. Within
`session()`, requests go to one `extract.cjs --serve` process (one request line in, one reply
line out), which answers each as a fresh process would (js/lib/extractor.cjs forgets what an
earlier run read). Outside a session every request starts its own process, as before.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pygen import proc
from pygen.errors import PygenError
from pygen.extract import noderuntime

# The serving process collects each finished run's program before the next one is built, so
# its peak memory is that of its largest run.
_SERVE_FLAGS = ("--expose-gc",)


class _Server:
    """A running `extract.cjs --serve`; its stderr goes to a file (a pipe nobody reads while
    it runs could fill and stop it), read when it dies."""

    def __init__(self, script: noderuntime.NodeScript, cwd: Path) -> None:
        self.key = (script, cwd)
        # What a timeout names: the command a one-request run would have shown.
        self.shown = shlex.join(noderuntime.node_command(script))
        self.stderr: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed by close())
        command = [str(script.node), *noderuntime.NODE_FLAGS, *_SERVE_FLAGS,
                   str(script.script), "--serve"]
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                text=True, encoding="utf-8", cwd=cwd, env=noderuntime.node_env(script))
        except OSError:
            self.stderr.close()
            raise
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)  # the process ended

    def ask(self, request: str, timeout: float) -> proc.Completed:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(request.replace("\n", " ") + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it died: the reader says so
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.close(kill=True)
            raise PygenError(f"`{self.shown}` timed out after {timeout:g}s") from None
        if line is None or not line.endswith("\n"):
            return self._ended(line or "")
        return proc.Completed(0, line[:-1], "")

    def _ended(self, stdout: str) -> proc.Completed:
        """What a one-request run would have returned: its output, exit code and stderr."""
        code = self.process.wait()
        self.stderr.seek(0)
        stderr = self.stderr.read()
        self.close()
        return proc.Completed(code, stdout, stderr)

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self, kill: bool = False) -> None:
        """Ends the process: at the end of its input (it exits), or killed."""
        if kill:
            self.process.kill()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


# Within `session()`: the serving process, once a request started it (None: not yet).
_active: list[_Server | None] | None = None


@contextlib.contextmanager
def session() -> Iterator[None]:
    """Within it, extractor requests go to one long-running process (per script and folder)."""
    global _active
    outer, _active = _active, [None] if _active is None else _active
    failed = False
    try:
        yield
    except BaseException:
        failed = True  # Ctrl-C or an error: the process is killed, not waited for
        raise
    finally:
        if outer is None and _active is not None and _active[0] is not None:
            _active[0].close(kill=failed)
        _active = outer


def run(script: noderuntime.NodeScript, request: str, timeout: float,
        cwd: Path) -> proc.Completed:
    """One request to the extractor: to the session's process when a session is open, else
    to a process of its own."""
    if _active is None:
        return proc.run(noderuntime.node_command(script), input=request, timeout=timeout,
                        cwd=cwd, env=noderuntime.node_env(script))
    server = _active[0]
    if server is None or server.key != (script, cwd) or not server.alive():
        if server is not None:
            server.close()
        try:
            server = _Server(script, cwd)
        except FileNotFoundError:
            raise PygenError(f"executable `{script.node}` not found") from None
        except PermissionError:
            raise PygenError(f"executable `{script.node}` is not executable") from None
        _active[0] = server
    return server.ask(request, timeout)
