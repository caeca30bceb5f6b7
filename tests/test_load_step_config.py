"""The `load_step` table refuses what it cannot read, by key."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pygen.load_step_config import LoadStep


def test_one_map_or_many_and_by_data_entries() -> None:
    step = LoadStep.model_validate({
        "node_types": "src/migrate.ts:OLD",
        "node_types_by_data": {"edit": {"key": "tool", "values": {"a": "crop"},
                                        "otherwise": "resize"}}})
    assert step.node_types == ["src/migrate.ts:OLD"]
    assert step.node_types_by_data["edit"].values == {"a": "crop"}


@pytest.mark.parametrize("bad", [
    {"node_types_by_data": {"edit": {"key": ""}}},
    {"node_types_by_data": {"edit": {"key": "tool", "when": {}}}},
    {"handle_functions": {"m.ts:load": {"inputs": "pic"}}}])
def test_bad_entries_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        LoadStep.model_validate(bad)
