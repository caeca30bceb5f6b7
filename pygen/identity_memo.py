"""Values built once per live object, kept by the object's identity: the models pygen builds
(a node with a dict of default data) cannot be hashed. An entry goes when its object does."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """`memo(obj)`: `build(obj)` the first time `obj` is asked for while it lives."""

    def __init__(self, build: Callable[[K], V]) -> None:
        self._build = build
        self._built: dict[int, tuple[weakref.ref[K], V]] = {}

    def __call__(self, obj: K) -> V:
        built = self._built.get(id(obj))
        if built is None or built[0]() is not obj:
            return self.put(obj, self._build(obj))
        return built[1]

    def put(self, obj: K, value: V) -> V:
        """Keep `value` as what `obj` builds (built another way, from a cache say)."""
        key = id(obj)
        self._built[key] = (weakref.ref(obj, lambda _: self._built.pop(key, None)), value)
        return value

    def __len__(self) -> int:
        return len(self._built)
