"""Dynamic sides from the config (`dynamic_handles`), applied after extraction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pygen.config import Config, Settings
from pygen.dynamic_handles import DynamicHandles
from pygen.extract.handle_sides import with_dynamic_sides
from pygen.model import Location, NodeDef


def _node(**kw: Any) -> NodeDef:
    return NodeDef(type="t", label="T", source=Location(file="n.ts", line=1), **kw)


def _config(dynamic: dict[str, Any]) -> Config:
    return Config(settings=Settings.model_validate({"nodes_file": "n.ts",
                                                    "dynamic_handles": dynamic}),
                  source=None, root=Path("."))


def test_config_sets_a_side_dynamic() -> None:
    nodes, notes = with_dynamic_sides((_node(),), (), _config({"t": {"outputs": ["row_*"]}}))
    assert nodes[0].outputs_dynamic == DynamicHandles(patterns=("row_*",), via="config")
    assert nodes[0].inputs_dynamic is None and notes == ()


def test_config_names_an_unknown_type() -> None:
    nodes, notes = with_dynamic_sides((_node(),), (), _config({"nope": {"outputs": []}}))
    assert nodes[0].outputs_dynamic is None
    assert [n.message for n in notes] == [
        "dynamic_handles names node type 'nope', which the catalog does not have; fix or "
        "remove that entry"]
