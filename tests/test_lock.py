"""One lock per skills_dir: a second holder waits, bounded, and names the first."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pygen import lock


def _hold_in_child(skills: Path, seconds: float) -> subprocess.Popen[str]:
    code = ("import sys, time; from pathlib import Path; from pygen import lock\n"
            "with lock.hold(Path(sys.argv[1]), 5):\n"
            "    print('held', flush=True); time.sleep(float(sys.argv[2]))\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(skills), str(seconds)],
                             stdout=subprocess.PIPE, text=True, env={**os.environ})
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


def test_a_second_holder_fails_after_the_timeout_naming_the_first(tmp_path: Path) -> None:
    child = _hold_in_child(tmp_path, 30)
    try:
        with pytest.raises(lock.LockError) as info, lock.hold(tmp_path, 0.3):
            pass
        assert f"pid {child.pid}" in str(info.value) and "after 0.3 s" in str(info.value)
    finally:
        child.kill()
        child.wait()


def test_a_second_holder_waits_and_says_so(tmp_path: Path) -> None:
    child = _hold_in_child(tmp_path, 1.5)
    said: list[str] = []
    start = time.monotonic()
    with lock.hold(tmp_path, 10, said.append):
        assert time.monotonic() - start > 1.2
    child.wait()
    assert len(said) == 1 and f"pid {child.pid}" in said[0] and "waiting up to 10 s" in said[0]


def test_a_killed_holder_releases_the_lock(tmp_path: Path) -> None:
    child = _hold_in_child(tmp_path, 30)
    child.kill()
    child.wait()
    with lock.hold(tmp_path, 0):
        pass


def test_a_short_wait_is_said_when_it_ends(tmp_path: Path) -> None:
    child = _hold_in_child(tmp_path, 0.3)
    said: list[str] = []
    with lock.hold(tmp_path, 10, said.append):
        pass
    child.wait()
    assert len(said) == 1 and said[0].startswith(f"{tmp_path}: waited ")
    assert f"pid {child.pid}" in said[0]


def test_a_link_planted_at_the_lock_name_is_refused_not_written(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    skills = tmp_path / "skills"
    lock.lock_path(skills).unlink(missing_ok=True)
    lock.lock_path(skills).symlink_to(victim)
    try:
        with pytest.raises(lock.LockError, match="cannot open the lock"), lock.hold(skills, 1):
            pass
    finally:
        lock.lock_path(skills).unlink()
    assert victim.read_text() == "keep me\n"
