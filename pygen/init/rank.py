"""Which candidate is the catalog: each is confirmed by the real extractor and ranked by what
it yields (node count, share of nodes whose data type is found, nodes with handles). One
clearly wins when every other yields nothing new (its node types are all the winner's), or
a third of the winner's nodes at most, and no candidate the extractor failed on shows three
times its nodes in its text; else a person chooses. A candidate adds nothing new when most
of its node types are the winner's, or when the winner's files name its types (the
credentials the nodes require)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pygen.init import survey
from pygen.init.literals import Candidate

# Confirming runs the extractor once per candidate: the likeliest few, never all of a big
# repository's near misses.
MAX_CONFIRMED = 6
# A winner has at least this many times the nodes of its strongest rival.
CLEAR_MARGIN = 3
UNTYPED = ("none", "inferred")


@dataclass(frozen=True)
class Ranking:
    """The confirmed candidates, best first; `chosen` when one clearly wins."""

    ranked: tuple[survey.Catalog, ...]
    chosen: survey.Catalog | None


def score(catalog: survey.Catalog) -> tuple[int, float, int]:
    nodes = len(catalog.node_types)
    typed = sum(count for via, count in catalog.via if via not in UNTYPED)
    return (nodes, typed / nodes if nodes else 0.0, catalog.handles)


def likeliest(found: list[Candidate]) -> list[Candidate]:
    """The candidates worth confirming: the most entries first, then file order."""
    ordered = sorted(found, key=lambda c: (-c.entries, str(c.path), c.line))
    return ordered[:MAX_CONFIRMED]


def rank(found: list[Candidate], root: Path,
         progress: Callable[[int, int, Candidate], None] | None = None) -> Ranking:
    """Confirm the likeliest candidates, best first, and choose a clear winner."""
    chosen = likeliest(found)
    confirmed: list[survey.Catalog] = []
    for index, candidate in enumerate(chosen, 1):
        if _settled(confirmed, chosen[index - 1:]):
            break  # what is left cannot rival the best one found: no extractor run for it
        if progress is not None:
            progress(index, len(chosen), candidate)
        confirmed.append(survey.confirm(candidate, root))
    ranked = sorted(confirmed, key=lambda c: (c.error is not None, _negated(score(c))))
    return Ranking(tuple(ranked), winner(ranked))


def _settled(confirmed: list[survey.Catalog], rest: list[Candidate]) -> bool:
    """Whether the best confirmed catalog has CLEAR_MARGIN times the entries any of `rest`
    shows in its text. A catalog built from spreads or by `.map(...)` shows no size of its
    own: never settled."""
    best = max((len(c.node_types) for c in confirmed if c.error is None), default=0)
    return best > 0 and all(not c.spreads and not c.unsized and CLEAR_MARGIN * c.entries <= best
                            for c in rest)


def _negated(value: tuple[int, float, int]) -> tuple[int, float, int]:
    return (-value[0], -value[1], -value[2])


def referenced(part: survey.Catalog, by: survey.Catalog) -> bool:
    """Whether most of `part`'s node types are named, quoted, in the files of `by`'s nodes:
    entries the catalog refers to (the credentials its nodes require), not a rival to it."""
    if not part.node_types or set(part.files) & set(by.files) \
            or set(part.node_types) & set(by.node_types):
        return False  # sharing a node type is rivalry, not reference
    text = "\n".join(survey.read_text(path) for path in by.files)
    named = sum(1 for t in set(part.node_types) if f'"{t}"' in text or f"'{t}'" in text)
    return 2 * named > len(set(part.node_types))


def winner(ranked: list[survey.Catalog]) -> survey.Catalog | None:
    """The best catalog when no other one rivals it, else None. A catalog the nodes of
    another one refer to is no rival."""
    good = [c for c in ranked if c.error is None and c.node_types]
    good = [c for c in good if not any(o is not c and referenced(c, o) for o in good)]
    if not good:
        return None
    top = good[0]
    if any(c.error is not None and c.candidate.entries >= CLEAR_MARGIN * len(top.node_types)
           for c in ranked):
        return None  # a far bigger candidate the extractor could not read: a person decides
    mine = set(top.node_types)
    # Mostly the winner's own types: a copy of part of it (a starter app beside the demo).
    rivals = [c for c in good[1:] if 2 * len(set(c.node_types) - mine) > len(set(c.node_types))]
    if not rivals or len(top.node_types) >= CLEAR_MARGIN * len(rivals[0].node_types):
        return top
    return None
