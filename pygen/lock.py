"""One lock per skills_dir, so two writing runs never interleave their files.

The lock is an advisory `flock` on a file in the system temp folder keyed by the folder's real
path: the kernel releases it when its holder dies (even by `kill -9`), and nothing is ever
created inside skills_dir for `git add` to pick up. The file holds who has it, so a second run
can say whom it waits for.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from pygen.errors import PygenError

POLL_SECONDS = 0.1
SAY_AFTER = 1.0


class LockError(PygenError):
    pass


def lock_path(skills_dir: Path) -> Path:
    key = hashlib.sha256(str(skills_dir.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"pygen-{key}.lock"


@contextlib.contextmanager
def hold(skills_dir: Path, timeout: float,
         on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the skills_dir lock; wait up to `timeout` seconds, saying once whom for."""
    path = lock_path(skills_dir)
    try:
        # O_NOFOLLOW: a link planted at this name in a shared temp folder is never written.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        raise LockError(f"{path}: cannot open the lock for {skills_dir} ({exc.strerror})") from None
    try:
        _acquire(fd, skills_dir, timeout, on_wait)
        os.ftruncate(fd, 0)
        os.pwrite(fd, _me().encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _acquire(fd: int, skills_dir: Path, timeout: float,
             on_wait: Callable[[str], None] | None) -> None:
    """Take the lock, polling until the deadline. A wait is said once: after a second while
    it lasts, or when it ends if it was shorter; a quick failure stays one line."""
    start = time.monotonic()
    holder = ""
    said = on_wait is None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            holder = _holder(fd)
        waited = time.monotonic() - start
        if waited >= timeout:
            raise LockError(f"{skills_dir}: another pygen run ({holder}) is writing it and "
                            f"still held the lock after {timeout:g} s; run again when it "
                            "ends (or raise lock_timeout)")
        if not said and waited >= SAY_AFTER and on_wait is not None:
            on_wait(f"{skills_dir}: waiting up to {timeout:g} s for another pygen run "
                    f"({holder}) to finish writing it")
            said = True
        time.sleep(POLL_SECONDS)
    if holder and not said and on_wait is not None:
        on_wait(f"{skills_dir}: waited {time.monotonic() - start:.1f} s for another pygen run "
                f"({holder}) to finish writing it")


def _holder(fd: int) -> str:
    text = os.pread(fd, 400, 0).decode("utf-8", errors="replace").strip()
    return text or "holder unknown"


def _me() -> str:
    command = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:3]))
    return f"pid {os.getpid()}, `{command}`, since {time.strftime('%H:%M:%S')}"
