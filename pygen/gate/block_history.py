"""What a run changes in a file's generated blocks: the names pygen wrote there before this
run and no longer writes (retired), and the ones it now writes (added)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pygen.errors import MarkerError
from pygen.gate.prose import IDENT, candidate, code
from pygen.skills import markers
from pygen.skills.render import EXAMPLES_BLOCK

FIELD_DECL = re.compile(r"^\s*([A-Za-z_$][A-Za-z0-9_$-]*)\??\s*:")
QUOTED = re.compile(r"\"([^\"\n]+)\"")
JSON_KEY = re.compile(r"\"([A-Za-z_$][A-Za-z0-9_$-]*)\"\s*:")


def block_names(body: str) -> set[str]:
    """Names in a generated block: identifier spans, `name: type` spans, quoted values (in
    spans and in fenced code: a worked example's ids and handles), keys."""
    names = set(JSON_KEY.findall(body))
    spans, fenced = code(body)
    for content in fenced:
        names.update(v for v in QUOTED.findall(content) if IDENT.fullmatch(v))
    for _, content in spans:
        token = candidate(content)
        if token:
            names.add(token)
        declared = FIELD_DECL.match(content)
        if declared:
            names.add(declared.group(1))
        names.update(v for v in QUOTED.findall(content) if IDENT.fullmatch(v))
    return names


@dataclass(frozen=True)
class History:
    """What this run changes in a file's blocks: names that left them, names that came."""

    retired: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()
    # Of `retired`, the names that left only the worked example, which shows the node's
    # neighbours: such a name may be another node's, not this one's.
    example_only: frozenset[str] = frozenset()


NO_CHANGES = History()


def history(old: str | None, new: str, path: str) -> History:
    if old is None or old == new:
        return NO_CHANGES  # (no block changed: nothing to parse, most files of a check)
    try:
        before = {b.id: b.body for b in markers.parse(old, path)}
        after = {b.id: b.body for b in markers.parse(new, path)}
    except MarkerError:
        return NO_CHANGES
    gone: dict[str, set[str]] = {}
    came: set[str] = set()
    for block_id, body in before.items():
        # An unchanged block changes no name (a check plans every block as it is).
        if block_id in after and after[block_id] != body:
            old_names, new_names = block_names(body), block_names(after[block_id])
            gone[block_id] = old_names - new_names
            came |= new_names - old_names
    retired = set().union(*gone.values())
    elsewhere = set().union(*(names for b, names in gone.items() if b != EXAMPLES_BLOCK))
    return History(frozenset(retired), frozenset(came), frozenset(retired - elsewhere))
