"""What a long run is doing, on stderr: a spinner on a terminal, lines with --verbose.

On a terminal the status appears only once a run has taken a second, so quick runs print
nothing extra, and it is erased when the run ends. Elsewhere (CI logs, pre-commit, pipes) a
run stays silent unless --verbose asks for one line per step. stdout is never touched, so
`--json` output stays parseable.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.status import Status

from pygen.output import err_console, safe

# Seconds a run goes quiet before the spinner shows.
DELAY = 1.0


class Progress:
    """Says which step a run is on; a no-op when nothing is to be shown."""

    def __init__(self, live: bool, lines: bool) -> None:
        self._lines = lines
        self._status: Status | None = None
        self._text = ""
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._started = time.monotonic()
        if live:
            self._timer = threading.Timer(DELAY, self._show)
            self._timer.daemon = True
            self._timer.start()

    def step(self, text: str) -> None:
        """The step now under way (`rendering 2000 nodes`); plain text, escaped here."""
        with self._lock:
            self._text = text
            if self._status is not None:
                self._status.update(safe(text))
        if self._lines:
            elapsed = time.monotonic() - self._started
            err_console.print(f"[{elapsed:6.1f}s] {safe(text)}", highlight=False)

    def _show(self) -> None:
        with self._lock:
            if self._timer is None:  # the run ended meanwhile
                return
            self._status = Status(safe(self._text or "working"), console=err_console)
            self._status.start()

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._status is not None:
                self._status.stop()
                self._status = None


def counted(n: int, noun: str) -> str:
    """`1 node`, `2 nodes`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


@contextmanager
def progress(*, verbose: bool = False, quiet: bool = False) -> Iterator[Progress]:
    """A Progress for one run: live on a terminal, lines with verbose, else silent."""
    live = err_console.is_terminal and not quiet and not verbose
    shown = Progress(live=live, lines=verbose and not quiet)
    try:
        yield shown
    finally:
        shown.close()
