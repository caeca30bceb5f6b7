"""The Agent Skills package's script reads node values in the layout the schema's
`x-conventions` declare: a node envelope with the type and data where it says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ScriptRun = Callable[[dict[str, Any], Any], list[str]]  # the package_script fixture

DEFS = {"fetch": {"type": "object", "properties": {"url": {"type": "string"}},
                  "required": ["url"]}}


def test_a_custom_envelope_is_read_where_it_is_declared(package_script: ScriptRun) -> None:
    conv = {"node_type_key": "data.type", "node_data_key": "data.config",
            "node_constants": {"type": "custom"}}
    doc = {"$defs": DEFS, "x-conventions": conv}
    node = {"id": "a", "type": "custom", "position": {"x": 0, "y": 0},
            "data": {"type": "fetch", "config": {"url": "https://example.com"}}}
    assert package_script(doc, {"nodes": [node], "edges": []}) == []
    node["data"] = {"type": "fetch", "config": {"url": 3}}
    assert package_script(doc, {"nodes": [node], "edges": []}) == [
        "error: $.nodes[0].data.config.url: expected string, got 3 [type]"]
    node["data"] = {"type": "fetch", "config": {}}
    assert package_script(doc, {"nodes": [node], "edges": []}) == [
        "error: $.nodes[0].data.config.url: missing required field [required]"]
