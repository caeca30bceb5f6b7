"""The Agent Skills package's script reads workflows in the layout the schema's
`x-conventions` declare: a node envelope, a connections map, a `[x, y]` position."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from pygen.skills.agent_skills_script import SCRIPT

DEFS = {"fetch": {"type": "object", "properties": {"url": {"type": "string"}},
                  "required": ["url"]},
        "mail": {"type": "object", "properties": {"to": {"type": "string"}}}}
HANDLES = {"fetch": {"inputs": ["in"], "outputs": ["out"]}, "mail": {"inputs": ["in"]}}


def run(tmp_path: Path, conventions: dict[str, Any], workflow: Any) -> list[str]:
    (tmp_path / "scripts").mkdir(exist_ok=True)
    (tmp_path / "references").mkdir(exist_ok=True)
    script = tmp_path / "scripts" / "validate_workflow.py"
    script.write_text(SCRIPT, encoding="utf-8")
    doc = {"$defs": DEFS, "x-handles": HANDLES, "x-conventions": conventions}
    (tmp_path / "references" / "nodes.schema.json").write_text(json.dumps(doc), "utf-8")
    (tmp_path / "w.json").write_text(json.dumps(workflow), encoding="utf-8")
    done = subprocess.run([sys.executable, "-I", str(script), str(tmp_path / "w.json")],
                          capture_output=True, text=True, check=False)
    return done.stdout.splitlines()


def test_a_custom_envelope_is_read_where_it_is_declared(tmp_path: Path) -> None:
    conv = {"node_type_key": "data.type", "node_data_key": "data.config",
            "node_constants": {"type": "custom"}}
    node = {"id": "a", "type": "custom", "position": {"x": 0, "y": 0},
            "data": {"type": "fetch", "config": {"url": "https://example.com"}}}
    assert run(tmp_path, conv, {"nodes": [node], "edges": []}) == []
    node["data"] = {"type": "fetch", "config": {"url": 3}}
    assert run(tmp_path, conv, {"nodes": [node], "edges": []}) == [
        "error: $.nodes[0].data.config.url: expected string, got 3 [type]"]


def test_a_connections_map_and_pair_positions(tmp_path: Path) -> None:
    conv = {"node_data_key": "parameters", "position_pair": True,
            "connections_key": "connections", "connection_node_key": "name"}
    nodes = [{"id": "1", "name": "Get", "type": "fetch", "position": [0, 0],
              "parameters": {"url": "u"}},
             {"id": "2", "name": "Tell", "type": "mail", "position": [300, 0],
              "parameters": {}}]
    good = {"nodes": nodes, "connections": {"Get": {"main": [[{"node": "Tell", "type": "main",
                                                                "index": 0}]]}}}
    assert run(tmp_path, conv, good) == []
    bad = {"nodes": nodes, "connections": {
        "Get": {"main": [[{"node": "Tel", "type": "main", "index": 0}], []]},
        "Gone": {"main": []}}}
    assert run(tmp_path, conv, bad) == [
        "error: $.connections[\"Get\"].main[0]: no node is named 'Tel' [edge-node]",
        "error: $.connections[\"Get\"].main[1]: 'fetch' has 1 outputs [output-index]",
        "error: $.connections[\"Gone\"]: no node is named 'Gone' [edge-node]"]
    assert run(tmp_path, conv, {"nodes": nodes, "edges": []}) == [
        "error: $: expected nodes (an array) and connections (an object) [workflow-shape]"]
