"""The one text reader and atomic writer for files pygen owns.

Reads strip a UTF-8 BOM (and writes restore it where the file had one), and refuse a symbolic
link below the folder they are given, so a link committed into skills/ never shows another
file's bytes in a diff or gets replaced by them. Writes stage every file as a temp file beside
its target (one name pattern, so an interrupted run's leftovers are found and removed), then
rename them all: an error while staging leaves every file as it was. A set written with a
journal (pygen.journal) is also finished or undone by the next run after a kill mid-rename.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import stat
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen.durable import digest, fsync_dir, write_synced
from pygen.errors import PygenError

BOM = "\ufeff"
# The most pygen reads of one input file: far above any real one, far below a runaway.
MAX_READ = 64 << 20
# Every staged file is named `.<target name>.<random>.pygen-tmp`.
TEMP_SUFFIX = ".pygen-tmp"
# The rename phase's journal, in the folder of the set's lock (pygen.journal reads it).
JOURNAL = ".pygen-journal.json"


# The sha256 of the bytes each file was last read as (read_bytes), by absolute path: the
# memos record what a run read, not a hash taken again after it (pygen.extract.cache).
_read_digests: dict[str, str] = {}


def read_digest(path: Path | str) -> str | None:
    """The sha256 of `path`'s bytes as this process last read them, None if it did not."""
    return _read_digests.get(os.path.abspath(path))


def forget_reads() -> None:
    """Start a new run's record of what it read."""
    _read_digests.clear()


class LinkError(PygenError):
    """A symbolic link where pygen reads or writes its own files."""


def first_link(path: Path, within: Path | None = None) -> Path | None:
    """The outermost symbolic link among path and its folders below `within`, if any."""
    if within is None or path == within or not path.is_relative_to(within):
        return path if path.is_symlink() else None
    current = within
    for name in path.relative_to(within).parts:  # outermost first
        current = current / name
        if current.is_symlink():
            return current
    return None


def refuse_links(path: Path, within: Path | None = None) -> None:
    """Fail naming the first symbolic link among path and its folders below `within`."""
    link = first_link(path, within)
    if link is not None:
        raise _link_error(link)


def links_below(root: Path) -> list[Path]:
    """Every symbolic link under root, sorted; none is followed."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        found += [Path(folder) / n for n in sorted(dirs + names)
                  if (Path(folder) / n).is_symlink()]
    return found


def refuse_links_below(root: Path) -> None:
    """Fail naming the first symbolic link anywhere under root."""
    links = links_below(root)
    if links:
        raise _link_error(links[0])


def link_refusal(link: Path) -> str:
    """The one line that refuses a link, for callers that skip it instead of failing."""
    return str(_link_error(link))


def _link_error(link: Path) -> LinkError:
    return LinkError(f"{link}: is a symbolic link (to {os.readlink(link)}); pygen does not "
                     "follow links among the files it owns: replace it with a regular file "
                     "or folder")


def read_text(path: Path, within: Path | None = None) -> str | None:
    """A file's text without a BOM, line endings intact; None when it does not exist."""
    refuse_links(path, within)
    data = read_bytes(path, follow=False)
    return None if data is None else decode(data, path)


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))
    if stat.S_ISREG(mode):
        return None
    return next((word for test, word in kinds if test(mode)), "not a regular file")


def check_regular(path: Path, what: str = "a regular file") -> None:
    """Fail in one line when an existing path is not a regular file (a missing one passes)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    kind = kind_of(mode)
    if kind is not None:
        raise PygenError(f"{path}: is {kind}; expected {what}")


def read_bytes(path: Path | str, limit: int = MAX_READ, follow: bool = True,
               what: str = "a regular file") -> bytes | None:
    """A regular file's bytes, None when it does not exist. A folder, pipe or device is one
    line naming it (a pipe would block forever, a device never end), and so is a file
    larger than `limit` bytes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    flags |= 0 if follow else getattr(os, "O_NOFOLLOW", 0)
    try:
        check_regular(Path(path), what)
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PygenError(f"{path}: cannot read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        # Checked again on what was opened: the path may have been swapped meanwhile.
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise PygenError(f"{path}: is {kind}; expected {what}")
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise PygenError(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise PygenError(f"{path}: larger than {limit // (1 << 20)} MB; pygen reads no input "
                         "that large")
    _read_digests[os.path.abspath(path)] = hashlib.sha256(data).hexdigest()
    return data


def decode(data: bytes, path: Path | str) -> str:
    """UTF-8 text without its BOM, or one line naming the file, line and byte."""
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PygenError(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                         "save the file as UTF-8") from None


def read(path: Path) -> str:
    """A file that must exist, as read_text reads it: exact text or a one-line error."""
    text = read_text(path)
    if text is None:
        raise PygenError(f"{path}: cannot read (No such file or directory)")
    return text


def parse_toml(data: bytes, path: Path) -> dict[str, Any]:
    """A TOML document's table, or one line naming the file: not UTF-8, invalid, too deep."""
    try:
        return tomllib.loads(decode(data, path))
    except tomllib.TOMLDecodeError as exc:
        raise PygenError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        # tomllib reads nested arrays and tables recursively.
        raise PygenError(f"{path}: invalid TOML: nested too deeply") from None


def write_all(files: Iterable[tuple[Path, str]], within: Path | None = None,
              journal: Path | None = None) -> None:
    """Stage every file beside its target, then rename them all into place.

    An error while staging (a full disk, a folder that cannot be created, a target that is
    not a regular file) removes the staged files and changes nothing. A rename that fails
    puts back the files already replaced from their staged copies: the run replaces the
    whole set or leaves the old one. The error names the file and the OS reason.

    With `journal`, what was staged and what it replaces is written there (and fsynced, like
    every staged file) before the first rename and removed after the last, so a run killed
    in between is finished by the next one (pygen.journal.recover).
    """
    staged: list[Staged] = []
    try:
        for path, text in files:
            refuse_links(path, within)
            staged.append(_stage_one(path, text))
            _at("staged")
        if journal is not None and staged:
            _write_journal(journal, staged)
            _at("journal")
    except BaseException:
        _discard(staged)
        raise
    _rename_all(staged, journal)


def _rename_all(staged: list[Staged], journal: Path | None) -> None:
    """Rename every staged file into place, then drop the copies and the journal."""
    for index, item in enumerate(staged):
        try:
            _rename(item.temp, item.path)
        except OSError as exc:
            undone = _restore(staged[:index])
            _discard(staged[index:])
            _drop_journal(journal)
            raise PygenError(f"{item.path}: cannot replace ({exc.strerror}); {undone}") \
                from None
        _at("renamed")
    if journal is not None and staged:
        # The renames reach the disk before the journal that could undo them goes.
        for folder in sorted({item.path.parent for item in staged}):
            fsync_dir(folder)
    for item in staged:
        if item.old is not None:
            with contextlib.suppress(OSError):
                os.unlink(item.old)
            _at("discarded")
    _drop_journal(journal)


def _write_journal(journal: Path, staged: list[Staged]) -> None:
    """The journal: each target, its staged text and digest, and the copy of what it
    replaces; paths relative to the journal's folder, so a moved tree still recovers."""
    base = journal.parent

    def rel(name: str | Path) -> str:
        return os.path.relpath(name, base)

    entries = [{"path": rel(item.path), "temp": rel(item.temp), "digest": item.digest,
                "old": None if item.old is None else rel(item.old)} for item in staged]
    data = json.dumps({"format": 1, "files": entries}, indent=1).encode("utf-8") + b"\n"
    temp = _temp_name(journal)
    try:
        base.mkdir(parents=True, exist_ok=True)
        write_synced(temp, data)
        os.replace(temp, journal)
        fsync_dir(base)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise PygenError(f"{journal}: cannot write the journal of this run's renames "
                         f"({exc.strerror}); no file was changed") from None


def _drop_journal(journal: Path | None) -> None:
    if journal is None:
        return
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)
    _at("done")


def _at(step: str) -> None:
    """A point of the write where a kill may land; a test replaces it to snapshot the tree."""


@dataclass(frozen=True)
class Staged:
    temp: str
    path: Path
    # A copy of the file being replaced, None when the target is new.
    old: str | None
    # The sha256 of the staged bytes: what the target holds once renamed.
    digest: str = ""


# The one call that replaces a target; a test may fail it to see the set restored.
_rename = os.replace


def _stage_one(path: Path, text: str) -> Staged:
    temp, staged_digest = _stage(path, text)
    try:
        return Staged(temp, path, _keep(path), staged_digest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _keep(path: Path) -> str | None:
    """A staged copy of the file about to be replaced, to put back if a later rename fails."""
    if not path.exists():
        return None
    keep = _temp_name(path)
    try:
        shutil.copy2(path, keep, follow_symlinks=False)
        fd = os.open(keep, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(keep)
        raise PygenError(f"{path}: cannot copy before replacing it ({exc.strerror}); no file "
                         "was changed") from None
    return keep


def _restore(done: list[Staged]) -> str:
    """Put the replaced files back; what the message says about it."""
    failed: list[str] = []
    for item in reversed(done):
        try:
            if item.old is None:
                os.unlink(item.path)
            else:
                os.replace(item.old, item.path)
        except OSError as exc:
            failed.append(f"{item.path} ({exc.strerror})")
    if failed:
        return (f"{len(done) - len(failed)} file(s) before it were restored; could not "
                f"restore {', '.join(failed)}: they hold the new text")
    return (f"the {len(done)} file(s) replaced before it were restored from their staged "
            "copies: no file was changed")


def _temp_name(path: Path) -> str:
    return str(path.parent / f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def _stage(path: Path, text: str) -> tuple[str, str]:
    """The staged file's name and the digest of its bytes (written and fsynced)."""
    check_regular(path)
    temp = _temp_name(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        old = _head(path)
        keep_bom = old is not None and old.startswith(BOM.encode())
        data = (BOM + text.removeprefix(BOM) if keep_bom else text).encode("utf-8")
        write_synced(temp, data)
        try:
            os.chmod(temp, path.stat().st_mode & 0o7777 if old is not None else 0o644)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise PygenError(f"{path}: cannot write ({exc.strerror}); no file was changed") from None
    return temp, digest(data)


def _head(path: Path) -> bytes | None:
    """The first bytes of the file being replaced, None when it is new."""
    try:
        with path.open("rb") as handle:
            return handle.read(3)
    except FileNotFoundError:
        return None


def _discard(staged: list[Staged], temps: bool = True) -> None:
    """Remove staged files: the new texts (unless `temps` is False) and the kept copies."""
    for item in staged:
        for name in ((item.temp,) if temps else ()) + ((item.old,) if item.old else ()):
            with contextlib.suppress(OSError):
                os.unlink(name)


def stale_temps(root: Path) -> list[Path]:
    """Temp files an interrupted run left under root, sorted; links are not followed."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        found += [Path(folder) / n for n in sorted(names) if n.endswith(TEMP_SUFFIX)]
    return found

