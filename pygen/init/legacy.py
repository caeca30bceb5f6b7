"""Legacy node types `pygen init` keeps: skill files of the adopted folder whose type the
catalog no longer declares, where the project's code shows the editor migrating that type.

The evidence is read as text, never run: the legacy type compared as a string literal
(`n.type === "ai-writer"`, `!== "ai-writer"`, `case "ai-writer":`) and, within the lines
after it, a `type: "<a catalog type>"` written (the node rebuilt under its current type). A
type with no such place in the code is left out: its file stays an orphan for a person to
deal with, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# How many lines after the comparison the rebuilt node's `type:` may come.
WINDOW = 20
_ASSIGN = re.compile(r"""\btype\s*:\s*["']([^"'\s]+)["']""")


@dataclass(frozen=True)
class Migration:
    legacy: str
    current: str
    where: str  # file:line of the comparison

    def line(self) -> str:
        return (f"legacy type {self.legacy}: the code migrates it to {self.current} "
                f"({self.where}); kept in legacy_types, its skill file served as written")


def orphan_types(skills_dir: Path, types: Iterable[str]) -> list[str]:
    """The node skill files' types (their names) the catalog does not declare."""
    known = set(types)
    nodes = skills_dir / "nodes"
    found = (p.stem for p in nodes.glob("*.md") if not p.name.startswith("_")) if (
        nodes.is_dir()) else ()
    return sorted(t for t in found if t not in known)


def migrations(texts: Mapping[Path, str], root: Path, orphans: Iterable[str],
               types: Iterable[str]) -> list[Migration]:
    """Each orphan type whose migration the code shows, with its current type and where."""
    current_types = set(types)
    out: list[Migration] = []
    for legacy in orphans:
        found = _first(texts, root, legacy, current_types)
        if found is not None:
            out.append(found)
    return out


def _first(texts: Mapping[Path, str], root: Path, legacy: str,
           types: set[str]) -> Migration | None:
    compared = re.compile(r"""(?:[!=]==?\s*|\bcase\s+)["']""" + re.escape(legacy) + "[\"']")
    for path, text in sorted(texts.items()):
        if path.name.endswith(".d.ts") or "__tests__" in path.parts or ".test." in path.name:
            continue
        for match in compared.finditer(text):
            after = text[match.end():].split("\n", WINDOW)[:WINDOW]
            for assigned in _ASSIGN.finditer("\n".join(after)):
                if assigned.group(1) in types and assigned.group(1) != legacy:
                    line = text.count("\n", 0, match.start()) + 1
                    where = f"{path.relative_to(root).as_posix()}:{line}"
                    return Migration(legacy, assigned.group(1), where)
    return None
