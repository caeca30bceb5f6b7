"""Catalogs of classes, read from the text: a class whose own members are the entry
(`class:*`: `this.name = …; this.inputs = [...]` in the constructor, or property
initializers), and a class property holding the entry (`class:description`), versions
included. Each says its dialect: which member is the label, whether a member is a list of
field descriptors (and which preset reads them), which key tells versions apart."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from pygen.extract import fieldlist
from pygen.init.literals import (
    KEY,
    SHAPE_KEYS,
    TYPE_KEYS,
    Candidate,
    Dialect,
    grouped,
    read_literal,
)
from pygen.init.toplevel import code_stops

# A class names a node by `name` as often as by `type` (component libraries).
CLASS_TYPE_KEYS = (*TYPE_KEYS, "name")
CLASS = re.compile(r"\bclass\s+[A-Za-z_$]")
# `label = "Chat";`, `inputs: Param[] = [`, `this.name = "chat"`: a member and its value.
MEMBER = re.compile(
    r"^[ \t]+(?:(?:public|protected|private|readonly|override)[ \t]+)*([A-Za-z_$][\w$]*)"
    r"[ \t]*[?!]?[ \t]*(?::[^=\n;]+)?=(?![=>])[ \t]*"
    r"|this\.([A-Za-z_$][\w$]*)[ \t]*=(?![=>])[ \t]*", re.MULTILINE)
# Which keys a field descriptor carries in each dialect the field-list reader knows: the
# descriptor's own key names are the evidence, never the app's names.
PRESETS = (("n8n", frozenset({"displayName", "name", "type"})),
           ("flowise", frozenset({"label", "name", "type"})))
LABEL_OF = {"n8n": "displayName", "flowise": "label"}
# The entry key n8n-style descriptions group nodes by (an array of group names).
GROUP_OF = {"n8n": "group"}
_STOP = re.compile(r"[\"'`\[\]{}(),]|//|/\*")
# What a class declares it is: `class X extends Base<T> implements INode, Other {`.
HERITAGE = re.compile(
    r"\bclass\s+[A-Za-z_$][\w$]*\s*(?:<[^{]*?>)?\s*((?:extends|implements)[^{]*)\{")
_HERITAGE_NAME = re.compile(r"(?:extends|implements|,)\s*([A-Za-z_$][\w$.]*)")


def preset_of(text: str, start: int) -> str | None:
    """The preset reading the array literal at `start` as a field list: most of its entries
    carry that dialect's descriptor keys. None when it is no list of descriptors."""
    if not text.startswith("[", start):
        return None
    shape, _ = read_literal(text, start)
    for name, keys in PRESETS:
        if shape.entry_keys and 2 * sum(keys <= k for k in shape.entry_keys) >= shape.entries:
            return name
    return None


def object_members(text: str, start: int) -> dict[str, int]:
    """The keys of the object literal at `start` (its own level) → where each value starts."""
    members: dict[str, int] = {}
    depth = 0
    for i in code_stops(text, _STOP, start):
        char = text[i]
        if char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
            if depth == 0:
                break
        if char in "{," and depth == 1:
            key = KEY.match(text, i + 1)
            if key and key.group(2):
                members.setdefault(key.group(2), _skip_space(text, key.end()))
    return members


def _skip_space(text: str, at: int) -> int:
    return len(text) - len(text[at:].lstrip())


def class_members(text: str) -> dict[str, int]:
    """Every class member the text assigns (`x = …`, `this.x = …`) → where its value starts."""
    members: dict[str, int] = {}
    for match in MEMBER.finditer(text):
        members.setdefault(match.group(1) or match.group(2), match.end())
    return members


def dialect(members: dict[str, int], text: str) -> Dialect:
    """What an entry's members say: its field list (the first member holding descriptors),
    the label and group keys of that dialect, the version key, the handle sides it lacks."""
    field_list, preset = next(((k, p) for k, at in members.items()
                               if (p := preset_of(text, at)) is not None), (None, None))
    label = LABEL_OF.get(preset or "")
    group = GROUP_OF.get(preset or "")
    return Dialect(label=label if label in members else None,
                   category=group if group in members else None,
                   field_list=field_list, preset=preset,
                   variant_field=_version_key(members, field_list, preset),
                   no_inputs=field_list == "inputs" or "inputs" not in members,
                   no_outputs=field_list == "outputs" or "outputs" not in members)


def _version_key(members: dict[str, int], field_list: str | None,
                 preset: str | None) -> str | None:
    """`version` when this entry says its version and either takes its name from elsewhere (a
    spread base description: one version of a node) or its dialect's fields name versions
    (`@version`): one class serving several versions is then read per version."""
    named = any(k in members for k in CLASS_TYPE_KEYS)
    per_version = fieldlist.PRESETS.get(preset, {}).get("version") is not None
    return "version" if field_list and "version" in members and (
        not named or per_version) else None


def _type_key(members: dict[str, int], found: Dialect) -> str | None:
    # A field-list dialect names the node as it names a descriptor: by `name`.
    if found.field_list and ("name" in members or found.variant_field):
        return "name"
    return next((t for t in CLASS_TYPE_KEYS if t in members), None)


def own_members(text: str, path: Path) -> list[Candidate]:
    """`class:*`: a file whose class members name a type and hold a field list or handles."""
    if "class" not in text or not CLASS.search(text):
        return []
    members = class_members(text)
    found = dialect(members, text)
    key = _type_key(members, found)
    if key is None or not (found.field_list or (set(members) & SHAPE_KEYS and "label" in members)):
        return []
    first = CLASS.search(text)
    line = text.count("\n", 0, first.start()) + 1 if first else 1
    return [Candidate("class:*", path, line, "class", 1, key, dialect=found,
                      heritage=heritage(text))]


def heritage(text: str) -> frozenset[str]:
    """The interfaces and base classes the text's classes name (generic arguments left out)."""
    clauses = (re.sub(r"<[^<>]*>", "", m.group(1)) for m in HERITAGE.finditer(text))
    return frozenset(n.group(1) for c in clauses for n in _HERITAGE_NAME.finditer(c))


def heritage_filter(found: list[Candidate]) -> str | None:
    """The interface or base most of the classes declare when some do not (Flowise's
    credentials beside its nodes): `class:*:<it>` keeps only the classes that are one."""
    counted = Counter(name for c in found for name in c.heritage)
    if not counted:
        return None
    name, count = counted.most_common(1)[0]
    return name if len(found) > count and 2 * count >= len(found) else None


PROPERTY = re.compile(
    r"^[ \t]+(?:(?:public|protected|private|readonly|override|declare)[ \t]+)*"
    r"([A-Za-z_$][\w$]*)[ \t]*[?!]?[ \t]*(?::[^=\n]+)?=[ \t]*(\{)"
    r"|this\.([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(\{)", re.MULTILINE)


def class_properties(text: str, path: Path) -> list[Candidate]:
    """`class:NAME`: one candidate per class property (or `this.x = {…}`) holding an entry,
    which names its type and has handles, default data or a field list (a version's entry
    may take its name from a spread base description)."""
    if not CLASS.search(text):
        return []
    found = []
    for match in PROPERTY.finditer(text):
        name, at = (match.group(1), match.start(2)) if match.group(1) else (
            match.group(3), match.start(4))
        members = object_members(text, at)
        said = dialect(members, text)
        key = _type_key(members, said)
        if key and (set(members) & SHAPE_KEYS or said.field_list):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Candidate(f"class:{name}", path, line, "class", 1, key, dialect=said))
    return found


def merged_dialect(found: list[Candidate]) -> Dialect | None:
    """One dialect for the classes of one candidate: the most common field list and preset,
    a version key when any entry has one, a handle side off only when every entry lacks it."""
    said = [c.dialect for c in found if c.dialect is not None]
    if not said:
        return None
    lists = Counter((d.field_list, d.preset) for d in said if d.field_list)
    field_list, preset = lists.most_common(1)[0][0] if lists else (None, None)
    return Dialect(label=_common(d.label for d in said),
                   category=_common(d.category for d in said),
                   field_list=field_list, preset=preset,
                   variant_field=_common(d.variant_field for d in said),
                   no_inputs=all(d.no_inputs for d in said),
                   no_outputs=all(d.no_outputs for d in said),
                   zod=_common(d.zod for d in said))


def _common(values: Iterable[str | None]) -> str | None:
    counted = Counter(v for v in values if v)
    return counted.most_common(1)[0][0] if counted else None


def merge_classes(candidates: list[Candidate], home: dict[str, Path]) -> list[Candidate]:
    """The classes of one name as one candidate, anchored in the index.ts of their folder
    (the library's entry) when there is one, else `home[name]` (the file the classes all
    import), else the first file.
    `class:*` needs two classes at least: one class is no catalog."""
    merged = []
    for name, found in grouped(candidates, "class").items():
        if name == "class:*" and len(found) < 2:
            continue
        index = found[0].path.parent / "index.ts"
        path, line = (index, 1) if index.is_file() else (
            (home[name], 1) if name in home else (found[0].path, found[0].line))
        key = Counter(c.type_key for c in found).most_common(1)[0][0]
        only = heritage_filter(found) if name == "class:*" else None
        merged.append(Candidate(f"{name}:{only}" if only else name, path, line, "class",
                                len(found), key, dialect=merged_dialect(found)))
    return [c for c in candidates if c.form != "class"] + merged
