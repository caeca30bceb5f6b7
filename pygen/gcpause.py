"""The cyclic garbage collector paused for one pipeline run (`gen`, `check`).

A run builds the catalog model and its skill texts: hundreds of thousands of objects that
live until the run ends and form no cycles. Each of the collector's full passes walks all
of them again, which at 2,000 nodes was two fifths of a `check`'s Python time. Reference
counting still frees everything else at once; what a run leaves in cycles is small and is
collected when the collector resumes (a `--watch` loop resumes it between runs).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside the block; the collector's state as it was after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
