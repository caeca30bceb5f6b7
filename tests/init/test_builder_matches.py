"""`scan.builder_matches` finds exactly what `BUILDER.finditer` finds (it starts from each
`({` instead of trying the regex at every identifier): hand-written shapes and random text."""

from __future__ import annotations

import random

import pytest

from pygen.init import scan

SHAPES = [
    "const A = defineNode({ type: 'a' });",
    "export default createBlock <Data> ({ type: 'b' })",
    "x = make<{ a: 1 }>(\n  { type: 'c' })",
    "api.defineNode({ type: 'member call, not a builder' })",
    "9abc({ }) $make({ }) _m\t\n({ }) é({ })",
    "f<T\n>({ }) g<>({ }) h<a<b>>({ }) k>({ }) (({ }))",
    "send({ type, data }); const N = node({ type: 'n', inputs: [] })",
]


def found(matches: object) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in matches]  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", SHAPES)
def test_the_same_matches_as_the_regex(text: str) -> None:
    assert found(scan.builder_matches(text)) == found(scan.BUILDER.finditer(text))


def test_the_same_matches_on_random_text() -> None:
    rng = random.Random(35)
    alphabet = [*"ab$._ \n\t(){}<>f1é", "\u00a0"]
    some = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        expected = found(scan.BUILDER.finditer(text))
        some += bool(expected)
        assert found(scan.builder_matches(text)) == expected, repr(text)
    assert some > 100  # the random texts do hold builder calls
