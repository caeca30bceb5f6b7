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
class Branches:
    """A migration whose new type a branch on one data value picks: `key` is the data key
    read, `values` each compared value's type, `otherwise` the last `else`'s type."""

    key: str
    values: tuple[tuple[str, str], ...]
    otherwise: str | None = None

    def toml(self, legacy: str) -> str:
        values = ", ".join(f'"{v}" = "{t}"' for v, t in self.values)
        otherwise = f', otherwise = "{self.otherwise}"' if self.otherwise else ""
        return (f'node_types_by_data = {{ "{legacy}" = {{ key = "{self.key}", '
                f"values = {{ {values} }}{otherwise} }} }}")


@dataclass(frozen=True)
class Migration:
    legacy: str
    current: str
    where: str  # file:line of the comparison
    # Set when the new type depends on a data value (`current` is then its first branch's).
    branches: Branches | None = None

    def line(self) -> str:
        if self.branches is not None:
            types = sorted({t for _, t in self.branches.values} | (
                {self.branches.otherwise} if self.branches.otherwise else set()))
            return (f"legacy type {self.legacy}: the code migrates it to {' or '.join(types)} "
                    f"by its data's `{self.branches.key}` ({self.where}); kept in legacy_types, "
                    "its skill file served as written")
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
        if legacy not in text:
            continue  # a substring test is far cheaper than the regex's scan of every file
        for match in compared.finditer(text):
            window = "\n".join(text[match.end():].split("\n", WINDOW)[:WINDOW])
            for assigned in _ASSIGN.finditer(window):
                if assigned.group(1) in types and assigned.group(1) != legacy:
                    line = text.count("\n", 0, match.start()) + 1
                    where = f"{path.relative_to(root).as_posix()}:{line}"
                    return Migration(legacy, assigned.group(1), where,
                                     branches(window, types - {legacy}))
    return None


# `if (v === "x") {`, `} else if (v === "y") {` … `} else {`, each before the type it writes.
_BRANCH = re.compile(r"""\b(?:if\s*\(\s*([A-Za-z_$][\w$]*)\s*===?\s*["']([^"']+)["']\s*\)"""
                     r"""|(else)\s*\{)""")


def branches(window: str, types: set[str]) -> Branches | None:
    """The branches on one data value that pick the new type, read from the text after the
    legacy comparison: two or more `if (v === "value")` each followed by a `type:` of the
    catalog in its body, one variable `v` assigned from a data key
    (`const v = (node.data as …).key`), and the type a last bare `else` writes, or, with no
    `else`, the one written right after the last branch's body (the fall-through)."""
    marks = list(_BRANCH.finditer(window))
    picked: list[tuple[str, str]] = []
    names: set[str] = set()
    otherwise: str | None = None
    after = 0  # where the last branch's body ends
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(window)
        written = _written(window, mark.end(), end, types)
        if written is None:
            continue
        if mark.group(3):
            otherwise, after = written, -1
            break
        if names and mark.group(1) not in names:
            break  # a branch on another value: the next migration, not this one's
        names.add(mark.group(1))
        picked.append((mark.group(2), written))
        after = _body_end(window, mark.end())
    if otherwise is None and picked and after > 0:
        stop = min(next((m.start() for m in marks if m.start() >= after), len(window)),
                   _block_close(window, after))
        otherwise = _written(window, after, stop, types)
    if len(names) != 1 or len(picked) + (otherwise is not None) < 2:
        return None
    name = re.escape(names.pop())
    source = re.search(rf"\b(?:const|let|var)\s+{name}\s*=\s*([^\n;]+)", window)
    keys = re.findall(r"\.([A-Za-z_$][\w$]*)", source.group(1)) if source else []
    # `(node.data as Record<…>).provider as string`: the last key read is the one compared.
    data_read = source is not None and re.search(r"\bdata\b", source.group(1))
    if not keys or not data_read:
        return None
    return Branches(keys[-1], tuple(picked), otherwise)


def _written(text: str, start: int, end: int, types: set[str]) -> str | None:
    return next((a.group(1) for a in _ASSIGN.finditer(text, start, end)
                 if a.group(1) in types), None)


def _block_close(text: str, at: int) -> int:
    """Where the block the legacy comparison opened (the window starts inside its `if`)
    closes, looking from `at` on: a type written after that is not this migration's."""
    depth = sum({"{": 1, "}": -1}.get(c, 0) for c in text[:at])
    for i in range(at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth <= 0:
            return i
    return len(text)


def _body_end(text: str, at: int) -> int:
    """Where the branch body starting at `at` ends: its braces, else its line."""
    opened = re.match(r"\s*\{", text[at:])
    if opened is None:
        line = text.find("\n", at)
        return len(text) if line < 0 else line
    depth = 0
    for i in range(at + opened.end() - 1, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return len(text)
