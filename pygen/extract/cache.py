"""The cache file format, and the cached extraction: an unchanged tree costs no Node process.

Every entry is one JSON file under `<config root>/.pygen-cache/`, written atomically, with a
checksum of its payload. Anything unreadable, partial, edited, or from another version is
ignored and rebuilt, never trusted. Three stages keep an entry there:

- `extract.json` (here): the extractor's reply. Its key is pygen's version, the hash of the
  Node script and of ts-morph's package.json, the node binary, and the settings; it also lists
  the sha256 of every file the extraction read (the extractor reports them; the nodes file and
  tsconfig are added for good measure), with their stats: a file whose stat is as recorded
  and that had settled when the entry began is not hashed again (`stat_trust`); any other
  is.
- `tools.json`: the tool schemas (pygen.tools.cache).
- `check.json`: the last clean `check` (pygen.gate.check_memo).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard, cast

from pydantic import ValidationError

from pygen import __version__, files, jsonread
from pygen.config import Config
from pygen.errors import ExtractionError, PygenError
from pygen.extract import incremental, noderuntime, typenames
from pygen.extract.runner import Extraction, named, parse_reply, run_extractor
from pygen.jsonread import JsonInputError

DIR = ".pygen-cache"
# 2: entries signed with the checkout's local key, which format 1 had not.
FORMAT = 2


def cache_dir(config: Config) -> Path:
    return config.root / DIR


def sha256_of(path: Path) -> str | None:
    try:
        data = files.read_bytes(path)
    except PygenError:
        # Not a file pygen can read: the run that needs it says why.
        return None
    return hashlib.sha256(data).hexdigest() if data is not None else None


def digest_json(value: Any) -> str:
    return hashlib.sha256(_canonical(value).encode("utf-8")).hexdigest()


def fingerprint(paths: Iterable[Path]) -> list[list[str | None]]:
    """[[path, sha256 or None when missing], ...] for files, sorted by path."""
    return [[str(p), sha256_of(p)] for p in sorted(set(paths))]


def fresh_shape(recorded: Any) -> TypeGuard[list[list[str | None]]]:
    """Whether `recorded` is a list of [path, sha256 or None]."""
    return isinstance(recorded, list) and all(
        isinstance(e, list) and len(e) == 2 and isinstance(e[0], str) for e in recorded)


def fresh(recorded: Any) -> bool:
    """Whether every recorded [path, sha256] still matches the file on disk."""
    if not isinstance(recorded, list):
        return False
    for entry in recorded:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            return False
        if sha256_of(Path(entry[0])) != entry[1]:
            return False
    return True


# --- the cache file format ------------------------------------------------------------------

def _canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
        warn_once(f"{path}: not written by pygen in this checkout (a cache committed, "
                  "copied or edited): ignored, and rebuilt")
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


# --- the extraction -------------------------------------------------------------------------

@functools.cache
def code_id() -> str:
    """A hash of pygen's own modules: a changed pygen (same version, new commit) is a miss."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def scripts_id(folder: Path) -> str:
    """A hash of every script the Node side may load: the entry and each module it requires."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.cjs")):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def extraction_key(config: Config) -> str:
    script = noderuntime.extractor()
    modules = script.node_path or noderuntime.CHECKOUT_DIR / "node_modules"
    return digest_json({
        "pygen": __version__,
        "code": code_id(),
        "script": scripts_id(script.script.parent),
        "ts-morph": sha256_of(modules / "ts-morph" / "package.json"),
        "node": str(script.node),
        "root": str(config.root),
        "settings": config.settings.model_dump(mode="json"),
        "listing": definitions_listing(config),
    })


def definitions_listing(config: Config) -> list[str]:
    """The files a `definitions` glob, `call:` or `class:` source may read: a file added
    there is a miss, though no file the last run read has changed. Empty for constants."""
    found: set[Path] = set()
    for spec in config.definitions:
        kind, _, rest = spec.partition(":")
        if kind in ("call", "class"):
            base = config.tsconfig.parent if config.tsconfig else config.nodes_file.parent
            found.update(p for pattern in ("**/*.ts", "**/*.tsx") for p in base.glob(pattern)
                         if "node_modules" not in p.parts)
        elif rest:
            found.update(config.root.glob(spec.rpartition(":")[0]))
    return sorted(str(p) for p in found)


def reply_fingerprint(config: Config, reply: dict[str, Any]) -> list[list[str | None]]:
    """`fingerprint` of the extraction's inputs, taking each source's sha256 as the extractor
    reported it (the content it read: a file edited during the run is a change next time)."""
    reported = {str(config.root / str(s["path"])): s.get("sha256")
                for s in reply.get("sources", []) if isinstance(s.get("sha256"), str)}
    paths = sorted({str(p) for p in extraction_inputs(config, reply)})
    return [[p, reported[p] if p in reported else sha256_of(Path(p))] for p in paths]


def extraction_inputs(config: Config, reply: dict[str, Any]) -> list[Path]:
    paths = [config.root / str(s["path"]) for s in reply.get("sources", [])]
    paths.append(config.nodes_file)
    if config.tsconfig is not None:
        paths.append(config.tsconfig)
    return paths + _manifests(config, reply)


def _manifests(config: Config, reply: dict[str, Any]) -> list[Path]:
    """With `type_template`, the package.json files naming the nodes' packages."""
    if not config.settings.type_template:
        return []
    nodes = reply.get("nodes", [])
    return typenames.manifest_files(
        [config.root / str(n["source"]["file"]) for n in nodes if isinstance(n, dict)
         and isinstance(n.get("source"), dict)], config.root)


def absent_paths(config: Config, reply: dict[str, Any]) -> list[str]:
    """The paths the extraction looked for and did not find (module resolution's
    candidates, a nearer tsconfig.json): one appearing may change what it reads."""
    found = reply.get("absent")
    return sorted({os.path.normpath(config.root / str(p)) for p in found}) \
        if isinstance(found, list) else []


def extract(config: Config, note: Callable[[str], None] | None = None) -> Extraction:
    """The extraction, from the cache when nothing it read has changed; when some files
    changed, only the nodes they affect are read again (pygen.extract.incremental). `note`
    hears how much was read again."""
    begin_run()
    path = cache_dir(config) / "extract.json"
    key = extraction_key(config)
    # Before any file is hashed or read: a file changed after this is never trusted by its
    # stat next time (see `stat_trust`).
    started_ns = time.time_ns()
    cached = read_entry(path, key)
    reply = _cached_reply(config, cached, note or (lambda _: None), started_ns)
    if reply is not None:
        with contextlib.suppress(ExtractionError, KeyError, TypeError, ValidationError):
            extraction = named(parse_reply(reply, config.settings.field_list,
                                           config.settings.variant_field), config)
            if cached is not None and reply is cached.get("reply"):
                return extraction  # nothing changed: nothing to write
            _store(config, path, key, reply, started_ns)
            return extraction
    # No cache, or one that cannot be used: read everything.
    reply = run_extractor(config)
    extraction = named(parse_reply(reply, config.settings.field_list,
                                   config.settings.variant_field), config)
    _store(config, path, key, reply, started_ns)
    return extraction


def _store(config: Config, path: Path, key: str, reply: dict[str, Any],
           started_ns: int) -> None:
    """Keep the reply under the digests of the bytes the extractor read, unless a file
    changed while it ran (then nothing is kept, and the run says so)."""
    inputs = reply_fingerprint(config, reply)
    absent = absent_paths(config, reply)
    # Stats first, then the bytes compared: a file saved after its stat is either seen
    # here or has a newer stat next time.
    recorded_stats = stats([str(e[0]) for e in inputs])
    seen = [str(config.root / str(p)) for p in reply.get("unsettled", ())]
    input_changed(seen + changed_since(inputs, absent))
    if run_unsettled():
        return
    write_entry(path, {"key": key, "inputs": inputs, "absent": absent, "reply": reply,
                       "stats": recorded_stats, "written_ns": started_ns})


def stats(paths: Sequence[Path | str]) -> list[list[int] | None]:
    """Each file's size, inode, mtime and ctime (ns): unchanged, its bytes need no hashing.
    (Paths as recorded may stay strings: a Path each costs more than its stat.)"""
    found: list[list[int] | None] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            found.append(None)
            continue
        found.append([st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns])
    return found


# A file changed within this many ns of the moment a cache entry's hashing began may have
# changed after it was hashed without its times showing it (coarse file-system clocks).
RACY_NS = 2_000_000_000


@dataclass(frozen=True)
class Trust:
    """What the stats of an entry's inputs tell: the recorded sha256 of each file whose stat
    is as recorded and which had not changed around the time the entry began hashing (its
    bytes are as they were, as git trusts its index), and the files that had settled by the
    time this run began (trusted by the next entry written)."""

    trusted: dict[str, str | None]
    settled: frozenset[str]

    def sha(self, path: Path) -> str | None:
        found = self.trusted.get(str(path), _UNKNOWN)
        return sha256_of(path) if found is _UNKNOWN else found


_UNKNOWN = "?"


def stat_trust(recorded: list[list[str | None]], recorded_stats: Any, written_ns: Any,
               started_ns: int) -> Trust:
    """The Trust of an entry's inputs; nothing is trusted from an entry without stats."""
    paths = [str(e[0]) for e in recorded]
    now = stats(paths)
    settled = frozenset(p for p, st in zip(paths, now, strict=True)
                        if st is not None and max(st[2], st[3]) < started_ns - RACY_NS)
    if not isinstance(recorded_stats, list) or len(recorded_stats) != len(recorded) \
            or not isinstance(written_ns, int):
        return Trust({}, settled)
    trusted = {str(entry[0]): entry[1] for entry, then, st in
               zip(recorded, recorded_stats, now, strict=True)
               if st is not None and st == then
               and max(st[2], st[3]) < written_ns - RACY_NS}
    return Trust(trusted, settled)


def _cached_reply(config: Config, cached: dict[str, Any] | None,
                  note: Callable[[str], None], started_ns: int) -> dict[str, Any] | None:
    """The cached reply when nothing changed, a spliced one when a partial run could tell,
    else None."""
    if cached is None or not isinstance(cached.get("reply"), dict):
        return None
    recorded, absent = cached.get("inputs"), cached.get("absent")
    if not fresh_shape(recorded) or not isinstance(absent, list):
        return None
    appeared = [p for p in absent if isinstance(p, str) and os.path.lexists(p)]
    if appeared:
        # A file where the resolver looked and found none: what imports resolve to may
        # have changed anywhere.
        note(f"{incremental.relative(config, Path(appeared[0]))} appeared where a lookup "
             "found nothing: reading every node")
        return None
    trust = stat_trust(recorded, cached.get("stats"), cached.get("written_ns"), started_ns)
    changed = incremental.changed_files(config, recorded, trust.sha)
    if not changed:
        # Files hashed only because they had changed around the last writing, settled since:
        # the entry is written again (a copy), so later runs trust their stats.
        hashed = {str(e[0]) for e in recorded} - trust.trusted.keys()
        fresh = not hashed & trust.settled
        return cast("dict[str, Any]", cached["reply"] if fresh else dict(cached["reply"]))
    manifests = {incremental.relative(config, p) for p in _manifests(config, cached["reply"])}
    if manifests.issuperset(changed):
        # Types are written after the cache: a renamed package needs no new extraction,
        # only a new record of the inputs (a copy is written again).
        return dict(cached["reply"])
    try:
        done = incremental.partial(config, cached["reply"], changed, run_extractor)
    except (KeyError, TypeError, ValueError):
        done = None  # a cached reply of another shape: read everything
    if done is None:
        note(f"{len(changed)} changed file(s) reach the whole catalog: reading every node")
        return None
    note(f"re-read {done.reread} of {done.total} nodes ({len(changed)} changed file(s))")
    return done.reply


def recorded_inputs(config: Config) -> list[Path]:
    """The files the last cached extraction read (for `gen --watch`); [] when unknown."""
    try:
        cached = read_entry(cache_dir(config) / "extract.json", extraction_key(config))
    except PygenError:
        return []
    inputs = cached.get("inputs") if cached else None
    if not isinstance(inputs, list):
        return []
    return [Path(e[0]) for e in inputs
            if isinstance(e, list) and e and isinstance(e[0], str)]
