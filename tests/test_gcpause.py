"""The collector is paused for the block and restored after it, also when the block fails."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from pygen import gcpause


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_paused_inside_and_enabled_after() -> None:
    with gcpause.paused():
        assert not gc.isenabled()
        with gcpause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves the outer one's pause
    assert gc.isenabled()


def test_restored_when_the_block_raises() -> None:
    with pytest.raises(ValueError), gcpause.paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    with gcpause.paused():
        pass
    assert not gc.isenabled()


def test_a_process_that_paused_freezes_what_it_left_at_exit() -> None:
    # Registered first, so it runs last: it sees what the interpreter's last collection will.
    script = ("import atexit, gc\n"
              "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
              "from pygen import gcpause\n"
              "kept = [[i] for i in range(1000)]\n"
              "with gcpause.paused():\n    pass\n"
              "print('running', gc.get_freeze_count())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["running", "0", "frozen", "True"]
