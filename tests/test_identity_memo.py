"""A value is built once per live object, by identity, and forgotten with the object."""

from __future__ import annotations

import gc

from pygen.identity_memo import IdentityMemo


class Unhashable:
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, value: int) -> None:
        self.value = value


def test_built_once_per_object_and_dropped_with_it() -> None:
    calls: list[int] = []

    def build(obj: Unhashable) -> int:
        calls.append(obj.value)
        return obj.value * 2

    memo: IdentityMemo[Unhashable, int] = IdentityMemo(build)
    first, equal = Unhashable(3), Unhashable(3)
    assert memo(first) == memo(first) == 6 and calls == [3]
    assert memo(equal) == 6 and calls == [3, 3]  # an equal object is another object
    del first, equal
    gc.collect()
    assert len(memo) == 0
    again = Unhashable(4)
    assert memo(again) == 8 and calls == [3, 3, 4]
