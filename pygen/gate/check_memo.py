"""The memo of a passing `check` (`.pygen-cache/check.json`): a check whose inputs all match
the last one that passed is answered without running anything, its warnings said again.

The memo lists every file that check read with the sha256 of the bytes it read (the
extractor's, pygen.files' record of each read), never a hash taken again at the end, and
the paths the extraction found missing; a file whose stat is unchanged (and settled when the
check began) is not hashed again, as git trusts its index, so a warm check costs a stat per
file. A check that saw any input change while it ran (a file's bytes now differ from those
it read, a missing file appeared, the skill files listed differ) records nothing."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pygen import files
from pygen.config import Config
from pygen.extract import cache, cachefile
from pygen.model import Diagnostic
from pygen.tools.cache import tool_inputs, tools_key


def _skill_files(config: Config) -> list[Path]:
    files = [p for p in config.skills_dir.rglob("*") if p.is_file()] if \
        config.skills_dir.is_dir() else []
    if config.fallback_file is not None:
        files.append(config.fallback_file)
    package = config.agent_skills_dir
    if package is not None and package.is_dir():
        files += [p for p in package.rglob("*") if p.is_file()]
    return sorted(files)


def _key(config: Config, strict: bool, skills: list[Path]) -> str | None:
    """What a clean check's verdict depends on besides its files' bytes, or None when that
    cannot be known cheaply (a tool source that must run)."""
    tools = tool_inputs(config)
    if tools is None:
        return None
    return cache.digest_json({"extraction": cache.extraction_key(config),
                              "tools": tools_key(config, tools), "strict": strict,
                              "run_tools": config.settings.run_tools,
                              "skills": [str(p) for p in skills]})


def _inputs(config: Config, skills: list[Path]) -> tuple[list[list[str | None]], list[str]] | None:
    """Every file the check read, with the sha256 of the bytes it read: the extraction's
    inputs (as its cache entry, this run's, records them), the tool sources and the skills
    (as this run read them, else as they are now); and the paths found missing."""
    extraction = cachefile.read_entry(cache.cache_dir(config) / "extract.json",
                                  cache.extraction_key(config))
    tools = tool_inputs(config)
    if extraction is None or tools is None or not cache.fresh_shape(extraction.get("inputs")) \
            or not isinstance(extraction.get("absent"), list):
        return None
    digests = {str(e[0]): e[1] for e in extraction["inputs"]}
    for path in [*tools, *skills]:
        digests.setdefault(str(path), files.read_digest(path) or cachefile.sha256_of(path))
    return [[p, digests[p]] for p in sorted(digests)], \
        [str(p) for p in extraction["absent"] if isinstance(p, str)]


def _changed(recorded: Any, stats: Any, written_ns: Any, absent: Any) -> list[Path] | None:
    """The recorded files whose bytes changed, and missing ones that appeared (None: unknown,
    as good as all); a file whose stat is as recorded, and was not changed around the time
    the recording check began (the racy-time rule), is not read."""
    if not cache.fresh_shape(recorded) or not isinstance(stats, list) \
            or len(stats) != len(recorded) or not isinstance(written_ns, int) \
            or not isinstance(absent, list) or not all(isinstance(p, str) for p in absent):
        return None
    appeared = [Path(p) for p in absent if os.path.lexists(p)]
    if appeared:
        return appeared
    names = [str(e[0]) for e in recorded]
    now = cache.stats(names)
    changed = []
    for entry, name, then, seen in zip(recorded, names, stats, now, strict=True):
        settled = seen is not None and seen[2] < written_ns - cache.RACY_NS \
            and seen[3] < written_ns - cache.RACY_NS
        if not (settled and seen == then) and cachefile.sha256_of(Path(name)) != entry[1]:
            changed.append(Path(name))
    return changed


@dataclass(frozen=True)
class Passed:
    """A check that passed: how many files it checked, and what it warned of (the catalog's
    warnings, and where the code contradicts itself) to say again."""

    files: int
    warnings: tuple[Diagnostic, ...] = ()
    contradictions: tuple[str, ...] = ()


def clean_check(config: Config, strict: bool,
                on_change: Callable[[list[Path]], None] | None = None,
                start: Started | None = None) -> Passed | None:
    """The last check with exactly these inputs, if it passed: the whole run can be skipped,
    its warnings printed as they were. When only some of its files changed, `on_change`
    hears which, before the run goes on without the memo."""
    key = (start or started(config, strict)).key
    if key is None:
        return None
    cached = cachefile.read_entry(cache.cache_dir(config) / "check.json", key)
    if cached is None:
        return None
    changed = _changed(cached.get("inputs"), cached.get("stats"), cached.get("written_ns"),
                       cached.get("absent"))
    if changed is None or changed:
        if changed and on_change is not None:
            on_change(changed)
        return None
    files, warnings = cached.get("files"), cached.get("warnings", [])
    said = cached.get("contradictions", [])
    if not isinstance(files, int) or not isinstance(warnings, list) or not isinstance(said, list):
        return None
    try:
        return Passed(files, tuple(Diagnostic.model_validate(w) for w in warnings),
                      tuple(str(t) for t in said))
    except ValidationError:
        return None  # a memo from another version of pygen: run the check


@dataclass(frozen=True)
class Started:
    """What a check notes at its start, before it reads anything: the time (the racy-time
    rule counts from it) and the skill files there were."""

    ns: int
    skills: tuple[Path, ...]
    key: str | None


def started(config: Config, strict: bool) -> Started:
    ns = time.time_ns()
    skills = _skill_files(config)
    return Started(ns, tuple(skills), _key(config, strict, skills))


def record_clean_check(config: Config, strict: bool, passed: Passed, start: Started) -> None:
    """Remember a passing check, unless an input changed while it ran: then say so once and
    record nothing."""
    skills = list(start.skills)
    if cachefile.run_unsettled() or start.key is None:
        return  # (an input that changed was said when it was seen)
    now = _skill_files(config)
    if now != skills:
        cachefile.input_changed([str(p) for p in sorted(set(now) ^ set(skills))])
        return
    if _key(config, strict, skills) != start.key:
        # A file appeared or went among those a definitions glob or a tool source lists.
        cachefile.input_changed([str(config.root)])
        return
    key, found = start.key, _inputs(config, skills)
    if found is None:
        return
    inputs, absent = found
    recorded_stats = cache.stats([str(e[0]) for e in inputs])
    cachefile.input_changed(cachefile.changed_since(inputs, absent))
    if cachefile.run_unsettled():
        return
    cachefile.write_entry(cache.cache_dir(config) / "check.json", {
        "key": key, "inputs": inputs, "absent": absent, "stats": recorded_stats,
        "written_ns": start.ns, "files": passed.files,
        "warnings": [w.model_dump(mode="json", exclude_none=True) for w in passed.warnings],
        "contradictions": list(passed.contradictions)})
