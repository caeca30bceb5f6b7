"""A `tools` entry (`kind:rest`) and what every source reader shares: the wire form it
returns, the help line naming the kinds, and the tail of a failing process's stderr.

Kept apart from pygen.tools.sources, which picks a reader per kind, so that the readers
(json_source, python_source, stdio_source) import this and never the module that imports them.
"""

from __future__ import annotations

import re
from typing import Any

from pygen.output import excerpt

SOURCE_HELP = "write python:<module>:<attr>, stdio:<command line> or json:<path>"
# A dotted Python name: a module (`app.server`) or an attribute path (`mcp`, `app.tools`).
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*\Z")

RawTools = list[Any]


def parse_source(source: str) -> tuple[str, str]:
    """A `tools` entry `kind:rest` as (kind, rest), both stripped; kind is '' without a colon."""
    kind, colon, rest = source.partition(":")
    return (kind.strip(), rest.strip()) if colon else ("", "")


def stderr_tail(err: str) -> str:
    """`: <the last of stderr>` for a message, or '' when the process said nothing."""
    tail = excerpt(err)
    return f": {tail}" if tail else ""
