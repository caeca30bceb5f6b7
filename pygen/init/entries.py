"""What a literal catalog's entries hold, told by their values rather than their key names:
which entry key holds the node type (identifier-like strings, one per entry), which the label
(short human-readable text), and which member is a list of field descriptors (the node's data,
in a form builder's dialect).

A catalog names its type `type` as often as `id`, `typeName` or `key`, and `type` may hold a
category shared by many entries (`action | trigger`): the values settle it, not the name.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from pygen.init.classes import object_members, preset_of
from pygen.init.literals import SHAPE_KEYS, Candidate, Dialect, read_literal
from pygen.init.toplevel import code_stops

# Judging keys by their values needs a few entries: below this the names decide.
MIN_ENTRIES = 3
# A key is an entry's own when most entries carry it as a plain string.
PRESENT = 0.8
# A type is one entry's: nearly all values distinct (versions of one node may repeat one).
DISTINCT = 0.9
# A label is short: a description runs longer.
LABEL_WORDS = 6.0
IDENTIFIER_VALUE = re.compile(r"[A-Za-z_$@][\w$.:/@-]*\Z")
STRING_VALUE = re.compile(r"""(["'])((?:\\.|(?!\1)[^\\\n])*)\1|`([^`$\\]*)`""")
_STOP = re.compile(r"[\"'`\[\]{}(),]|//|/\*")
# Descriptor keys naming the field a descriptor describes, and holding its default, by how
# form builders spell them (`{key, label, type, defaultValue}`, `{name, type, default}`).
NAME_KEYS = ("name", "key", "field", "id")
DEFAULT_KEYS = ("default", "defaultValue", "initialValue", "value")
LABEL_KEYS = ("label", "displayName", "title")


@dataclass(frozen=True)
class Entry:
    """One entry of a literal: its key in an object literal, its members in written order
    (→ where each value starts), and the members holding plain strings."""

    key: str | None
    members: dict[str, int]
    strings: dict[str, str]


def read(text: str, start: int) -> list[Entry]:
    """The object-literal entries of the array or object literal opening at `start`."""
    starts: list[tuple[str | None, int]]
    if text.startswith("{", start):
        starts = [(key, at) for key, at in object_members(text, start).items()
                  if text.startswith("{", at)]
    else:
        starts = [(None, at) for at in _array_objects(text, start)]
    found = []
    for key, at in starts:
        members = object_members(text, at)
        strings = {k: v for k, v_at in members.items() if (v := _string(text, v_at)) is not None}
        found.append(Entry(key, members, strings))
    return found


def _array_objects(text: str, start: int) -> list[int]:
    """Where each `{` entry of the array literal at `start` opens."""
    found, depth = [], 0
    for i in code_stops(text, _STOP, start):
        char = text[i]
        if char in "[{(":
            if depth == 1 and char == "{":
                found.append(i)
            depth += 1
        elif char in "]})":
            depth -= 1
            if depth == 0:
                break
    return found


def _string(text: str, at: int) -> str | None:
    match = STRING_VALUE.match(text, at)
    if match is None:
        return None
    return match.group(2) if match.group(3) is None else match.group(3)


def _values(entries: list[Entry], key: str) -> list[str]:
    return [e.strings[key] for e in entries if key in e.strings]


def _identifying(entries: list[Entry], key: str) -> bool:
    """Whether the key holds one identifier-like string per entry, nearly all distinct."""
    values = _values(entries, key)
    return (len(values) >= PRESENT * len(entries)
            and all(IDENTIFIER_VALUE.match(v) for v in values)
            and len(set(values)) >= DISTINCT * len(values))


def _position(entries: list[Entry], key: str) -> float:
    """The key's mean place among its entry's members (a type is written early)."""
    places = [list(e.members).index(key) for e in entries if key in e.members]
    return sum(places) / len(places) if places else float("inf")


def type_key(entries: list[Entry], current: str | None) -> str | None:
    """The entry key holding the node type. The key named like a type stays when its values
    tell the entries apart; in an object filed by type, a key repeating the object key in
    most entries is the type when the named one does not (it holds a category). An array's
    named key always stays: a list of placed nodes (a diagram's `initialNodes`) has a unique
    `id` per entry and one shared `type`, and presets have ids too."""
    if len(entries) < MIN_ENTRIES or current is None or _identifying(entries, current):
        return current
    keyed = [e for e in entries if e.key is not None]
    if len(keyed) < PRESENT * len(entries):
        return current
    keys = sorted(k for k in {k for e in entries for k in e.strings} - {current}
                  if _identifying(entries, k)
                  and sum(1 for e in keyed if e.strings.get(k) == e.key) >= PRESENT * len(keyed))
    return min(keys, key=lambda k: (_position(entries, k), k)) if keys else current


def _readable(values: list[str]) -> bool:
    """Short human text: some values of several words (an icon or id name never has a
    space), none over LABEL_WORDS words on average (a description runs longer)."""
    words = sum(len(v.split()) for v in values) / len(values)
    return any(" " in v.strip() for v in values) and words <= LABEL_WORDS


def _words(entries: list[Entry], key: str) -> float:
    values = _values(entries, key)
    return sum(len(v.split()) for v in values) / len(values)


def label_key(entries: list[Entry], type_key: str | None) -> str | None:
    """The entry key holding the label when the entries carry no `label`: of the keys whose
    values are short human text, mostly distinct, the tersest (a label is shorter than the
    description beside it), then the one written earliest."""
    if len(entries) < MIN_ENTRIES or sum(1 for e in entries if "label" in e.members) \
            * 2 >= len(entries):
        return None
    keys = []
    for key in {k for e in entries for k in e.strings} - {type_key}:
        values = _values(entries, key)
        if len(values) >= PRESENT * len(entries) and _readable(values) \
                and len(set(values)) >= DISTINCT * len(values):
            keys.append(key)
    return min(keys, key=lambda k: (_words(entries, k), _position(entries, k), k)) \
        if keys else None


@dataclass(frozen=True)
class FieldKeys:
    """An entry member holding field descriptors, and the descriptor keys that differ from
    the generic dialect's (`name` → `key`, `default` → `defaultValue`), or a preset."""

    member: str
    preset: str | None
    keys: tuple[tuple[str, str], ...]


def field_list(text: str, entries: list[Entry]) -> FieldKeys | None:
    """The member most entries hold descriptors in (`[{key, label, type, …}]`), if any: a
    list of objects each naming a field and its type. Entries with an empty list count for
    it; a member holding anything else in more entries than descriptors does not, nor a
    handle member (`inputs: [{name, type}]` are ports in a literal catalog)."""
    lists: Counter[str] = Counter()
    other: Counter[str] = Counter()
    descriptors: list[set[str]] = []
    for entry in entries:
        for member, at in entry.members.items():
            if member in SHAPE_KEYS:
                continue  # a literal's `inputs`/`outputs` of `{name, type}` are its handles
            if text.startswith("{", at):
                # A record of descriptors (`configSchema: {to: {type, label}}`): each key
                # names its field, as the field-list reader takes it.
                count = len(object_members(text, at))
                described = [set(d.members) for d in read(text, at) if "type" in d.members]
            elif text.startswith("[", at):
                shape, _ = read_literal(text, at)
                count = shape.entries
                described = [k for k in shape.entry_keys if "type" in k and k & set(NAME_KEYS)]
            else:
                continue
            if described and 2 * len(described) >= count:
                lists[member] += 1
                descriptors += described
            elif count:
                other[member] += 1
    # Carried (if empty) by most entries: a member a few entries hold is theirs, not the
    # catalog's way of describing data.
    best = next((m for m, n in lists.most_common() if n >= 2 and n > other[m]
                 and sum(1 for e in entries if m in e.members) >= PRESENT * len(entries)),
                None)
    if best is None:
        return None
    # n8n's descriptors carry its own keys (displayName, displayOptions): its preset reads
    # them; any other list is read by the generic dialect with the keys it spells otherwise.
    presets = {preset_of(text, e.members[best]) for e in entries if best in e.members}
    preset = "n8n" if "n8n" in presets else None
    return FieldKeys(best, preset, () if preset else _generic_keys(descriptors))


def _generic_keys(descriptors: list[set[str]]) -> tuple[tuple[str, str], ...]:
    """The generic dialect's keys this list spells otherwise: the commonest of each kind."""
    found = []
    for role, spellings, usual in (("name", NAME_KEYS, "name"), ("default", DEFAULT_KEYS,
                                                                   "default"),
                                   ("label", LABEL_KEYS, "label")):
        counted = Counter(k for d in descriptors for k in d if k in spellings)
        if counted:
            spelled = max(spellings, key=lambda k: (counted[k], -spellings.index(k)))
            if counted[spelled] and spelled != usual:
                found.append((role, spelled))
    return tuple(found)


def _field_names(text: str, at: int | None, name: str) -> set[str]:
    """The field names a field list at `at` gives: a record's keys, or a list's `name` values."""
    if at is None:
        return set()
    if text.startswith("{", at):
        return {d.key for d in read(text, at) if d.key}
    if text.startswith("[", at):
        return {d.strings[name] for d in read(text, at) if name in d.strings}
    return set()


def default_key(text: str, entries: list[Entry], fields: FieldKeys) -> str | None:
    """The member holding the node's default data, when it is not `defaultData`: an object
    literal whose keys are fields the entry's own field list names, in most entries whose
    list names any (`defaultConfig: {time, timezone}` beside descriptors of both)."""
    if any("defaultData" in e.members for e in entries):
        return None
    name = dict(fields.keys).get("name", "name")
    votes: Counter[str] = Counter()
    seen = 0
    for entry in entries:
        names = _field_names(text, entry.members.get(fields.member), name)
        if not names:
            continue
        seen += 1
        for member, value_at in entry.members.items():
            keys = set(object_members(text, value_at)) if member != fields.member \
                and text.startswith("{", value_at) else set()
            if keys and 2 * len(keys & names) >= len(keys):
                votes[member] += 1
    best = votes.most_common(1)
    return best[0][0] if best and best[0][1] >= 2 and 2 * best[0][1] >= seen else None


def refine(candidate: Candidate, text: str, start: int) -> Candidate:
    """The candidate with the type key, label key and field list its entries' values show."""
    entries = read(text, start)
    said = candidate.dialect or Dialect()
    key = type_key(entries, candidate.type_key)
    label = said.label or label_key(entries, key)
    fields = field_list(text, entries) \
        if said.field_list is None and len(entries) >= MIN_ENTRIES else None
    if fields is not None:
        said = replace(said, field_list=fields.member, preset=fields.preset,
                       field_keys=fields.keys, default_data=default_key(text, entries, fields))
    said = replace(said, label=label)
    return replace(candidate, type_key=key, dialect=None if said == Dialect() else said)

