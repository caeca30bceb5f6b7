"""The script an Agent Skills package ships to validate a workflow without MCP or pygen.

`SCRIPT` is written as `scripts/validate_workflow.py`: Python 3 standard library only, reading
`references/nodes.schema.json` beside it. It checks what an agent gets wrong most: node ids,
types, required fields, enum values, value types, unknown fields, edge ends and handle ids, in
the layout the schema's `x-conventions` declare (a node envelope, a connections map).
`pygen validate-workflow --schemas` checks more (limits, connection rules) where pygen is
installed.
"""

from __future__ import annotations

SCRIPT = '''#!/usr/bin/env python3
"""Validate a saved workflow JSON against references/nodes.schema.json (in its layout).

Usage: python scripts/validate_workflow.py WORKFLOW.json   (or - for stdin; -h, --help: this)
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


def get_path(value, dotted):
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def check(workflow, doc):
    """Nodes and edges in the layout the schema's x-conventions declare (React Flow's
    {id, type, position, data} and an edges array when it declares none)."""
    out = []
    defs, handles = doc.get("$defs", {}), doc.get("x-handles", {})
    conv = doc.get("x-conventions", {})
    keys = {k: conv.get(f"node_{k}_key", k) for k in ("type", "data", "position")}
    mapped = conv.get("connections_key")
    edges_key = mapped or "edges"
    if not isinstance(workflow, dict):
        return [("error", "$", f"a workflow is an object with nodes and {edges_key}")]
    nodes, edges = workflow.get("nodes"), workflow.get(edges_key)
    if not isinstance(nodes, list) or not isinstance(edges, dict if mapped else list):
        shape = "an object" if mapped else "an array"
        return [("error", "$", f"expected nodes (an array) and {edges_key} ({shape})")]
    types, named = {}, {}
    for i, node in enumerate(nodes):
        path = f"$.nodes[{i}]"
        if not isinstance(node, dict):
            out.append(("error", path, "expected a node object"))
            continue
        node_id, node_type = node.get("id"), get_path(node, keys["type"])
        data = get_path(node, keys["data"])
        if not isinstance(node_id, str) or node_id in types:
            out.append(("error", f"{path}.id", "expected a unique string id"))
        if node_type not in defs:
            out.append(("error", f"{path}.{keys['type']}", f"unknown node type {node_type!r}"))
        elif not isinstance(data, dict):
            out.append(("error", f"{path}.{keys['data']}", "expected the node's data object"))
        else:
            check_data(node_type, data, defs, f"{path}.{keys['data']}", out)
        position = get_path(node, keys["position"])
        pair = conv.get("position_pair")
        if not (isinstance(position, list) and len(position) == 2 if pair
                else isinstance(position, dict)):
            out.append(("error", f"{path}.{keys['position']}",
                        "expected [x, y]" if pair else "expected {x, y}"))
        types[node_id] = node_type
        named[node.get(conv.get("connection_node_key", "id"))] = node_type
    if mapped:
        check_connections(edges, named, handles, f"$.{mapped}", out)
    else:
        check_edges(edges, types, handles, out)
    return out


def check_edges(edges, types, handles, out):
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


def check_connections(connections, named, handles, base, out):
    """{source: {kind: [[{node, type, index}]]}}: the outer list by the source's output,
    `index` the target's input, each by its position in the node type's handles."""
    for source, kinds in connections.items():
        path = f"{base}[{json.dumps(source)}]"
        if source not in named:
            out.append(("error", path, f"no node is named {source!r}"))
            continue
        outputs = handles.get(named[source], {}).get("outputs") or []
        for kind, lists in kinds.items() if isinstance(kinds, dict) else ():
            for index, targets in enumerate(lists if isinstance(lists, list) else ()):
                where = f"{path}.{kind}[{index}]"
                if outputs and index >= len(outputs):
                    out.append(("error", where, f"{named[source]!r} has {len(outputs)} outputs"))
                for target in targets if isinstance(targets, list) else ():
                    check_target(target, named, handles, where, out)


def check_target(target, named, handles, where, out):
    name = target.get("node") if isinstance(target, dict) else None
    if name not in named:
        out.append(("error", where, f"no node is named {name!r}"))
        return
    inputs = handles.get(named[name], {}).get("inputs") or []
    slot = target.get("index", 0)
    if inputs and (not isinstance(slot, int) or not 0 <= slot < len(inputs)):
        out.append(("error", where, f"input {slot!r} of {named[name]!r}: it has "
                                    f"{len(inputs)} inputs"))


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
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
