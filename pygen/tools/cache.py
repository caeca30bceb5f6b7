"""The cached tool schemas (`.pygen-cache/tools.json`), when their sources can be fingerprinted.

Only when every source in `tools` can be fingerprinted without running it: `json:<path>` by
that file, `python:<module>:<attr>` by every `.py` file of the module's top-level package
under the config root. A `stdio:` source, or a module found outside the root, makes pygen
load the tools afresh each run (the extraction is still cached). A python module that imports
code from another top-level package of the repo is not fingerprinted by it: use `--no-cache`
after editing such code. The file format is pygen.extract.cache's.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from pygen import __version__
from pygen.config import Config
from pygen.extract import cache, cachefile
from pygen.model import ToolSchema
from pygen.tools.source_entry import DOTTED, parse_source
from pygen.tools.sources import load_tool_schemas


def source_files(source: str, root: Path) -> list[Path] | None:
    """The files a tool source's schemas depend on, or None when that cannot be known."""
    kind, rest = parse_source(source)
    if kind == "json" and rest:
        return [root / rest]
    if kind != "python":
        return None
    module = rest.partition(":")[0].strip()
    if not DOTTED.match(module):
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
    return cache.digest_json({
        "pygen": __version__,
        "code": cache.code_id(),
        "python": sys.version,
        "root": str(config.root),
        "tools": settings.tools,
        # The file list itself: a module added to the package changes the key.
        "files": sorted(str(p) for p in files),
    })


Loader = Callable[[list[str], Path, float], tuple[ToolSchema, ...]]


def tool_schemas(config: Config, load: Loader = load_tool_schemas) -> tuple[ToolSchema, ...]:
    """The configured tools' schemas, from the cache when their sources can be fingerprinted
    and have not changed."""
    settings = config.settings
    files = tool_inputs(config)
    if files is None:
        return load(settings.tools, config.root, settings.tool_timeout)
    path = cache.cache_dir(config) / "tools.json"
    key = tools_key(config, files)
    cached = cachefile.read_entry(path, key)
    if cached is not None and cache.fresh(cached.get("inputs")):
        with contextlib.suppress(KeyError, TypeError, ValidationError):
            return tuple(ToolSchema.model_validate(t) for t in cached["tools"])
    # The sources' bytes before they are imported, compared after: a source saved while
    # the tools load is not recorded beside schemas that may be from its older text.
    inputs = cache.fingerprint(files)
    tools = load(settings.tools, config.root, settings.tool_timeout)
    cachefile.input_changed(cachefile.changed_since(inputs))
    cachefile.write_entry(path, {"key": key, "inputs": inputs,
                             "tools": [t.model_dump(mode="json") for t in tools]})
    return tools
