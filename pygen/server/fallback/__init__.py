"""The copy of workflow-editor.md shipped inside the package.

`pygen serve` answers `start_workflow_editor` from it when the skills directory is missing
or unreadable; `pygen gen` keeps it current and `pygen check` fails when it has drifted.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

FALLBACK_NAME = "workflow-editor.md"


def fallback_text() -> str:
    """The packaged workflow-editor.md, read through importlib so it works from a wheel."""
    # Bytes, then decode: text mode would rewrite CRLF and break the byte-for-byte promise.
    return resources.files(__package__).joinpath(FALLBACK_NAME).read_bytes().decode("utf-8")


def fallback_source() -> Path:
    """Where the packaged copy lives in a source checkout (what `fallback_file` points at)."""
    return Path(__file__).with_name(FALLBACK_NAME)
