"""The cache file format every memo and cache of `.pygen-cache/` shares, and what a run read.

An entry is one JSON file, written atomically and signed with the checkout's local key;
anything unreadable, partial, edited, unsigned or from another version is ignored and
rebuilt, never trusted. A cache file is read as every input is (pygen.files.read_bytes):
regular files only, non-blocking, size-capped. A run that sees an input change while it runs
(`input_changed`) stores nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pygen import files, jsonread
from pygen.errors import PygenError
from pygen.jsonread import JsonInputError

# 2: entries signed with the checkout's local key, which format 1 had not.
FORMAT = 2


def sha256_of(path: Path) -> str | None:
    try:
        data = files.read_bytes(path)
    except PygenError:
        # Not a file pygen can read: the run that needs it says why.
        return None
    return hashlib.sha256(data).hexdigest() if data is not None else None


# --- the cache file format ------------------------------------------------------------------

# An entry as write_entry writes it: this head, the payload's compact text (keys in their
# order: default data keeps its own), "}". Its MAC is an HMAC-SHA256 of the file's name and
# that text under the checkout's local key (`_local_key`), checked on the bytes read, with
# no second serialization of the payload.
_HEAD = re.compile(r'\{"format":(\d+),"mac":"([0-9a-f]{64})","payload":')
# The largest cache file read: far above the extraction of any real catalog, and a runaway
# file (or a link to a device) is refused before it costs memory.
MAX_ENTRY = 512 << 20
# The checkout's local key: random bytes, bound to the inode and change time of the file
# that holds them (see `_local_key`).
KEY_FILE = ".key"
_KEY_SIZE = 32


def _local_key(folder: Path, create: bool = False) -> bytes | None:
    """The key every entry of this cache folder is signed with, None when there is none
    (nothing cached yet, or a key file that is not pygen's).

    Caches are local: an entry is trusted only when this checkout's pygen wrote it. The key
    is random bytes in `.pygen-cache/.key` hashed with that file's device, inode and change
    time: a cache committed to the repository, restored by CI or copied from another
    checkout or machine comes with a key file of another inode and change time, which no
    one can predict, so its entries (a forged "passed" among them) are ignored and rebuilt.
    No state outside the project, and no git process on the path of a warm check."""
    path = folder / KEY_FILE
    try:
        data = files.read_bytes(path, limit=_KEY_SIZE, follow=False, what="a cache key file")
        if data is None and create:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(_KEY_SIZE))
            data = files.read_bytes(path, limit=_KEY_SIZE, follow=False)
        if data is None or len(data) != _KEY_SIZE:
            return None
        st = os.lstat(path)
    except (OSError, PygenError) as exc:
        if create:
            warn_once(f"{path}: {_reason(exc)}; the cache is not written")
        return None
    bound = f"{st.st_dev}:{st.st_ino}:{st.st_ctime_ns}".encode()
    return hashlib.sha256(data + b"\0" + bound).digest()


def _mac(key: bytes, path: Path, body: str) -> str:
    return hmac.new(key, path.name.encode() + b"\0" + body.encode("utf-8"),
                    hashlib.sha256).hexdigest()


def _reason(exc: BaseException) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


# What this process said once: a warning about a cache is worth one line per run.
_said: set[str] = set()


def warn_once(line: str) -> None:
    if line not in _said:
        _said.add(line)
        from pygen.output import err_console, visible

        err_console.print(f"warning: {visible(line)}", highlight=False, markup=False)


def read_entry(path: Path, key: str) -> dict[str, Any] | None:
    """The payload stored under `key`, or None when missing, stale, damaged, not signed by
    this checkout's key, or not a regular file (a pipe, a device, a folder: one warning, and
    the entry is rebuilt). Read as every input is (pygen.files.read_bytes): non-blocking,
    size-capped, links not followed."""
    try:
        data = files.read_bytes(path, limit=MAX_ENTRY, follow=False, what="a cache file")
    except PygenError as exc:
        warn_once(f"{path}: {_reason(exc)}: ignored, and rebuilt")
        return None
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    head = _head_of(text)
    if head is None:
        return None
    version, mac, body = head
    if version != FORMAT:
        return None
    local = _local_key(path.parent)
    if local is None or not hmac.compare_digest(mac, _mac(local, path, body)):
        # Committed, restored, copied from another checkout, or edited: a copied project
        # is common and harmless, so this is said by nothing but the rebuild.
        return None
    try:
        payload = jsonread.loads_own(body, str(path))
    except JsonInputError:
        return None
    return payload if isinstance(payload, dict) and payload.get("key") == key else None


def _head_of(text: str) -> tuple[int, str, str] | None:
    head = _HEAD.match(text)
    if head is None or not text.endswith("}"):
        return None
    return int(head.group(1)), head.group(2), text[head.end():-1]


def write_entry(path: Path, payload: dict[str, Any]) -> None:
    """Store atomically, signed with the checkout's key; a cache that cannot be written only
    costs speed. A run that saw an input change while it ran stores nothing (`unsettled`)."""
    if _unsettled:
        return
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    with contextlib.suppress(OSError, PygenError):
        ignore = path.parent / ".gitignore"
        if not ignore.exists():
            files.write_all([(ignore, "# Created by pygen: a local cache, never committed.\n*\n")])
        local = _local_key(path.parent, create=True)
        if local is None:
            return
        _clear_odd(path)
        files.write_all([(path, f'{{"format":{FORMAT},"mac":"{_mac(local, path, body)}",'
                                f'"payload":{body}}}')])


def _clear_odd(path: Path) -> None:
    """Remove what stands where a cache file goes but is not a file (a pipe, a device, a
    link, an empty folder), so the entry can be rebuilt; a folder with files stays."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        os.rmdir(path)  # OSError (not empty): the entry is not written
    else:
        os.unlink(path)


# --- what a run read, and whether it changed while the run read it ----------------------

# Paths this run saw change while it ran; once any is, the run stores nothing.
_unsettled: list[str] = []


def begin_run() -> None:
    """A new run: nothing read yet, nothing seen changing."""
    files.forget_reads()
    _unsettled.clear()


def input_changed(paths: Sequence[str]) -> None:
    """Inputs changed while this run read them: what it found describes no state of the
    files, so nothing of this run is cached; said once."""
    if not paths or _unsettled:
        _unsettled.extend(paths)
        return
    _unsettled.extend(paths)
    more = f" (and {len(paths) - 1} more)" if len(paths) > 1 else ""
    warn_once(f"{paths[0]}{more} changed while pygen read it: nothing of this run is "
              "cached; run again to check the files as they are now")


def run_unsettled() -> bool:
    """Whether this run saw an input change while it ran."""
    return bool(_unsettled)


def changed_since(recorded: Iterable[Sequence[str | None]],
                  absent: Iterable[str] = ()) -> list[str]:
    """The recorded [path, sha256] whose bytes now differ from those the run read, and the
    paths it found missing that exist now."""
    changed = [str(e[0]) for e in recorded if sha256_of(Path(str(e[0]))) != e[1]]
    return changed + [p for p in absent if os.path.lexists(p)]
