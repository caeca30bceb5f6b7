"""The handles of a catalog indexed once, so finding a node's neighbour is a lookup.

A worked example wires a node to the first other node type whose handle names the same thing
(`_stem`: `videos` and `video` alike) and that the declared handle types and connection rules
allow. Comparing every node with every other made rendering quadratic in the catalog size;
the index lists, per stem, the candidate handles in catalog order (node order, then handle
order), so the first allowed candidate is the one a full scan would have found, and the
output stays the same.

Within a stem, candidates are also indexed by their declared handle type and by the names a
connection rule can call them by (node type, handle type or id): a search walks only those
the searching handle's type and rule allow. What no index can rule out (the candidate's own
rule refusing this node) is tried one by one, at most `MAX_EXAMINED` per search, so a catalog
whose rules refuse every candidate still renders in time linear in its size.

The index is a value the caller builds once per run (pygen.skills.plan) and passes down;
nothing is kept between calls.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from pygen.model import WILDCARDS, Handle, Model, NodeDef, type_members
from pygen.suggest import words

# A candidate: the node and one of its handles.
Candidate = tuple[NodeDef, Handle]
# Candidates one search tries after the indexes: far more than a real catalog's rules refuse
# before the first allowed one, few enough that refusing all of them costs nothing.
MAX_EXAMINED = 64


def stem(handle_id: str) -> str:
    """`videos` and `video` name the same thing flowing."""
    joined = "".join(words(handle_id))
    return joined[:-1] if joined.endswith("s") and len(joined) > 3 else joined


def _closed(members: set[str]) -> bool:
    """A declared type or rule that names no wildcard (so it can refuse)."""
    return not members & WILDCARDS


@dataclass
class Bucket:
    """Candidates in catalog order, with their positions by handle type member (`open`: no
    declared type, or a wildcard) and by every name a rule can allow them by."""

    entries: list[Candidate] = field(default_factory=list)
    by_type: dict[str, list[int]] = field(default_factory=dict)
    open: list[int] = field(default_factory=list)
    by_name: dict[str, list[int]] = field(default_factory=dict)

    def add(self, node: NodeDef, handle: Handle) -> None:
        at = len(self.entries)
        self.entries.append((node, handle))
        members = type_members(handle.type) if handle.type else set()
        if not handle.type or not _closed(members):
            self.open.append(at)
        for member in sorted(members):
            self.by_type.setdefault(member, []).append(at)
        named = handle.type or handle.id
        for name in sorted({node.type, *(type_members(named) if named else ())}):
            self.by_name.setdefault(name, []).append(at)

    def allowed_by(self, handle_type: str | None, rule: tuple[str, ...]) -> Iterator[Candidate]:
        """The candidates a handle of `handle_type` may wire to and `rule` (the searching
        side's connection rule) allows, in catalog order (see model.wire_allowed)."""
        choices: list[list[list[int]]] = []
        if handle_type and _closed(type_members(handle_type)):
            choices.append([self.open, *(self.by_type.get(m, []) for m in
                                         type_members(handle_type))])
        if rule and _closed(set(rule)):
            choices.append([self.by_name.get(name, []) for name in set(rule)])
        if not choices:
            yield from self.entries
            return
        last = -1
        # The narrower index; merged by position, each candidate once.
        for at in heapq.merge(*min(choices, key=lambda lists: sum(map(len, lists)))):
            if at != last:
                yield self.entries[at]
            last = at


@dataclass
class HandleIndex:
    """Outputs and inputs by stem, and the source nodes (no inputs, some outputs) with their
    first output."""

    outputs: dict[str, Bucket] = field(default_factory=dict)
    inputs: dict[str, Bucket] = field(default_factory=dict)
    sources: Bucket = field(default_factory=Bucket)

    def by_stem(self, side: str, handle_id: str) -> Iterator[Candidate]:
        """The handles on the other side of `side` ("upstream": outputs) that share the
        stem of handle_id, in catalog order."""
        table = self.outputs if side == "upstream" else self.inputs
        bucket = table.get(stem(handle_id))
        yield from bucket.entries if bucket is not None else ()

    def matching(self, side: str, handle: Handle,
                 rule: tuple[str, ...]) -> Iterator[Candidate]:
        """`by_stem` of the handle, less those its type or the searching side's rule refuse."""
        table = self.outputs if side == "upstream" else self.inputs
        bucket = table.get(stem(handle.id or ""))
        yield from bucket.allowed_by(handle.type, rule) if bucket is not None else ()


def first_allowed(candidates: Iterable[Candidate],
                  allowed: Callable[[NodeDef, Handle], bool]) -> Candidate | None:
    """The first candidate `allowed` accepts among the first MAX_EXAMINED, else None."""
    for tried, (node, handle) in enumerate(candidates):
        if tried == MAX_EXAMINED:
            return None
        if allowed(node, handle):
            return node, handle
    return None


def build_index(model: Model) -> HandleIndex:
    """One pass over the catalog."""
    index = HandleIndex()
    for node in model.nodes:
        for table, handles in ((index.outputs, node.outputs), (index.inputs, node.inputs)):
            for handle in handles:
                if handle.id is not None:
                    table.setdefault(stem(handle.id), Bucket()).add(node, handle)
        if not node.inputs and node.outputs:
            index.sources.add(node, node.outputs[0])
    return index
