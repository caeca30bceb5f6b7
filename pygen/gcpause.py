"""The cyclic garbage collector paused for one pipeline run (`gen`, `check`).

A run builds the catalog model and its skill texts: hundreds of thousands of objects that
live until the run ends and form no cycles. Each of the collector's full passes walks all
of them again, which at 2,000 nodes was two fifths of a `check`'s Python time. Reference
counting still frees everything else at once; what a run leaves in cycles is small and is
collected when the collector resumes (a `--watch` loop resumes it between runs).

At exit, the interpreter's last collection would walk every object the run left once more
(half a second of a touched `check` at 2,000 nodes): a process that ran a pipeline freezes
them first, at exit only, so a long-lived one (`--watch`, tests) still collects its cycles.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

_freezes_at_exit: list[bool] = []


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside the block; the collector's state as it was after it."""
    if not _freezes_at_exit:
        atexit.register(gc.freeze)
        _freezes_at_exit.append(True)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
