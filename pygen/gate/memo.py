"""The memo of a clean `check` (`.pygen-cache/check.json`): a check whose inputs all match
the last one that passed without a word is answered without running anything."""

from __future__ import annotations

from pathlib import Path

from pygen.config import Config
from pygen.extract import cache
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


def clean_check(config: Config, strict: bool) -> int | None:
    """The file count of a check with exactly these inputs that passed without a word, if
    there was one: the whole run can be skipped."""
    verdict = _verdict(config, strict)
    if verdict is None:
        return None
    cached = cache.read_entry(cache.cache_dir(config) / "check.json", verdict[0])
    if cached is None or not cache.fresh(cached.get("inputs")):
        return None
    files = cached.get("files")
    return files if isinstance(files, int) else None


def record_clean_check(config: Config, strict: bool, files: int) -> None:
    verdict = _verdict(config, strict)
    if verdict is not None:
        cache.write_entry(cache.cache_dir(config) / "check.json",
                    {"key": verdict[0], "inputs": cache.fingerprint(verdict[1]), "files": files})
