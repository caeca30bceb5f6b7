"""One lock per skills_dir, so two writing runs never interleave their files.

The lock is `filelock`'s: an OS lock (flock on POSIX, LockFileEx on Windows) on a file in the
system temp folder keyed by the folder's real path. The OS releases it when its holder dies
(even by `kill -9`), and nothing is ever created inside skills_dir for `git add` to pick up.
Who holds it is written to a file beside the lock, because on Windows a locked file cannot be
read by the run that waits for it; so a second run can say whom it waits for.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import filelock

from pygen.errors import PygenError

POLL_SECONDS = 0.1
SAY_AFTER = 1.0
# O_NOFOLLOW: a link planted at these names in a shared temp folder is never written.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class LockError(PygenError):
    pass


def lock_path(skills_dir: Path) -> Path:
    key = hashlib.sha256(str(skills_dir.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"pygen-{key}.lock"


def holder_path(skills_dir: Path) -> Path:
    return lock_path(skills_dir).with_suffix(".holder")


@contextlib.contextmanager
def hold(skills_dir: Path, timeout: float,
         on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the skills_dir lock; wait up to `timeout` seconds, saying once whom for."""
    path = lock_path(skills_dir)
    if path.is_symlink():
        raise LockError(f"{path}: cannot open the lock for {skills_dir} (it is a symbolic "
                        "link); remove it and run again")
    os_lock = filelock.FileLock(str(path), mode=0o666)
    try:
        _acquire(os_lock, skills_dir, timeout, on_wait)
    except OSError as exc:
        raise LockError(f"{path}: cannot open the lock for {skills_dir} ({exc.strerror})") from None
    try:
        try:
            _write_holder(skills_dir, _me())
        except OSError as exc:
            raise LockError(f"{holder_path(skills_dir)}: cannot write who holds the lock for "
                            f"{skills_dir} ({exc.strerror}); remove it and run again") from None
        yield
    finally:
        with contextlib.suppress(OSError):
            _write_holder(skills_dir, "")
        os_lock.release()


def _acquire(os_lock: filelock.BaseFileLock, skills_dir: Path, timeout: float,
             on_wait: Callable[[str], None] | None) -> None:
    """Take the lock, polling until the deadline. A wait is said once: after a second while
    it lasts, or when it ends if it was shorter; a quick failure stays one line."""
    start = time.monotonic()
    holder = ""
    said = on_wait is None
    while True:
        try:
            os_lock.acquire(timeout=0)
            break
        except filelock.Timeout:
            holder = _holder(skills_dir)
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


def _write_holder(skills_dir: Path, text: str) -> None:
    fd = os.open(holder_path(skills_dir), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW,
                 0o666)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode())


def _holder(skills_dir: Path) -> str:
    try:
        fd = os.open(holder_path(skills_dir), os.O_RDONLY | _NOFOLLOW)
        with os.fdopen(fd, "rb") as handle:
            text = handle.read(400).decode("utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text or "holder unknown"


def _me() -> str:
    command = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:3]))
    return f"pid {os.getpid()}, `{command}`, since {time.strftime('%H:%M:%S')}"
