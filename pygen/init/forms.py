"""Catalog forms beyond a literal in one constant, found by reading the text: a catalog built
by `.map(...)` (over a helper or an inline callback), one definition per file under the same
exported name (a glob source `path/*.ts:NAME`), or every export of sibling files
(`path/*.ts:*`). Classes are read in `classes`."""

from __future__ import annotations

import functools
import re
from pathlib import Path, PurePosixPath

from pygen.init.literals import SHAPE_KEYS, TYPE_KEYS, Candidate, Singles, entry_keys
from pygen.init.toplevel import TopLevel, nested_spans

# A constant holding one definition may describe it rather than list its handles (a node
# registry with `meta` and a form): such a constant counts as a definition too. Alone it is
# never a catalog; a registry of several of them is, and the extractor confirms it.
SINGLE_SHAPE_KEYS = SHAPE_KEYS | {"meta", "formMeta", "info", "icon", "title", "description",
                                  "render", "component", "ports"}
# `const printNode: Def = {` or `const mathNode = (op: Op): Def => ({`: one definition.
SINGLE = re.compile(
    r"^[ \t]*(export[ \t]+)?const[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*"
    r"(?:\([^)\n]*\)[^=\n]*=>[ \t]*\(?[ \t\n]*)?(\{)", re.MULTILINE)
MAPPED = re.compile(
    r"^[ \t]*(?:export[ \t]+)?const[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[^;\n]*?"
    r"\.map\(\s*(?:([A-Za-z_$][\w$]*)\s*\)|[^{;]*?\{)", re.MULTILINE)
MAP_REF = re.compile(r"\.map\(\s*([A-Za-z_$][\w$]*)\s*\)")
IMPORT = re.compile(r"from\s+[\"'](\.{1,2}/[^\"']+)[\"']")
NAMED_IMPORTS = re.compile(r"\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\b")
# `[startNode, endNode]`, `{ a2a: A2ABlock, [b.id]: b, c }`: an element or a value that is
# only a name, in the literal's own level (nested literals are the entries' own fields).
ARRAY_REF = re.compile(r"(?:^|[\[,])\s*(?://[^\n]*\n\s*)*([A-Za-z_$][\w$]*)\s*(?=[,\]])")
OBJECT_REF = re.compile(
    r"[{,]\s*(?://[^\n]*\n\s*)*(?:(?:\[[^\]\n]*\]|[\"']?[\w$-]+[\"']?)\s*:\s*)?"
    r"([A-Za-z_$][\w$]*)\s*(?=[,}])")


def type_key(keys: set[str], choices: tuple[str, ...] = TYPE_KEYS,
             shape: frozenset[str] = SHAPE_KEYS) -> str | None:
    """The type-like key of a definition's keys, when it also has handles or default data."""
    found = next((t for t in choices if t in keys), None)
    return found if found and keys & shape else None


@functools.lru_cache(maxsize=32768)
def singles(text: str) -> Singles:
    """Top-level constants in `text` holding (or returning) one definition:
    name → (type key, exported). Cached: the scan asks once per use (registries, globs),
    so the cache holds every file of a big app (sim: 13k files; a smaller cache was cleared
    between the uses and the work done three times)."""
    top = TopLevel(text)
    found: Singles = {}
    for match in SINGLE.finditer(text):
        if not top.at(match.start(2)):
            continue
        key = type_key(entry_keys(text, match.start(3)), shape=SINGLE_SHAPE_KEYS)
        if key:
            found[match.group(2)] = (key, bool(match.group(1)))
    return found


def exported_singles(texts: dict[Path, str]) -> Singles:
    """The single definitions every file exports, by name, for the registries that import
    them. One scan per file; a name exported twice keeps its first type key."""
    found: Singles = {}
    for text in texts.values():
        for name, (key, exported) in singles(text).items():
            if exported:
                found.setdefault(name, (key, True))
    return found


def imported(text: str, known: Singles) -> Singles:
    """The names `text` imports (`import { A, B as C }`) that are known single definitions,
    under their local names."""
    found: Singles = {}
    if not known:
        return found
    for match in NAMED_IMPORTS.finditer(text):
        for item in match.group(1).split(","):
            parts = item.replace("type ", "").split(" as ")
            original, local = parts[0].strip(), parts[-1].strip()
            if original in known:
                found[local] = (known[original][0], False)
    return found


def mapped(text: str, path: Path, helpers: Singles, top: TopLevel) -> list[Candidate]:
    """`const X = LIST.map(helper)` or `.map((v) => ({ type, … }))`: a built catalog."""
    found: list[Candidate] = []
    if ".map(" not in text:
        return found
    for match in MAPPED.finditer(text):
        if not top.at(match.start(1)):
            continue
        if match.group(2):
            key = helpers.get(match.group(2), (None, False))[0]
        else:
            key = type_key(entry_keys(text, match.end() - 1))
        if key:
            line = text.count("\n", 0, match.start()) + 1
            found.append(Candidate(match.group(1), path, line, "array", 1, key, unsized=True))
    return found


def built_entries(literal: str, helpers: Singles, opener: str = "[") -> int:
    """How many entries of a literal's text are definitions built or declared elsewhere:
    `...OPS.map(helper)`, and the bare names of single-definition constants (array
    elements, or object values under plain or computed keys)."""
    refs = MAP_REF.findall(literal)
    refs += (ARRAY_REF if opener == "[" else OBJECT_REF).findall(_own_level(literal))
    return sum(1 for name in refs if helpers.get(name, (None, False))[0])


def _own_level(literal: str) -> str:
    """The literal's text with its nested brace pairs blanked out (their insides are the
    entries' own fields, not entries)."""
    inner, parts, at = literal[1:], [literal[0]], 0
    for start, end in nested_spans(literal[1:]):
        parts += [inner[at:start], " " * (end - start)]
        at = end
    return "".join([*parts, inner[at:]])


def glob_of(paths: list[PurePosixPath]) -> str | None:
    """`packages/node-*/src/plugin.ts` for paths differing in one segment, else None."""
    if len({len(p.parts) for p in paths}) != 1:
        return None
    parts = []
    for segments in zip(*(p.parts for p in paths), strict=True):
        if len(set(segments)) == 1:
            parts.append(segments[0])
            continue
        prefix = _common(list(segments))
        suffix = _common([s[len(prefix):][::-1] for s in segments])[::-1]
        parts.append(f"{prefix}*{suffix}")
    return "/".join(parts) if sum("*" in p for p in parts) == 1 else None


def _common(words: list[str]) -> str:
    first = min(words)
    last = max(words)
    size = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b),
                min(len(first), len(last)))
    return first[:size]


def shared_import(paths: list[Path], texts: dict[Path, str]) -> Path | None:
    """A project file every one of `paths` imports (the contract the plugins implement)."""
    common: set[Path] | None = None
    for path in paths:
        resolved = (_resolve(path, spec) for spec in IMPORT.findall(texts[path]))
        imported = {p for p in resolved if p is not None}
        common = imported if common is None else common & imported
    return sorted(common)[0] if common else None


def _resolve(path: Path, spec: str) -> Path | None:
    base = (path.parent / spec).resolve()
    for candidate in (base, *(base.with_name(base.name + s) for s in (".ts", ".tsx")),
                      base / "index.ts"):
        if candidate.is_file() and candidate.suffix in (".ts", ".tsx"):
            return candidate
    return None


def file_globs(texts: dict[Path, str], root: Path) -> list[Candidate]:
    """The same exported single definition in several sibling files → one glob candidate."""
    by_name: dict[str, list[Path]] = {}
    for path, text in texts.items():
        for name, (_key, exported) in singles(text).items():
            if exported:
                by_name.setdefault(name, []).append(path)
    found = []
    for name, paths in sorted(by_name.items()):
        rel = [PurePosixPath(p.resolve().relative_to(root.resolve()).as_posix()) for p in paths]
        pattern = glob_of(rel) if len(paths) > 1 else None
        if pattern:
            home = shared_import(paths, texts) or paths[0]
            key = singles(texts[paths[0]])[name][0]
            found.append(Candidate(f"{pattern}:{name}", home, 1, "glob", len(paths), key))
    return found


def sibling_exports(texts: dict[Path, str], root: Path) -> list[Candidate]:
    """Every export of sibling files, each exporting its own definitions under its own names
    (`nodes/*.ts:*`): offered only when nothing else is, as it reads whatever they export."""
    by_folder: dict[Path, list[Path]] = {}
    for path, text in texts.items():
        if any(exported for _key, exported in singles(text).values()):
            by_folder.setdefault(path.parent, []).append(path)
    found = []
    for paths in by_folder.values():
        rel = [PurePosixPath(p.resolve().relative_to(root.resolve()).as_posix()) for p in paths]
        suffixes = {p.suffix for p in rel}
        if len(paths) > 1 and len(suffixes) == 1:
            pattern = (rel[0].parent / f"*{suffixes.pop()}").as_posix()
            home = shared_import(paths, texts) or paths[0]
            key = next(iter(singles(texts[paths[0]]).values()))[0]
            entries = sum(len(singles(texts[p])) for p in paths)
            found.append(Candidate(f"{pattern}:*", home, 1, "glob", entries, key))
    return found
