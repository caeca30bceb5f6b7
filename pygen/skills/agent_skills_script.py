"""The script an Agent Skills package ships to validate a workflow without MCP or pygen.

`SCRIPT` is written as `scripts/validate_workflow.py`: Python 3 standard library only, a small
interpreter of `references/nodes.schema.json` beside it. That document is the rule table:
`gen` writes it from the model, and the server's catalog (`Catalog.from_json`, the one
`pygen serve --schemas` and `validate-workflow --schemas` use) is read from the same text, so
both judge a workflow by the same data: each type's data schema (`$defs`: required, enum,
type, ranges, lengths, patterns, nested objects and lists), its handles with their types and
edge limits (`x-handles`), the node-id and result markers on fields (`x-nodeIds`, `x-result`),
the workflow's own keys (`x-workflow`) and the editor's conventions (`x-conventions`: layout,
mapping field, acyclic graph). Each finding carries the server's rule id; parity with the
server on a planted set is measured by bench/package_parity.py and tested. What needs more
than the document (expressions, load-step renames, version variants, did-you-mean fixes)
stays with pygen's `validate-workflow`.
"""

from __future__ import annotations

from pygen.skills.agent_skills_edges import EDGES

_VALUES = r'''#!/usr/bin/env python3
"""Validate a saved workflow JSON against references/nodes.schema.json (in its layout).

Usage: python scripts/validate_workflow.py WORKFLOW.json   (or - for stdin; -h, --help: this)
Prints one line per problem, `level: path: message [rule]`, and exits 1 when there are
errors, else 0. Every rule is read from the schema file: node types and their data (required
fields, values, types, ranges), ids, edges and handles (their types and edge limits), the
mapping field, node-id references, cycles where the editor forbids them, the workflow's keys.
"""
import json
import pathlib
import re
import sys

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "references" / "nodes.schema.json"
KINDS = {"string": str, "boolean": bool, "array": list, "object": dict,
         "number": (int, float), "integer": int}
WILDCARDS = {"any", "unknown", "*"}
EMPTY = (None, "", [], {})


class Run:
    """The schema document, its conventions and the findings so far."""

    def __init__(self, doc):
        self.doc = doc
        self.conv = doc.get("x-conventions") or {}
        self.out = []

    def add(self, level, path, message, rule):
        self.out.append((level, path, message, rule))

    def error(self, path, message, rule):
        self.add("error", path, message, rule)


def show(value):
    return json.dumps(value, ensure_ascii=False)


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b and isinstance(a, (int, float)) == isinstance(b, (int, float))


def kind_ok(value, kinds):
    kinds = kinds if isinstance(kinds, list) else [kinds]
    for kind in kinds:
        if kind == "null" and value is None:
            return True
        wanted = KINDS.get(kind)
        if wanted and isinstance(value, wanted) and not (
                isinstance(value, bool) and kind in ("number", "integer")):
            if kind != "integer" or float(value).is_integer():
                return True
    return False


def resolve(schema, run):
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 20:
        target = run.doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        schema, seen = target, seen + 1
    return schema if isinstance(schema, dict) else {}


def choices(schema):
    if "enum" in schema:
        return schema["enum"]
    return [schema["const"]] if "const" in schema else None


def check_value(value, schema, path, run, top=False):
    """The JSON Schema keywords the document uses, each finding with the server's rule id."""
    schema = resolve(schema, run)
    for key in ("anyOf", "oneOf"):
        branches = [resolve(b, run) for b in schema.get(key) or ()]
        if branches and not any(passes(value, b, path, run) for b in branches):
            allowed = [v for b in branches for v in choices(b) or ()]
            if allowed and all(choices(b) is not None or b.get("type") == "null"
                               for b in branches):
                run.error(path, f"{show(value)} is not one of {show(allowed)}", "enum")
            else:
                run.error(path, f"{show(value)} matches none of the allowed forms", "schema")
            return
    allowed = choices(schema)
    if allowed is not None:
        if not any(same(value, v) for v in allowed):
            options = show(allowed[0]) if len(allowed) == 1 else f"one of {show(allowed)}"
            run.error(path, f"{show(value)} is not {options}", "enum")
        return
    if "type" in schema and not kind_ok(value, schema["type"]):
        run.error(path, f"expected {schema['type']}, got {show(value)[:40]}", "type")
        return
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        check_number(value, schema, path, run)
    if isinstance(value, str):
        check_length(len(value), schema, "Length", "characters", path, run)
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and re.search(pattern, value) is None:
            run.error(path, f"{show(value)} does not match {pattern}", "pattern")
    if isinstance(value, list):
        check_length(len(value), schema, "Items", "items", path, run)
        items = schema.get("items")
        for i, item in enumerate(value if isinstance(items, dict) else ()):
            check_value(item, items, f"{path}[{i}]", run)
    if isinstance(value, dict):
        check_object(value, schema, path, run, top)


def passes(value, schema, path, run):
    probe = Run(run.doc)
    check_value(value, schema, path, probe)
    return not any(level == "error" for level, *_ in probe.out)


def check_number(value, schema, path, run):
    for key, bad, says in (("minimum", lambda v, b: v < b, ">="),
                           ("maximum", lambda v, b: v > b, "<="),
                           ("exclusiveMinimum", lambda v, b: v <= b, ">"),
                           ("exclusiveMaximum", lambda v, b: v >= b, "<")):
        bound = schema.get(key)
        if isinstance(bound, (int, float)) and bad(value, bound):
            run.error(path, f"{value} is out of range: it must be {says} {bound}", "range")


def check_length(size, schema, word, unit, path, run):
    low, high = schema.get(f"min{word}"), schema.get(f"max{word}")
    if isinstance(low, int) and size < low:
        run.error(path, f"too short: at least {low} {unit}", "length")
    if isinstance(high, int) and size > high:
        run.error(path, f"too long: at most {high} {unit}", "length")


def check_object(data, schema, path, run, top):
    props = schema.get("properties") or {}
    fills = run.conv.get("editor_fills_defaults")
    for name in schema.get("required") or ():
        if name in data:
            continue
        if not fills:
            run.error(f"{path}.{name}", "missing required field", "required")
        elif "default" not in props.get(name, {}):
            run.add("warning", f"{path}.{name}", "missing required field (the editor leaves "
                    "it unset)", "required")
    extra = schema.get("additionalProperties")
    for name, value in data.items():
        prop = props.get(name)
        if prop is None:
            if isinstance(extra, dict):
                check_value(value, extra, f"{path}.{name}", run)
            elif extra is False or (top and props):
                run.add("warning", f"{path}.{name}", "unknown field", "unknown-field")
            continue
        if run.conv.get("required_nonempty") and prop.get("x-nonempty") and value in EMPTY:
            run.error(f"{path}.{name}", "required field is empty", "required-empty")
        check_value(value, prop, f"{path}.{name}", run)


def get_path(value, dotted):
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check(workflow, doc):
    """Nodes and edges in the layout the schema's x-conventions declare (React Flow's
    {id, type, position, data} and an edges array when it declares none)."""
    run = Run(doc)
    conv = run.conv
    defs = doc.get("$defs", {})
    keys = {k: conv.get(f"node_{k}_key", k) for k in ("type", "data", "position")}
    mapped = conv.get("connections_key")
    edges_key = mapped or "edges"
    if not isinstance(workflow, dict):
        return [("error", "$", f"a workflow is an object with nodes and {edges_key}",
                 "workflow-shape")]
    nodes, edges = workflow.get("nodes"), workflow.get(edges_key)
    if not isinstance(nodes, list) or not isinstance(edges, dict if mapped else list):
        shape = "an object" if mapped else "an array"
        return [("error", "$", f"expected nodes (an array) and {edges_key} ({shape})",
                 "workflow-shape")]
    types, named, datas = {}, {}, {}
    for i, node in enumerate(nodes):
        path = f"$.nodes[{i}]"
        if not isinstance(node, dict):
            run.error(path, "expected a node object", "node-shape")
            continue
        node_id, node_type = node.get("id"), get_path(node, keys["type"])
        data = get_path(node, keys["data"])
        if not isinstance(node_id, str):
            run.error(f"{path}.id", "expected a string node id unique in the workflow", "id")
        elif node_id in types:
            run.error(f"{path}.id", f"duplicate node id {show(node_id)}", "duplicate-id")
        if node_type not in defs:
            run.error(f"{path}.{keys['type']}", f"unknown node type {show(node_type)}",
                      "unknown-node-type")
        elif not isinstance(data, dict):
            run.error(f"{path}.{keys['data']}", "expected the node's data object", "node-shape")
        else:
            check_value(data, defs[node_type], f"{path}.{keys['data']}", run, top=True)
        check_position(get_path(node, keys["position"]), f"{path}.{keys['position']}", run)
        if isinstance(node_id, str) and node_id not in types:
            types[node_id] = node_type if node_type in defs else None
            datas[node_id] = (i, data if isinstance(data, dict) else None)
        named[node.get(conv.get("connection_node_key", "id"))] = node_type
    for node_id, (i, data) in datas.items():
        if data is not None and types[node_id] is not None:
            node_rules(data, defs[types[node_id]], f"$.nodes[{i}].{keys['data']}", types, run)
    if mapped:
        check_connections(edges, named, doc.get("x-handles", {}), f"$.{mapped}", run)
    else:
        Edges(run, types, datas, defs, keys).check(edges)
    check_workflow_keys(workflow, doc.get("x-workflow"), edges_key, run)
    return run.out


def check_position(position, path, run):
    if run.conv.get("position_pair"):
        if not (isinstance(position, list) and len(position) == 2
                and all(number(v) for v in position)):
            run.error(path, "expected [x, y]", "position")
    elif not (isinstance(position, dict) and all(number(position.get(k)) for k in "xy")):
        run.error(path, 'expected {"x": number, "y": number}', "position")


def node_rules(data, schema, path, types, run):
    """Node-id references (x-nodeIds) and a completed status without a result (x-result)."""
    props = resolve(schema, run).get("properties") or {}
    for name, value in data.items():
        if not props.get(name, {}).get("x-nodeIds"):
            continue
        listed = isinstance(value, list)
        for i, item in enumerate(value if listed else [value]):
            if isinstance(item, str) and item not in types:
                where = f"{path}.{name}[{i}]" if listed else f"{path}.{name}"
                run.error(where, f"no node has id {show(item)}", "node-id-ref")
    status = next((n for n in data if "completed" in (props.get(n, {}).get("enum") or ())),
                  None)
    results = [n for n, p in props.items() if p.get("x-result") and n != status
               and "id" not in words(n)]
    if (status is not None and data[status] == "completed" and results
            and not any(data.get(n) not in EMPTY for n in results)):
        run.error(f"{path}.{status}", 'says "completed" but no result field holds a value '
                  f"({', '.join(results)})", "completed-without-result")


'''

_MAIN = r'''def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 2 or (argv[1].startswith("-") and argv[1] != "-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if argv[1] == "-" else pathlib.Path(argv[1]).read_text("utf-8")
        workflow = json.loads(text)
    except (OSError, ValueError) as exc:
        print(f"{argv[1]}: cannot read the workflow ({exc})", file=sys.stderr)
        return 2
    try:
        doc = json.loads(SCHEMAS.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        print(f"{SCHEMAS}: cannot read the schemas ({exc})", file=sys.stderr)
        return 2
    found = check(workflow, doc)
    for level, path, message, rule in found:
        print(f"{level}: {path}: {message} [{rule}]")
    errors = sum(level == "error" for level, *_ in found)
    print(f"{'invalid' if errors else 'valid'}: {errors} errors, "
          f"{len(found) - errors} warnings", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''

# One script in three parts (value checks, edge checks, the command line), each a module
# within the house's size limit; the shipped file is their concatenation.
SCRIPT = _VALUES + EDGES + _MAIN
