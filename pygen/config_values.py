"""Config values that are checked before use: globs read relative to the config's folder, and
the `type_template` a node's full type is written by."""

from __future__ import annotations

import re
import string
from pathlib import PurePosixPath, PureWindowsPath


def glob_problem(pattern: str, *, outside: bool) -> str | None:
    """Why a glob of the config cannot be used, or None. Globs are read relative to the
    config's folder: an absolute one (`/usr/**/*.json`, `/dev/zero`, `C:/x`) names no file
    of the project, and with `outside` False neither does one climbing out with `..`."""
    if not pattern.strip():
        return "an empty glob names no file; remove it"
    if PurePosixPath(pattern).is_absolute() or PureWindowsPath(pattern).drive \
            or pattern.startswith("\\"):
        return ("is absolute; write a glob relative to the config's folder (pygen reads "
                "only the project's files)")
    if not outside and ".." in re.split(r"[/\\]", pattern):
        return ("climbs out of the config's folder with '..'; write a glob of the project's "
                "own files, relative to the config's folder")
    return None


TYPE_PLACEHOLDERS = ("type", "package")


def template_problem(template: str) -> str | None:
    """Why a `type_template` cannot be used (no `{type}`, an unknown placeholder), or None."""
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(template)
                 if name is not None]
    except ValueError as exc:
        return f"{exc}; write {{type}} and {{package}}, and {{{{ }}}} for a literal brace"
    unknown = [n for n in names if n not in TYPE_PLACEHOLDERS]
    if unknown:
        return (f"unknown placeholder {{{unknown[0]}}}; the placeholders are "
                f"{', '.join('{' + p + '}' for p in TYPE_PLACEHOLDERS)}")
    if "type" not in names:
        return "it must contain {type} (the type the code declares)"
    return None
