"""`json:<path>` tool sources: a saved `tools/list` answer (or a bare list of tools)."""

from __future__ import annotations

from pathlib import Path

from pygen import files, jsonread
from pygen.errors import PygenError, ToolSchemaError
from pygen.tools.source_entry import RawTools


def load(rest: str, root: Path, timeout: float, source: str) -> RawTools:
    path = root / rest
    try:
        data = files.read_bytes(path, what=f"a JSON file ({source})")
    except PygenError as exc:
        raise ToolSchemaError(str(exc)) from None
    if data is None:
        raise ToolSchemaError(f"{path}: cannot read ({source}): No such file or directory")
    try:
        data = jsonread.loads(data, str(path))
    except jsonread.JsonInputError as exc:
        raise ToolSchemaError(str(exc)) from None
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise ToolSchemaError(f"{path}: expected a tools/list result, "
                              '{"tools": [...]}, or a list of tools')
    return tools
