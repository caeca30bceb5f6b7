"""The cached extraction: an unchanged tree costs no Node process.

Every entry is one JSON file under `<config root>/.pygen-cache/` in the format of
pygen.extract.cachefile (atomic, signed with the checkout's local key, read as any input is).
Anything unreadable, partial, edited, or from another version is ignored and rebuilt, never
trusted. Three stages keep an entry there:

- `extract.json` (here): the extractor's reply. Its key is pygen's version, the hash of the
  Node script and of ts-morph's package.json, the node binary, and the settings; it also lists
  the sha256 of every file the extraction read, of the bytes as it read them (the extractor
  reports them; the nodes file and tsconfig are added for good measure), the paths its
  lookups found missing, and the stats: a file whose stat is as recorded
  and that had settled when the entry began is not hashed again (`stat_trust`); any other
  is.
- `tools.json`: the tool schemas (pygen.tools.cache).
- `check.json`: the last clean `check` (pygen.gate.check_memo).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard, cast

from pydantic import ValidationError

from pygen import __version__
from pygen.config import SEARCHED_SOURCES, Config
from pygen.errors import ExtractionError, PygenError
from pygen.extract import incremental, noderuntime, registries, typenames
from pygen.extract.cachefile import (
    begin_run,
    changed_since,
    input_changed,
    read_entry,
    run_unsettled,
    sha256_of,
    write_entry,
)
from pygen.extract.runner import Extraction, named, parse_reply, run_extractor

DIR = ".pygen-cache"


def cache_dir(config: Config) -> Path:
    return config.root / DIR


def _canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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


_SOURCES = ("**/*.ts", "**/*.tsx")


def definitions_listing(config: Config) -> list[str]:
    """The files a `definitions` glob or a searched source (`call:`, `class:`,
    `registrations:`) may read: a file added there is a miss, though no file the last run read
    has changed. Empty for constants."""
    found: set[Path] = set()
    for spec in config.definitions:
        kind, _, rest = spec.partition(":")
        if kind in SEARCHED_SOURCES:
            base = config.tsconfig.parent if config.tsconfig else config.nodes_file.parent
            # A library's package map (Node-RED's `node-red.nodes`) adds its node packages,
            # each read whatever tsconfig it has, and their .html files' code blocks
            # (js/lib/sourcefiles.cjs).
            package_map = registries.package_map(rest) if kind == "registrations" else None
            folders = registries.declared_folders(config.root, package_map) \
                if package_map else ()
            found.update(p for folder, patterns in ((base, _SOURCES), *(
                (f, (*_SOURCES, "**/*.html")) for f in folders))
                for pattern in patterns for p in folder.glob(pattern)
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
