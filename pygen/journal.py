"""Finish or undo a set of renames a killed run left half done.

`files.write_all(..., journal=...)` writes the journal before its first rename: each target,
its staged file and that file's digest, and the copy of the file it replaces. The next
writing run calls `recover` before anything else: when every target not yet replaced still
has its staged file intact, the set is finished (the renames left are done); otherwise the
replaced targets are put back from their copies. Either way the set is whole, every staged
file and copy is gone, and so is the journal. A journal naming a file outside the places the
run may write, or not in pygen's temp-name pattern, is refused, never followed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pygen import durable, files
from pygen.errors import PygenError

# A journal lists every file of one set; no real set comes near this.
MAX_JOURNAL = 16 << 20
_TEMP = re.compile(r"^\.(?P<name>.+)\.[0-9a-f]{8}" + re.escape(files.TEMP_SUFFIX) + "$")


class JournalError(PygenError):
    """A journal pygen cannot act on: unreadable, malformed, or naming foreign paths."""


@dataclass(frozen=True)
class Entry:
    path: Path
    temp: Path
    digest: str
    old: Path | None


def journal_path(skills_dir: Path) -> Path:
    return skills_dir / files.JOURNAL


def pending(skills_dir: Path) -> Path | None:
    """The journal of an unfinished set, if one is there (for `check` to report)."""
    journal = journal_path(skills_dir)
    return journal if journal.exists() or journal.is_symlink() else None


def recover(skills_dir: Path, allowed: Callable[[Path], bool]) -> str | None:
    """Finish or undo the set the journal under skills_dir describes; what was done, in one
    line, or None when there was no journal. `allowed` says whether a target is a file this
    run may write (the one rule of pygen.skills.bounds)."""
    journal = journal_path(skills_dir)
    if not (journal.exists() or journal.is_symlink()):
        return None
    entries = _read(journal, allowed)
    finish = all(_digest(e.path) == e.digest or _digest(e.temp) == e.digest for e in entries)
    if finish:
        for entry in entries:
            if _digest(entry.path) != entry.digest:
                os.replace(entry.temp, entry.path)
        said = (f"{journal}: finished the set of {len(entries)} file(s) an interrupted "
                "`pygen gen` was replacing")
    else:
        for entry in reversed(entries):
            _put_back(entry)
        said = (f"{journal}: put back the {len(entries)} file(s) an interrupted `pygen gen` "
                "was replacing (its staged files were incomplete)")
    for folder in sorted({e.path.parent for e in entries}):
        durable.fsync_dir(folder)
    for entry in entries:
        for name in (entry.temp, entry.old):
            if name is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name)
    os.unlink(journal)
    durable.fsync_dir(journal.parent)
    return said


def _put_back(entry: Entry) -> None:
    """The target as it was: its copy restored, or a new file removed (only if it is ours)."""
    if entry.old is not None:
        if entry.old.is_file():
            os.replace(entry.old, entry.path)
    elif _digest(entry.path) == entry.digest:
        os.unlink(entry.path)


def _digest(path: Path) -> str | None:
    try:
        data = files.read_bytes(path, follow=False)
    except PygenError:
        return None
    return None if data is None else durable.digest(data)


def _read(journal: Path, allowed: Callable[[Path], bool]) -> list[Entry]:
    try:
        data = files.read_bytes(journal, MAX_JOURNAL, follow=False, what="a journal file")
        doc = json.loads(files.decode(data or b"", journal))
    except PygenError as exc:
        raise JournalError(f"{exc}; it should be pygen's journal of an interrupted run: "
                           "remove it and run `pygen gen` again") from None
    except ValueError:
        doc = None
    rows = doc.get("files") if isinstance(doc, dict) and doc.get("format") == 1 else None
    if not isinstance(rows, list):
        raise JournalError(f"{journal}: not a journal pygen wrote; remove it and run "
                           "`pygen gen` again")
    return [_entry(journal, row, allowed) for row in rows]


def _entry(journal: Path, row: object, allowed: Callable[[Path], bool]) -> Entry:
    base = journal.parent

    def refuse(why: str) -> JournalError:
        return JournalError(f"{journal}: {why}; pygen acts on no file it names: remove it "
                            "and run `pygen gen` again")

    if not isinstance(row, dict) or not isinstance(row.get("path"), str) \
            or not isinstance(row.get("temp"), str) or not isinstance(row.get("digest"), str) \
            or not isinstance(row.get("old"), str | None):
        raise refuse("an entry is malformed")
    path = Path(os.path.normpath(base / row["path"]))
    if not allowed(path):
        raise refuse(f"it names {path}, where this run does not write")
    names = [row["temp"]] + ([row["old"]] if row["old"] is not None else [])
    temps = [Path(os.path.normpath(base / name)) for name in names]
    for temp in temps:
        match = _TEMP.match(temp.name)
        if temp.parent != path.parent or match is None or match.group("name") != path.name:
            raise refuse(f"it names {temp}, which is not a staged file of {path}")
    return Entry(path, temps[0], row["digest"], temps[1] if len(temps) > 1 else None)
