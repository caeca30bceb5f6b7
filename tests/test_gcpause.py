"""The collector is paused for the block and restored after it, also when the block fails."""

from __future__ import annotations

import gc
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
