"""The workflow-editor guide shipped inside the package, for a server with no skills.

`pygen serve` answers `start_workflow_editor` from it when the skills directory is missing
or unreadable. It names no editor's conventions (it is every project's fallback): it tells
the agent that nothing is loaded. A project that ships its own guide in its package points
`fallback_file` at that copy; `gen` keeps it current and `check` gates it.
"""

from __future__ import annotations

from importlib import resources

FALLBACK_NAME = "workflow-editor.md"


def fallback_text() -> str:
    """The packaged workflow-editor.md, read through importlib so it works from a wheel."""
    # Bytes, then decode: text mode would rewrite CRLF and break the byte-for-byte promise.
    return resources.files(__package__).joinpath(FALLBACK_NAME).read_bytes().decode("utf-8")
