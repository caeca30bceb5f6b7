"""`json:<path>` tool sources: a saved `tools/list` answer (or a bare list of tools)."""

from __future__ import annotations

from pathlib import Path

from pygen import jsonread
from pygen.errors import ToolSchemaError
from pygen.tools.sources import RawTools


def load(rest: str, root: Path, timeout: float, source: str) -> RawTools:
    path = root / rest
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ToolSchemaError(f"{path}: cannot read ({source}): {exc.strerror}") from None
    try:
        data = jsonread.loads(data, str(path))
    except jsonread.JsonInputError as exc:
        raise ToolSchemaError(str(exc)) from None
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise ToolSchemaError(f"{path}: expected a tools/list result, "
                              '{"tools": [...]}, or a list of tools')
    return tools
