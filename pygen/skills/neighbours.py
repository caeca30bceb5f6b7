"""The handles of a catalog indexed once, so finding a node's neighbour is a lookup.

A worked example wires a node to the first other node type whose handle names the same thing
(`_stem`: `videos` and `video` alike). Comparing every node with every other made rendering
quadratic in the catalog size; the index lists, per stem, the candidate handles in catalog
order (node order, then handle order), so the first allowed candidate is the one a full scan
would have found, and the output stays the same. The index is a value the caller builds once
per run (pygen.skills.plan) and passes down; nothing is kept between calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pygen.model import Handle, Model, NodeDef
from pygen.suggest import words

# A candidate: the node and one of its handles.
Candidate = tuple[NodeDef, Handle]


def stem(handle_id: str) -> str:
    """`videos` and `video` name the same thing flowing."""
    joined = "".join(words(handle_id))
    return joined[:-1] if joined.endswith("s") and len(joined) > 3 else joined


@dataclass
class HandleIndex:
    """Outputs and inputs by stem, and the source nodes (no inputs, some outputs)."""

    outputs: dict[str, list[Candidate]] = field(default_factory=dict)
    inputs: dict[str, list[Candidate]] = field(default_factory=dict)
    sources: list[NodeDef] = field(default_factory=list)

    def by_stem(self, side: str, handle_id: str) -> Iterator[Candidate]:
        """The handles on the other side of `side` ("upstream": outputs) that share the
        stem of handle_id, in catalog order."""
        table = self.outputs if side == "upstream" else self.inputs
        yield from table.get(stem(handle_id), ())


def build_index(model: Model) -> HandleIndex:
    """One pass over the catalog."""
    index = HandleIndex()
    for node in model.nodes:
        for table, handles in ((index.outputs, node.outputs), (index.inputs, node.inputs)):
            for handle in handles:
                if handle.id is not None:
                    table.setdefault(stem(handle.id), []).append((node, handle))
        if not node.inputs and node.outputs:
            index.sources.append(node)
    return index
