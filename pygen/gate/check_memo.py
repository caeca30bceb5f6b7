"""The memo of a passing `check` (`.pygen-cache/check.json`): a check whose inputs all match
the last one that passed is answered without running anything, its warnings said again."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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


def _verdict(config: Config, strict: bool) -> tuple[str, list[Path]] | None:
    """The key and inputs of a clean check, or None when they cannot be known cheaply."""
    extraction_key = cache.extraction_key(config)
    extraction = cache.read_entry(cache.cache_dir(config) / "extract.json", extraction_key)
    tools = tool_inputs(config)
    if extraction is None or tools is None or not isinstance(extraction.get("inputs"), list):
        return None
    inputs = [Path(e[0]) for e in extraction["inputs"] if isinstance(e, list) and e]
    skills = _skill_files(config)
    key = cache.digest_json({"extraction": extraction_key, "tools": tools_key(config, tools),
                             "strict": strict, "run_tools": config.settings.run_tools,
                             "skills": [str(p) for p in skills]})
    return key, [*inputs, *tools, *skills]


@dataclass(frozen=True)
class Passed:
    """A check that passed: how many files it checked, and what it warned of (the catalog's
    warnings, and where the code contradicts itself) to say again."""

    files: int
    warnings: tuple[Diagnostic, ...] = ()
    contradictions: tuple[str, ...] = ()


def clean_check(config: Config, strict: bool) -> Passed | None:
    """The last check with exactly these inputs, if it passed: the whole run can be skipped,
    its warnings printed as they were."""
    verdict = _verdict(config, strict)
    if verdict is None:
        return None
    cached = cache.read_entry(cache.cache_dir(config) / "check.json", verdict[0])
    if cached is None or not cache.fresh(cached.get("inputs")):
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
    verdict = _verdict(config, strict)
    if verdict is not None:
        cache.write_entry(cache.cache_dir(config) / "check.json", {
            "key": verdict[0], "inputs": cache.fingerprint(verdict[1]), "files": passed.files,
            "warnings": [w.model_dump(mode="json", exclude_none=True) for w in passed.warnings],
            "contradictions": list(passed.contradictions)})
