"""The one text reader and atomic writer for files pygen owns.

Reads strip a UTF-8 BOM (and writes restore it where the file had one), and refuse a symbolic
link below the folder they are given, so a link committed into skills/ never shows another
file's bytes in a diff or gets replaced by them. Writes stage every file as a temp file beside
its target (one name pattern, so an interrupted run's leftovers are found and removed), then
rename them all: an error while staging leaves every file as it was.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pygen.errors import PygenError

BOM = "\ufeff"
# Every staged file is named `.<target name>.<random>.pygen-tmp`.
TEMP_SUFFIX = ".pygen-tmp"


class LinkError(PygenError):
    """A symbolic link where pygen reads or writes its own files."""


def first_link(path: Path, within: Path | None = None) -> Path | None:
    """The outermost symbolic link among path and its folders below `within`, if any."""
    parts = [path]
    if within is not None and path.is_relative_to(within):
        parts += [p for p in path.parents if p.is_relative_to(within) and p != within]
    return next((part for part in reversed(parts) if part.is_symlink()), None)


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
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PygenError(f"{path}: cannot read ({exc.strerror})") from None
    return decode(data, path)


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


def write_all(files: Iterable[tuple[Path, str]], within: Path | None = None) -> None:
    """Stage every file beside its target, then rename them all into place.

    An error while staging (a full disk, a folder that cannot be created) removes the
    staged files and changes nothing; the error names the file and the OS reason.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in files:
            refuse_links(path, within)
            staged.append((_stage(path, text), path))
    except BaseException:
        _discard(staged)
        raise
    for index, (temp, path) in enumerate(staged):
        try:
            os.replace(temp, path)
        except OSError as exc:
            _discard(staged[index:])
            raise PygenError(f"{path}: cannot replace ({exc.strerror}); "
                             f"{index} file(s) before it were written") from None


def _stage(path: Path, text: str) -> str:
    temp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        old = _head(path)
        keep_bom = old is not None and old.startswith(BOM.encode())
        data = BOM + text.removeprefix(BOM) if keep_bom else text
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data.encode("utf-8"))
            os.chmod(temp, path.stat().st_mode & 0o7777 if old is not None else 0o644)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise PygenError(f"{path}: cannot write ({exc.strerror}); no file was changed") from None
    return temp


def _head(path: Path) -> bytes | None:
    """The first bytes of the file being replaced, None when it is new."""
    try:
        with path.open("rb") as handle:
            return handle.read(3)
    except FileNotFoundError:
        return None


def _discard(staged: list[tuple[str, Path]]) -> None:
    for temp, _ in staged:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def stale_temps(root: Path) -> list[Path]:
    """Temp files an interrupted run left under root, sorted; links are not followed."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        found += [Path(folder) / n for n in sorted(names) if n.endswith(TEMP_SUFFIX)]
    return found


def remove_stale_temps(root: Path) -> list[Path]:
    """Remove the temp files an interrupted run left (call it holding the lock)."""
    removed = stale_temps(root)
    for temp in removed:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
    return removed

