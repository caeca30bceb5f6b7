"""A crash's report: what a bug report needs, written to a file the one error line names.

A crash (an exception that is no PygenError) is pygen's bug, not the user's: it exits 3, apart
from the 2 of errors the user can fix, and leaves its traceback in a Markdown file under the
system's temp folder (never inside the project), so the terminal keeps one line.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
import traceback

from pygen import __version__

EXIT_CODE = 3


def report_text(exc: BaseException, argv: list[str]) -> str:
    trace = "".join(traceback.format_exception(exc)).rstrip()
    return "\n".join([
        "# pygen crash report", "",
        f"- pygen {__version__}, Python {platform.python_version()}, {platform.platform()}",
        f"- command: `pygen {' '.join(argv)}`",
        f"- at: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}", "",
        "Check it holds nothing private (paths, names) before you attach it to a report.", "",
        "## Traceback", "", "```", trace, "```", ""])


def write_report(exc: BaseException, argv: list[str] | None = None) -> str | None:
    """The report's path, or None when no file could be written."""
    text = report_text(exc, sys.argv[1:] if argv is None else argv)
    try:
        fd, path = tempfile.mkstemp(prefix="pygen-crash-", suffix=".md")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError:
        return None
    return path
