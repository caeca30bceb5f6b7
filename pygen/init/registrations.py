"""Where an editor hands its node types to a canvas library: `LiteGraph.registerNodeType(…)`,
LogicFlow's `lf.register({type, view, model})`, React Flow's `nodeTypes = {llm: LLMNode}`.
Each library's call shapes are data (js/lib/registries.json, which the extractor reads too);
this module only finds, by reading the text, which libraries a project registers nodes with,
as `registrations:<library>` candidates the real extractor then confirms.

Evidence: a file counts only when it imports the library (or, for a library whose objects are
handed to the code, Node-RED's `RED`, when it lies in a package the project's package.json
map lists and calls the registration on that global), and a registration only when its type
is written as a string literal or a name (a constant, a loop variable): a computed type is no
evidence here, and the extractor says "not declared" for it."""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pygen.extract import registries
from pygen.init.literals import Candidate
from pygen.init.toplevel import code_stops

IMPORT = re.compile(r"(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|\bimport\s+)"
                    r"[\"']([^\"']+)[\"']")
# A type argument written as a literal or a name: `"math/sum"`, `MULTIPLY`, `kind`.
TYPE_WRITTEN = re.compile(r"\s*(?:[\"'`]|[A-Za-z_$])")
_DEPTH = re.compile(r"[\"'`{}\[\](),]|//|/\*")
# One registration is no catalog: a React Flow map `{ custom: CustomNode }` whose one
# component draws every type (the catalog is elsewhere) would be a false one-node catalog.
MIN_REGISTRATIONS = 2


@dataclass(frozen=True)
class Call:
    callee: str
    receiver: str | None
    bare: bool
    type_arg: int
    when: str | None
    # The type is this key of the argument's object (`register({shape: "input", …})`).
    type_key: str | None = None


@dataclass(frozen=True)
class Library:
    name: str
    modules: tuple[str, ...]
    calls: tuple[Call, ...]
    annotations: tuple[str, ...]
    jsx_attributes: tuple[str, ...]
    # Names the library hands the code (`RED`), and the package.json key listing node files.
    globals: tuple[str, ...] = ()
    package_map: str | None = None


@functools.cache
def libraries() -> tuple[Library, ...]:
    """The libraries of registries.json, in its order."""
    data = registries.raw()
    found = []
    for lib in data["libraries"]:
        calls = tuple(Call(c["callee"], c.get("receiver"), bool(c.get("bare")), c["type"]["arg"],
                           (c.get("when") or {}).get("text"), c["type"].get("key"))
                      for c in lib.get("calls", ()))
        maps = lib.get("maps", ())
        found.append(Library(lib["library"], tuple(lib["modules"]), calls,
                             tuple(a for m in maps for a in m.get("annotations", ())),
                             tuple(m["jsx_attribute"] for m in maps if m.get("jsx_attribute")),
                             tuple(lib.get("globals", ())), lib.get("package_map")))
    return tuple(found)


def imports(text: str, lib: Library) -> bool:
    """Whether the file imports (or requires) one of the library's modules or subpaths."""
    return any(spec == m or spec.startswith(f"{m}/")
               for spec in import_specs(text) for m in lib.modules)


@functools.lru_cache(maxsize=32768)
def import_specs(text: str) -> tuple[str, ...]:
    """The module specifiers the file imports, in order. Cached: asked once per library of
    registries.json, the regex's scan of every file was a third of init's scan on a
    3,000-file app."""
    return tuple(x.group(1) for x in IMPORT.finditer(text))


def _call_pattern(call: Call) -> re.Pattern[str]:
    receiver = (rf"(?<![\w$]){re.escape(call.receiver)}\s*\.\s*" if call.receiver
                else r"(?<![\w$.])" if call.bare else r"(?<![\w$])(?:[\w$]+\s*\.\s*)?")
    return re.compile(receiver + re.escape(call.callee) + r"\s*(?:<[^<>()\n]*>)?\(")


def arguments_at(text: str, start: int) -> list[int]:
    """Where each argument of the call whose `(` is at `start - 1` begins."""
    found, depth = [start], 0
    for i in code_stops(text, _DEPTH, start):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return found
            depth -= 1
        elif char == "," and depth == 0:
            found.append(i + 1)
    return found


def call_sites(text: str, lib: Library, on_global: bool = False) -> list[int]:
    """Offsets of the registrations in one file whose type is written as a literal or name;
    `on_global`: only those whose receiver starts with one of the library's globals."""
    sites = []
    for call in lib.calls:
        if call.callee not in text:
            continue
        for match in _call_pattern(call).finditer(text):
            if on_global and not _on_global(text, match.start(), lib):
                continue
            args = arguments_at(text, match.end())
            if call.when is not None and (not args or not text[args[0]:].lstrip()
                                          .startswith(call.when)):
                continue
            if len(args) > call.type_arg and _type_written(text, args[call.type_arg], call):
                sites.append(match.start())
    return sorted(set(sites))


def _on_global(text: str, at: int, lib: Library) -> bool:
    """Whether the receiver written at `at` (`nodes.registerType`) hangs off a global
    (`RED.nodes.registerType`)."""
    before = text[max(0, at - 80):at]
    return any(re.search(rf"(?<![\w$.]){re.escape(g)}\s*\.\s*$", before) for g in lib.globals)


def _type_written(text: str, at: int, call: Call) -> bool:
    """Whether the type argument at `at` is a literal or a name (or, for a keyed type, an
    object saying that key, or a name holding one)."""
    if call.type_key is None or not text[at:].lstrip().startswith("{"):
        return bool(TYPE_WRITTEN.match(text, at))
    end = text.find("}", at)
    return re.search(rf"[{{,]\s*{re.escape(call.type_key)}\s*:", text[at:end]) is not None


def object_keys(text: str, start: int) -> int:
    """How many members the object literal opening at `start` has (its top-level commas)."""
    commas: list[int] = []
    depth = 0
    for i in code_stops(text, _DEPTH, start):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                if not _code(text[start + 1:i]):
                    return 0
                trailing = bool(commas) and not _code(text[commas[-1] + 1:i])
                return len(commas) + 1 - trailing
        elif char == "," and depth == 1:
            commas.append(i)
    return 0


def _code(text: str) -> bool:
    """Whether a span holds more than blanks and comments."""
    return bool(re.sub(r"//[^\n]*|/\*[\s\S]*?\*/", "", text).strip())


def map_sites(text: str, lib: Library) -> list[tuple[int, int]]:
    """(offset, keys) of each type map in one file: a constant annotated with the library's
    map type, or a JSX attribute given an object (in place, or a constant of the file)."""
    found: dict[int, tuple[int, int]] = {}
    for name in lib.annotations:
        if name not in text:
            continue
        pattern = re.compile(rf"\bconst\s+([\w$]+)\s*:\s*(?:[\w$]+\.)?{re.escape(name)}\s*=\s*\{{")
        for m in pattern.finditer(text):
            found[m.end() - 1] = (m.start(), object_keys(text, m.end() - 1))
    for attr in lib.jsx_attributes:
        for m in re.finditer(rf"\b{re.escape(attr)}=\{{\s*(\{{|[\w$]+)", text):
            at = m.start(1) if m.group(1) == "{" else _constant_object(text, m.group(1))
            if at is not None and at not in found:
                found[at] = (m.start(), object_keys(text, at))
    return [site for site in found.values() if site[1]]


def _constant_object(text: str, name: str) -> int | None:
    m = re.search(rf"\bconst\s+{re.escape(name)}\s*(?::[^=\n]+)?=\s*\{{", text)
    return m.end() - 1 if m else None


def candidates(texts: dict[Path, str], root: Path | None = None) -> list[Candidate]:
    """One `registrations:<library>` candidate per library the project registers nodes with,
    anchored in the file holding most of its registrations. `root`: where the package.json
    maps a library declares its node packages with are looked for."""
    found = []
    for lib in libraries():
        counts: Counter[Path] = Counter()
        first: dict[Path, int] = {}
        folders = registries.declared_folders(root, lib.package_map) \
            if root is not None and lib.package_map and lib.globals else ()
        for path, text in texts.items():
            if imports(text, lib):
                sites = call_sites(text, lib) + [at for at, keys in map_sites(text, lib)
                                                 for _ in range(keys)]
            elif any(path.resolve().is_relative_to(folder) for folder in folders):
                sites = call_sites(text, lib, on_global=True)
            else:
                continue
            if sites:
                counts[path] = len(sites)
                first[path] = text.count("\n", 0, min(sites)) + 1
        if sum(counts.values()) >= MIN_REGISTRATIONS:
            home = max(sorted(counts), key=lambda p: counts[p])
            found.append(Candidate(f"registrations:{lib.name}", home, first[home],
                                   "registrations", sum(counts.values()), "type"))
    return found
