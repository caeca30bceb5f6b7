"""The load step's renames as the model holds them."""

from __future__ import annotations

from pygen.load_renames import LoadRenames


def test_empty_until_a_map_has_an_entry() -> None:
    assert LoadRenames().empty
    assert not LoadRenames(input_handles={"t": {"in": "prompt"}}).empty
