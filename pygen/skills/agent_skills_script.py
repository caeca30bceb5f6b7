"""The script an Agent Skills package ships to validate a workflow without MCP or pygen.

`SCRIPT` is written as `scripts/validate_workflow.py`: Python 3 standard library only, reading
`references/nodes.schema.json` beside it. It checks what an agent gets wrong most: node ids,
types, required fields, enum values, value types, unknown fields, edge ends and handle ids.
`pygen validate-workflow --schemas` checks more (limits, connection rules) where pygen is
installed.
"""

from __future__ import annotations

SCRIPT = '''#!/usr/bin/env python3
"""Validate a workflow JSON ({nodes, edges}) against references/nodes.schema.json.

Usage: python scripts/validate_workflow.py WORKFLOW.json   (or - for stdin)
Prints one line per problem (path: message) and exits 1 when there are errors, else 0.
"""
import json
import pathlib
import sys

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "references" / "nodes.schema.json"
KINDS = {"string": str, "boolean": bool, "array": list, "object": dict,
         "number": (int, float), "integer": int}


def kind_ok(value, schema):
    kinds = schema.get("type")
    if kinds is None:
        return True
    kinds = kinds if isinstance(kinds, list) else [kinds]
    for kind in kinds:
        if kind == "null" and value is None:
            return True
        wanted = KINDS.get(kind)
        if wanted and isinstance(value, wanted) and not (
                isinstance(value, bool) and kind in ("number", "integer")):
            return True
    return False


def check_data(node_type, data, defs, path, out):
    schema = defs.get(node_type, {})
    props = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in data and "default" not in props.get(name, {}):
            out.append(("error", f"{path}.{name}", "missing required field"))
    for name, value in data.items():
        prop = props.get(name)
        if prop is None:
            if props:
                out.append(("warning", f"{path}.{name}", f"unknown field for {node_type!r}"))
            continue
        allowed = prop.get("enum", [prop["const"]] if "const" in prop else None)
        if allowed is not None and value not in allowed:
            out.append(("error", f"{path}.{name}", f"{value!r} is not one of {allowed}"))
        elif not kind_ok(value, prop):
            out.append(("error", f"{path}.{name}", f"expected {prop.get('type')}"))


def check(workflow, doc):
    out = []
    defs, handles = doc.get("$defs", {}), doc.get("x-handles", {})
    if not isinstance(workflow, dict):
        return [("error", "$", "a workflow is an object with nodes and edges")]
    nodes, edges = workflow.get("nodes"), workflow.get("edges")
    if not isinstance(nodes, list) or not isinstance(edges, list):
        return [("error", "$", "expected arrays nodes and edges")]
    types = {}
    for i, node in enumerate(nodes):
        path = f"$.nodes[{i}]"
        if not isinstance(node, dict):
            out.append(("error", path, "expected a node object"))
            continue
        node_id, node_type = node.get("id"), node.get("type")
        if not isinstance(node_id, str) or node_id in types:
            out.append(("error", f"{path}.id", "expected a unique string id"))
        if node_type not in defs:
            out.append(("error", f"{path}.type", f"unknown node type {node_type!r}"))
        elif not isinstance(node.get("data"), dict):
            out.append(("error", f"{path}.data", "expected the node's data object"))
        else:
            check_data(node_type, node["data"], defs, f"{path}.data", out)
        if not isinstance(node.get("position"), dict):
            out.append(("error", f"{path}.position", "expected {x, y}"))
        types[node_id] = node_type
    for j, edge in enumerate(edges):
        path = f"$.edges[{j}]"
        if not isinstance(edge, dict):
            out.append(("error", path, "expected an edge object"))
            continue
        for end, key, side in (("source", "sourceHandle", "outputs"),
                               ("target", "targetHandle", "inputs")):
            if edge.get(end) not in types:
                out.append(("error", f"{path}.{end}", f"no node has id {edge.get(end)!r}"))
                continue
            ids = handles.get(types[edge[end]], {}).get(side)
            handle = edge.get(key)
            if isinstance(ids, list) and ids and handle is not None and handle not in ids:
                out.append(("error", f"{path}.{key}", f"{handle!r} is not one of {ids}"))
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if argv[1] == "-" else pathlib.Path(argv[1]).read_text("utf-8")
        workflow = json.loads(text)
    except (OSError, ValueError) as exc:
        print(f"{argv[1]}: cannot read the workflow ({exc})", file=sys.stderr)
        return 2
    found = check(workflow, json.loads(SCHEMAS.read_text("utf-8")))
    for level, path, message in found:
        print(f"{level}: {path}: {message}")
    errors = sum(level == "error" for level, _, _ in found)
    print(f"{'invalid' if errors else 'valid'}: {errors} errors, "
          f"{len(found) - errors} warnings", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''
