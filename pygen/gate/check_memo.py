"""The memo of a passing `check` (`.pygen-cache/check.json`): a check whose inputs all match
the last one that passed is answered without running anything, its warnings said again.

The memo lists every file that check read with its sha256 and its stat; a file whose stat is
unchanged (and settled when the memo was written) is not hashed again, as git trusts its
index, so a warm check costs a stat per file."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pygen.config import Config
from pygen.extract import cache
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


def _inputs(config: Config, skills: list[Path]) -> list[Path] | None:
    """Every file the check read: the extraction's inputs, the tool sources, the skills."""
    extraction = cache.read_entry(cache.cache_dir(config) / "extract.json",
                                  cache.extraction_key(config))
    tools = tool_inputs(config)
    if extraction is None or tools is None or not isinstance(extraction.get("inputs"), list):
        return None
    inputs = [Path(e[0]) for e in extraction["inputs"] if isinstance(e, list) and e]
    return [*inputs, *tools, *skills]


def _changed(recorded: Any, stats: Any, written_ns: Any) -> list[Path] | None:
    """The recorded files whose bytes changed (None: unknown, as good as all); a file whose
    stat is as recorded, and was not changed around the time of recording, is not read."""
    if not cache.fresh_shape(recorded) or not isinstance(stats, list) \
            or len(stats) != len(recorded) or not isinstance(written_ns, int):
        return [] if cache.fresh(recorded) else None
    names = [str(e[0]) for e in recorded]
    now = cache.stats(names)
    changed = []
    for entry, name, then, seen in zip(recorded, names, stats, now, strict=True):
        settled = seen is not None and seen[2] < written_ns - cache.RACY_NS \
            and seen[3] < written_ns - cache.RACY_NS
        if not (settled and seen == then) and cache.sha256_of(Path(name)) != entry[1]:
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
                on_change: Callable[[list[Path]], None] | None = None) -> Passed | None:
    """The last check with exactly these inputs, if it passed: the whole run can be skipped,
    its warnings printed as they were. When only some of its files changed, `on_change`
    hears which, before the run goes on without the memo."""
    key = _key(config, strict, _skill_files(config))
    if key is None:
        return None
    cached = cache.read_entry(cache.cache_dir(config) / "check.json", key)
    if cached is None:
        return None
    changed = _changed(cached.get("inputs"), cached.get("stats"), cached.get("written_ns"))
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


def record_clean_check(config: Config, strict: bool, passed: Passed) -> None:
    skills = _skill_files(config)
    key, inputs = _key(config, strict, skills), _inputs(config, skills)
    if key is not None and inputs is not None:
        written_ns = time.time_ns()
        paths = sorted(set(inputs))
        cache.write_entry(cache.cache_dir(config) / "check.json", {
            "key": key, "inputs": cache.fingerprint(paths), "stats": cache.stats(paths),
            "written_ns": written_ns, "files": passed.files,
            "warnings": [w.model_dump(mode="json", exclude_none=True) for w in passed.warnings],
            "contradictions": list(passed.contradictions)})
