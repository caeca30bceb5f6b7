"""The one shape of every memo under `.pygen-cache/`: inputs → digest → entry.

A memo file holds, under its own key (pygen's code and whatever else every entry rests on),
named sections mapping a digest of an entry's inputs to the entry. A run reads the sections
once (`MemoFile.open`, `section`), looks entries up by the digest it computes, keeps the
entries it used, and writes the file back only when what it kept differs from what it read,
so a memo never outgrows this run's inputs. A stored entry that does not have its section's
shape is left out, as a damaged or foreign file is (pygen.extract.cachefile); a memo is
only ever a saving of time, so nothing here fails a run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pygen.extract import cachefile

E = TypeVar("E")


def _as_is(entry: Any) -> Any:
    return entry


@dataclass
class Section(Generic[E]):
    """One named map of a memo file: the entries read at the start of the run and those this
    run keeps for the next."""

    name: str
    dump: Callable[[E], Any] = _as_is
    read: dict[str, E] = field(default_factory=dict)
    kept: dict[str, E] = field(default_factory=dict)

    def changed(self) -> bool:
        return self.kept != self.read

    def payload(self) -> dict[str, Any]:
        return {digest: self.dump(entry) for digest, entry in sorted(self.kept.items())}


@dataclass
class MemoFile:
    """A memo file and what it held under this run's key (None: nothing usable, or no file:
    a memo that remembers nothing)."""

    path: Path | None
    key: str = ""
    stored: dict[str, Any] | None = None

    @classmethod
    def open(cls, path: Path, key: str) -> MemoFile:
        return cls(path, key, cachefile.read_entry(path, key))

    def section(self, name: str, parse: Callable[[Any], E | None],
                dump: Callable[[E], Any] = _as_is) -> Section[E]:
        """The section's well-formed entries, each read by `parse` (None: left out)."""
        raw = self.stored.get(name) if self.stored else None
        read: dict[str, E] = {}
        for digest, value in (raw.items() if isinstance(raw, dict) else ()):
            entry = parse(value)
            if entry is not None:
                read[str(digest)] = entry
        return Section(name, dump, read)

    def save(self, *sections: Section[Any]) -> None:
        """Write every section when one of them changed; without a path, nothing."""
        if self.path is not None and any(s.changed() for s in sections):
            cachefile.write_entry(self.path, {"key": self.key, **{
                s.name: s.payload() for s in sections}})
