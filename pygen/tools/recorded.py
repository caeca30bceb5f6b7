"""The tool schemas recorded in the schema document, for runs that must not run project code.

`pygen gen` records every tool it read (`x-tool-schemas` in `<skills_dir>/schemas/
nodes.schema.json`); `check --no-tools` (or `run_tools = false`) reads them back instead of
importing `python:` sources or starting `stdio:` commands, so a CI job can check an untrusted
change without running it. Such a run trusts the record: a change to the tool code itself is
not seen until a run that reads the sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pygen import files, jsonread, layout
from pygen.config import Config
from pygen.errors import PygenError, ToolSchemaError
from pygen.model import ToolSchema
from pygen.tools.source_entry import parse_source

RECORD_KEY = "x-tool-schemas"
# Source kinds that run the project's code to answer: imported or started.
RUNS_CODE = ("python", "stdio")


def runs_code(sources: Sequence[str]) -> list[str]:
    """The configured sources that run project code when read."""
    return [s for s in sources if parse_source(s)[0] in RUNS_CODE]


def record(tools: Sequence[ToolSchema]) -> dict[str, Any]:
    """The document's record of the tools read: each one's wire-form schema and source."""
    return {t.name: {"description": t.description, "inputSchema": t.input_schema,
                     **({"outputSchema": t.output_schema} if t.output_schema is not None
                        else {}),
                     "source": t.source} for t in sorted(tools, key=lambda t: t.name)}


def recorded_tools(config: Config) -> tuple[ToolSchema, ...]:
    """The tools recorded by the last `gen`, or one line saying how to record them."""
    path = layout.schema_file(config.skills_dir)
    try:
        data = files.read_bytes(path)
    except PygenError as exc:
        raise ToolSchemaError(str(exc)) from None
    document = jsonread.loads(data, str(path)) if data is not None else None
    entries = document.get(RECORD_KEY) if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        raise ToolSchemaError(f"{path}: no tool schemas recorded ({RECORD_KEY}) for a run "
                              "without tools; run `pygen gen` where the tool sources may run "
                              "and commit the schema document")
    return tuple(_tool(name, entry, str(path)) for name, entry in sorted(entries.items()))


def _tool(name: str, entry: Any, path: str) -> ToolSchema:
    if not isinstance(entry, dict) or not isinstance(entry.get("inputSchema"), dict):
        raise ToolSchemaError(f"{path}: $.{RECORD_KEY}.{name}: not a recorded tool schema; "
                              "run `pygen gen` to record it again")
    output = entry.get("outputSchema")
    return ToolSchema(name=name, description=str(entry.get("description") or ""),
                      input_schema=entry["inputSchema"],
                      output_schema=output if isinstance(output, dict) else None,
                      source=str(entry.get("source") or ""))
