"""A cache of what `check` and `gen` read, so an unchanged tree costs no Node process.

Two entries under `<config root>/.pygen-cache/`, each one JSON file written atomically:

- `extract.json`: the extractor's reply. Its key is pygen's version, the hash of the Node
  script and of ts-morph's package.json, the node binary, and the settings; it also lists the
  sha256 of every file the extraction read (the extractor reports them; the nodes file and
  tsconfig are added for good measure). All of them are hashed again on every run.
- `tools.json`: the tool schemas, only when every source in `tools` can be fingerprinted
  without running it: `json:<path>` by that file, `python:<module>:<attr>` by every `.py`
  file of the module's top-level package under the config root. A `stdio:` source, or a
  module found outside the root, makes pygen load the tools afresh each run (the extraction
  is still cached). A python module that imports code from another top-level package of the
  repo is not fingerprinted by it: use `--no-cache` after editing such code.

Each file carries a checksum of its payload. Anything unreadable, partial, edited, or from
another version is ignored and rebuilt, never trusted.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pygen import __version__, files
from pygen.config import Config
from pygen.errors import ExtractionError, PygenError
from pygen.extract import noderuntime
from pygen.extract.runner import Extraction, parse_reply, run_extractor
from pygen.model import ToolSchema

DIR = ".pygen-cache"
FORMAT = 1
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*\Z")


def cache_dir(config: Config) -> Path:
    return config.root / DIR


def sha256_of(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def digest_json(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(paths: Iterable[Path]) -> list[list[str | None]]:
    """[[path, sha256 or None when missing], ...] for files, sorted by path."""
    return [[str(p), sha256_of(p)] for p in sorted(set(paths))]


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

def read_entry(path: Path, key: str) -> dict[str, Any] | None:
    """The payload stored under `key`, or None when missing, stale or damaged in any way."""
    try:
        stored = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(stored, dict) or stored.get("format") != FORMAT:
        return None
    payload = stored.get("payload")
    if not isinstance(payload, dict) or stored.get("checksum") != digest_json(payload):
        return None
    return payload if payload.get("key") == key else None


def write_entry(path: Path, payload: dict[str, Any]) -> None:
    """Store atomically; a cache that cannot be written only costs speed."""
    stored = {"format": FORMAT, "checksum": digest_json(payload), "payload": payload}
    with contextlib.suppress(OSError, PygenError):
        ignore = path.parent / ".gitignore"
        if not ignore.exists():
            files.write_all([(ignore, "# Created by pygen: a local cache, never committed.\n*\n")])
        files.write_all([(path, json.dumps(stored, ensure_ascii=False))])


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
    })


def extraction_inputs(config: Config, reply: dict[str, Any]) -> list[Path]:
    paths = [config.root / str(s["path"]) for s in reply.get("sources", [])]
    paths.append(config.nodes_file)
    if config.tsconfig is not None:
        paths.append(config.tsconfig)
    return paths


def extract(config: Config) -> Extraction:
    """The extraction, from the cache when nothing it read has changed."""
    path = cache_dir(config) / "extract.json"
    key = extraction_key(config)
    cached = read_entry(path, key)
    if cached is not None and fresh(cached.get("inputs")):
        with contextlib.suppress(ExtractionError, KeyError, TypeError, ValidationError):
            return parse_reply(cached["reply"])
    reply = run_extractor(config)
    extraction = parse_reply(reply)
    write_entry(path, {"key": key, "inputs": fingerprint(extraction_inputs(config, reply)),
                       "reply": reply})
    return extraction


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


# --- the tool schemas -----------------------------------------------------------------------

def source_files(source: str, root: Path) -> list[Path] | None:
    """The files a tool source's schemas depend on, or None when that cannot be known."""
    kind, _, rest = source.partition(":")
    kind, rest = kind.strip(), rest.strip()
    if kind == "json" and rest:
        return [root / rest]
    if kind != "python":
        return None
    module = rest.partition(":")[0].strip()
    if not _MODULE.match(module):
        return None
    top = module.split(".")[0]
    if (root / top).is_dir():
        return sorted(p for p in (root / top).rglob("*.py") if "__pycache__" not in p.parts)
    single = root / f"{top}.py"
    return [single] if single.is_file() else None


def tool_inputs(config: Config) -> list[Path] | None:
    files: list[Path] = []
    for source in config.settings.tools:
        found = source_files(source, config.root)
        if found is None:
            return None
        files += found
    return files


def tools_key(config: Config, files: list[Path]) -> str:
    settings = config.settings
    return digest_json({
        "pygen": __version__,
        "code": code_id(),
        "python": sys.version,
        "root": str(config.root),
        "tools": settings.tools,
        # The file list itself: a module added to the package changes the key.
        "files": sorted(str(p) for p in files),
    })


Loader = Callable[[list[str], Path, float], tuple[ToolSchema, ...]]


def _default_loader(sources: list[str], root: Path, timeout: float) -> tuple[ToolSchema, ...]:
    from pygen.tools import load_tool_schemas  # imports the MCP SDK: only on a miss

    return load_tool_schemas(sources, root, timeout)


def tool_schemas(config: Config, load: Loader = _default_loader) -> tuple[ToolSchema, ...]:
    """The configured tools' schemas, from the cache when their sources can be fingerprinted
    and have not changed."""
    settings = config.settings
    files = tool_inputs(config)
    if files is None:
        return load(settings.tools, config.root, settings.tool_timeout)
    path = cache_dir(config) / "tools.json"
    key = tools_key(config, files)
    cached = read_entry(path, key)
    if cached is not None and fresh(cached.get("inputs")):
        with contextlib.suppress(KeyError, TypeError, ValidationError):
            return tuple(ToolSchema.model_validate(t) for t in cached["tools"])
    tools = load(settings.tools, config.root, settings.tool_timeout)
    write_entry(path, {"key": key, "inputs": fingerprint(files),
                       "tools": [t.model_dump(mode="json") for t in tools]})
    return tools


# --- a whole clean `check` --------------------------------------------------------------------

def _skill_files(config: Config) -> list[Path]:
    files = [p for p in config.skills_dir.rglob("*") if p.is_file()] if \
        config.skills_dir.is_dir() else []
    if config.fallback_file is not None:
        files.append(config.fallback_file)
    return sorted(files)


def _verdict(config: Config, strict: bool) -> tuple[str, list[Path]] | None:
    """The key and inputs of a clean check, or None when they cannot be known cheaply."""
    extraction = read_entry(cache_dir(config) / "extract.json", extraction_key(config))
    tools = tool_inputs(config)
    if extraction is None or tools is None or not isinstance(extraction.get("inputs"), list):
        return None
    inputs = [Path(e[0]) for e in extraction["inputs"] if isinstance(e, list) and e]
    skills = _skill_files(config)
    key = digest_json({"extraction": extraction_key(config), "tools": tools_key(config, tools),
                       "strict": strict, "skills": [str(p) for p in skills]})
    return key, [*inputs, *tools, *skills]


def clean_check(config: Config, strict: bool) -> int | None:
    """The file count of a check with exactly these inputs that passed without a word, if
    there was one: the whole run can be skipped."""
    verdict = _verdict(config, strict)
    if verdict is None:
        return None
    cached = read_entry(cache_dir(config) / "check.json", verdict[0])
    if cached is None or not fresh(cached.get("inputs")):
        return None
    files = cached.get("files")
    return files if isinstance(files, int) else None


def record_clean_check(config: Config, strict: bool, files: int) -> None:
    verdict = _verdict(config, strict)
    if verdict is not None:
        write_entry(cache_dir(config) / "check.json",
                    {"key": verdict[0], "inputs": fingerprint(verdict[1]), "files": files})
