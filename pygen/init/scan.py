"""Find candidate node catalogs in a project's TypeScript sources, by reading the text.

A candidate is a `const` whose initializer is an array of object literals with a type-like
property (`type`, `kind`, `nodeType`) and a handle or default-data property, or an object
whose values are object literals with handle or default-data properties (keyed by type), or
a `registerX({...})` function whose calls pass such literals (`call:registerX`).
An array or object built only from spreads of candidates (`[...IMAGE_NODES, ...AUDIO_NODES]`)
is a candidate too, and the parts it is built from are not offered on their own.

This is a cheap first pass; `pygen init` confirms a candidate by running the real extractor.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from pygen.init import classes, entries, forms, registrations, vendored
from pygen.init.literals import (
    SHAPE_KEYS,
    TYPE_KEYS,
    Candidate,
    Dialect,
    Shape,
    Singles,
    entry_keys,
    grouped,
    read_literal,
)
from pygen.init.toplevel import TopLevel

SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
# A plain JavaScript app (checked through a jsconfig.json) is read when no TypeScript
# file holds a catalog.
SCRIPT_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")
# Dependencies, build output, and tests with their fixtures: never the app's catalog.
SKIPPED_DIRS = frozenset({"node_modules", "dist", "build", "out", "coverage", "vendor",
                          "__tests__", "__mocks__", "mocks", "test", "tests", "fixtures",
                          "e2e"})
SKIPPED_FILE = re.compile(r"\.(d|test|spec|stories|mock)\.[cm]?tsx?$")
DECLARATION = re.compile(
    r"^[ \t]*(?:export[ \t]+)?const[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*\(?[ \t\n]*"
    r"([\[{])", re.MULTILINE)
# `registerNode({ type: … })`, `registry.register(startNode)`: a registration call whose
# first argument is a definition, written in place or a constant holding one.
CALL = re.compile(r"(?<![\w$])(?:[\w$]+\.)?(register[A-Za-z0-9_$]*)\s*(?:<[^<>()\n]*>)?\("
                  r"\s*"
                  r"(\{|[A-Za-z_$][\w$]*(?=\s*[,)]))")
# `defineNode({ type: … })`, `createBlock({…})`: a builder call whose object is a definition.
BUILDER = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?:<[^<>()\n]*>)?\(\s*\{")
# How every BUILDER match ends: a literal the regex engine jumps to, where BUILDER itself is
# tried at every identifier of the file (a fifth of init's scan on a 3,000-file app).
_OPEN_OBJECT = re.compile(r"\(\s*\{")
_SPACE = re.compile(r"\s")
_NAME_CHAR = re.compile(r"[\w$]")
# A builder is any function, so one call of it is no catalog: it takes this many.
MIN_BUILDER_CALLS = 2
MAX_FILE_BYTES = 2_000_000


def project_files(root: Path) -> Iterator[Path]:
    """Every file of the project, sorted, never entering dependencies, build output, hidden
    folders (a node_modules walk would cost more than the whole run) or vendored copies."""
    for folder, dirs, names in os.walk(root):
        if Path(folder) != root and vendored.vendored_dir(Path(folder), names):
            dirs[:] = []  # someone else's code, copied in: no evidence of the app's catalog
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        yield from (Path(folder) / name for name in sorted(names)
                    if not vendored.vendored_name(name))


def source_files(root: Path, suffixes: tuple[str, ...] = SOURCE_SUFFIXES) -> Iterator[Path]:
    """The project's TypeScript files, without declarations, tests or stories."""
    for path in project_files(root):
        if path.suffix in suffixes and not SKIPPED_FILE.search(path.name) \
                and path.stat().st_size <= MAX_FILE_BYTES:
            yield path


def classify(name: str, path: Path, line: int, opener: str, shape: Shape) -> Candidate | None:
    """A candidate when most entries look like definitions, or when it only spreads others."""
    form = "array" if opener == "[" else "object"
    keys = [k for k in shape.entry_keys if k & SHAPE_KEYS]
    type_keys = [t for t in (next((t for t in TYPE_KEYS if t in k), None) for k in keys) if t]
    # An array entry must say its type; an object's key is the type when its entry does not.
    looks = type_keys if form == "array" else keys
    if (looks and len(looks) * 2 >= shape.entries) or (shape.spreads and not shape.entries):
        return Candidate(name, path, line, form, shape.entries,
                         type_keys[0] if type_keys else None, tuple(shape.spreads))
    return None


def scan_calls(text: str, path: Path, helpers: Singles | None = None,
               schemas: frozenset[str] = frozenset()) -> list[Candidate]:
    """One candidate per registration call whose object says its type and shape (or names a
    constant holding one); `scan` merges the calls of one function into a single `call:NAME`
    candidate."""
    found = _builder_calls(text, path, schemas) if "({" in text.replace(" ", "") else []
    if "register" not in text:
        return found  # a plain substring test is far cheaper than the regex's scan
    for match in CALL.finditer(text):
        if match.group(2) == "{":
            keys = entry_keys(text, match.start(2))
            type_key = next((t for t in TYPE_KEYS if t in keys), None)
            type_key = type_key if keys & SHAPE_KEYS else None
        else:
            type_key = (helpers or {}).get(match.group(2), (None, False))[0]
        if type_key:
            line = text.count("\n", 0, match.start()) + 1
            found.append(Candidate(f"call:{match.group(1)}", path, line, "call", 1, type_key))
    return found


def _builder_calls(text: str, path: Path, schemas: frozenset[str] = frozenset()
                   ) -> list[Candidate]:
    """One candidate per call of a function other than `register…` whose object literal
    says its type and has handles or default data, and whose result is kept (assigned or
    exported)."""
    found = []
    for match in builder_matches(text):
        name = match.group(1)
        if name.startswith("register"):
            continue  # read by CALL, with the constant-argument form
        # A definition is kept (`const MathNode = defineNode({…})`); an event or a message
        # built in passing (`send({ type, data })`) is not.
        before = text[max(0, match.start() - 40):match.start()].rstrip()
        if not before.endswith(("=", "default")):
            continue
        members = classes.object_members(text, match.end() - 1)
        type_key = next((t for t in TYPE_KEYS if t in members), None)
        schema = zod_member(text, members, schemas)
        if type_key and (set(members) & SHAPE_KEYS or schema):
            line = text.count("\n", 0, match.start()) + 1
            said = Dialect(zod=schema, no_inputs="inputs" not in members,
                           no_outputs="outputs" not in members) if schema else None
            found.append(Candidate(f"call:{name}", path, line, "call", 1, type_key,
                                   dialect=said))
    return found


def builder_matches(text: str) -> Iterator[re.Match[str]]:
    """`BUILDER.finditer(text)`, found from each `({`: the name read back from it, then
    BUILDER matched there. The same matches: each ends at its `({`, and none starts inside
    another (a name inside a type argument is followed by `>`, not by `(`)."""
    for opening in _OPEN_OBJECT.finditer(text):
        start = _name_start(text, opening.start())
        match = BUILDER.match(text, start) if start is not None else None
        if match is not None and match.end() == opening.end():
            yield match


def _name_start(text: str, paren: int) -> int | None:
    """Where the name called at `paren` starts: before its `<…>` type arguments (written
    right before the parenthesis) and the spaces before them."""
    at = paren
    if at > 0 and text[at - 1] == ">":
        at -= 2
        while at >= 0 and text[at] not in "<>()\n":
            at -= 1
        if at < 0 or text[at] != "<":
            return None
    while at > 0 and _SPACE.match(text, at - 1):
        at -= 1
    end = at
    while at > 0 and _NAME_CHAR.match(text, at - 1):
        at -= 1
    return at if at < end else None


# `inputSchema: z.object({`: an entry member holding a zod schema written in place.
ZOD_CALL = re.compile(r"z\s*\.\s*(?:object|strictObject|looseObject)\s*\(")
# `const InputSchema = z.object({`: a constant holding one, which entries may name.
ZOD_CONSTANT = re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*"
                          + ZOD_CALL.pattern)
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def zod_constants(texts: dict[Path, str]) -> frozenset[str]:
    """The names of the zod object schemas the project declares as constants."""
    # ZOD_CALL (a literal `z` first, which the engine jumps to) finds the few files to scan.
    return frozenset(m.group(1) for text in texts.values() if ZOD_CALL.search(text)
                     for m in ZOD_CONSTANT.finditer(text))


def zod_member(text: str, members: dict[str, int], schemas: frozenset[str]) -> str | None:
    """The first entry member whose value is a zod object schema (the node's data), written
    in place or a constant of `schemas`, if any."""
    def is_schema(at: int) -> bool:
        name = IDENTIFIER.match(text, at)
        return bool(ZOD_CALL.match(text, at)) or (name is not None and name.group() in schemas)

    return next((key for key, at in members.items() if is_schema(at)), None)


def scan_text(text: str, path: Path, known: Singles | None = None,
              schemas: frozenset[str] = frozenset()) -> list[Candidate]:
    """The candidates declared at the top level of one file. `known`: the single definitions
    exported anywhere in the project, which this file may import into a registry."""
    top = TopLevel(text)
    helpers = {**forms.imported(text, known or {}), **forms.singles(text)}
    found = scan_calls(text, path, helpers, schemas) + classes.class_properties(text, path)
    found += classes.own_members(text, path)
    for match in DECLARATION.finditer(text):
        if not top.at(match.start(1)):
            continue  # a function's local, never a catalog
        shape, end = read_literal(text, match.start(2))
        # `[...OPS.map(mathNode), printNode]`, `{ a2a: A2ABlock, [b.id]: b }`: definitions
        # built elsewhere in the file or imported from the files that declare them.
        built = forms.built_entries(text[match.start(2):end], helpers, match.group(2))
        shape.entries += built
        shape.entry_keys += [{"type", "defaultData"}] * built
        line = text.count("\n", 0, match.start()) + 1
        candidate = classify(match.group(1), path, line, match.group(2), shape)
        if candidate is not None:
            candidate = entries.refine(candidate, text, match.start(2))
        if candidate is not None:
            found.append(candidate)
    declared = {c.name for c in found}
    found += [c for c in forms.mapped(text, path, helpers, top) if c.name not in declared]
    return sorted(found, key=lambda c: c.line)


def roots(candidates: list[Candidate]) -> list[Candidate]:
    """Catalogs, not their parts: a candidate no other candidate spreads in. One made only of
    spreads counts when it spreads some other candidate (else it is any `[...a, ...b]`)."""
    names = {c.name for c in candidates}
    kept = [c for c in candidates if c.entries or names & set(c.spreads)]
    used = {name for c in kept for name in c.spreads}
    return [c for c in kept if c.name not in used]


def merge_calls(candidates: list[Candidate], texts: dict[Path, str]) -> list[Candidate]:
    """The calls of one function as one candidate, anchored in the file that declares it."""
    merged = []
    for name, found in grouped(candidates, "call").items():
        function = name.removeprefix("call:")
        if not function.startswith("register"):
            if len(found) >= MIN_BUILDER_CALLS:
                merged.append(_busiest(name, found))
            continue
        declares = re.compile(rf"(?:function|const|let)\s+{re.escape(function)}\b")
        home = next((p for p, t in texts.items() if declares.search(t)), found[0].path)
        merged.append(Candidate(name, home, found[0].line, "call", len(found), found[0].type_key))
    return [c for c in candidates if c.form != "call"] + merged


def _busiest(name: str, found: list[Candidate]) -> Candidate:
    """A builder's calls as one candidate, anchored in the folder holding most of them: a
    builder a library declares is called in the app, whose tsconfig lists the calls (the
    library's own tests call it too). Only the calls the busiest project config covers count:
    a script at the root calling the builder a few times is not the app."""
    configs = {c.path: nearest_tsconfig(c.path) for c in found}
    config = Counter(configs.values()).most_common(1)[0][0]
    found = [c for c in found if configs[c.path] == config]
    folder = Counter(c.path.parent for c in found).most_common(1)[0][0]
    first = next(c for c in found if c.path.parent == folder)
    return Candidate(name, first.path, first.line, "call", len(found), first.type_key,
                     dialect=classes.merged_dialect(found))


def nearest_tsconfig(path: Path, root: Path | None = None) -> Path | None:
    """The tsconfig.json the extractor uses for a file by default: the nearest one above it
    (not above `root`), or for a JavaScript file a jsconfig.json where no tsconfig.json is."""
    for folder in path.resolve().parents:
        # The extractor looks for tsconfig.json only, so a jsconfig.json must be named.
        candidate = folder / "tsconfig.json"
        if not candidate.is_file() and path.suffix in SCRIPT_SUFFIXES:
            candidate = folder / "jsconfig.json"
        if candidate.is_file():
            return candidate
        if root is not None and folder == root.resolve():
            return None
    return None


# Within `sources_remembered()`: (root, suffixes) → the texts read, in this process.
_read: dict[tuple[Path, tuple[str, ...]], dict[Path, str]] | None = None


@contextlib.contextmanager
def sources_remembered() -> Iterator[None]:
    """Within it, the project's sources are read once: `pygen init` read them four times (its
    scan, the legacy types twice, the load-step maps). Only init uses it: its run is short
    and writes no source file."""
    global _read
    outer, _read = _read, {} if _read is None else _read
    try:
        yield
    finally:
        _read = outer


def read_sources(root: Path, suffixes: tuple[str, ...] = SOURCE_SUFFIXES) -> dict[Path, str]:
    if _read is None:
        return _read_sources(root, suffixes)
    key = (root.resolve(), suffixes)
    if key not in _read:
        _read[key] = _read_sources(root, suffixes)
    return dict(_read[key])  # the caller's own dict (the texts are immutable)


def _read_sources(root: Path, suffixes: tuple[str, ...]) -> dict[Path, str]:
    texts: dict[Path, str] = {}
    for path in source_files(root, suffixes):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # not the project's source text: nothing to offer from it
        if not vendored.vendored_text(text):
            texts[path] = text  # a minified or bundled copy is no one's catalog source
    return texts


def scan(root: Path) -> list[Candidate]:
    """Every root catalog candidate under `root`, in file order (calls last); in the
    JavaScript files when the TypeScript ones hold none."""
    return scan_sources(root, read_sources(root)) or scan_sources(
        root, read_sources(root, SCRIPT_SUFFIXES))


def scan_sources(root: Path, texts: dict[Path, str]) -> list[Candidate]:
    known = forms.exported_singles(texts)
    schemas = zod_constants(texts)
    found: list[Candidate] = []
    for path, text in texts.items():
        found += scan_text(text, path, known, schemas)
    # The classes of one catalog anchor in the file they all import (their contract).
    homes = {name: forms.shared_import([c.path for c in group], texts)
             for name, group in grouped(found, "class").items() if len(group) > 1}
    home = {name: path for name, path in homes.items() if path is not None}
    found = roots(classes.merge_classes(merge_calls(found, texts), home))
    found += forms.file_globs(texts, root)
    # Where the editor hands its types to a canvas library (ranked like any other candidate).
    found += registrations.candidates(texts, root)
    return found or forms.sibling_exports(texts, root)
