"""The edge half of the Agent Skills package's `scripts/validate_workflow.py`.

Edges, handles and their types, edge limits, the mapping field, node-id references, cycles
and the workflow's own keys, read from `references/nodes.schema.json` as the value checks in
`agent_skills_script` are; `SCRIPT` there joins both halves into one standard-library file.
"""

EDGES = r'''def words(name):
    """camelCase, snake_case and kebab-case words, lower-cased: currentJobId → current job id."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]


class Edges:
    """An edges array: ids, ends and handles, handle types, the mapping field, the graph."""

    def __init__(self, run, types, datas, defs, keys):
        self.run, self.types, self.datas, self.defs = run, types, datas, defs
        self.handles = run.doc.get("x-handles", {})
        self.data_key = keys["data"]

    def side(self, node_type, key):
        entry = self.handles.get(node_type)
        return entry.get(key) if isinstance(entry, dict) else None

    def check(self, edges):
        run, ids, ends = self.run, {}, []
        for j, edge in enumerate(edges):
            path = f"$.edges[{j}]"
            if not isinstance(edge, dict):
                run.error(path, "expected an edge object", "edge-shape")
                continue
            edge_id = edge.get("id")
            if not isinstance(edge_id, str):
                run.error(f"{path}.id", "expected a string edge id unique in the workflow", "id")
            elif edge_id in ids:
                run.error(f"{path}.id", f"duplicate edge id {show(edge_id)} (first at "
                          f"{ids[edge_id]})", "duplicate-id")
            else:
                ids[edge_id] = path
            known = [self.end(edge, path, *spec) for spec in (
                ("source", "sourceHandle", "outputs"), ("target", "targetHandle", "inputs"))]
            if None not in known:
                ends.append((j, *known))
        for j, source, target in ends:
            self.connection(f"$.edges[{j}]", source, target)
        self.mappings(ends)
        self.graph(ends)

    def end(self, edge, path, key, handle_key, side):
        """(node id, node type or None, handle, whether the type has that handle)."""
        node_id, handle = edge.get(key), edge.get(handle_key)
        if node_id not in self.types:
            self.run.error(f"{path}.{key}", f"no node has id {show(node_id)}", "edge-node")
            return None
        ids = self.side(self.types[node_id], side)
        handle = handle if isinstance(handle, str) else None
        if isinstance(ids, list) and ids and handle is not None and handle not in ids:
            self.run.error(f"{path}.{handle_key}", f"{show(handle)} is not one of {show(ids)}",
                           "edge-handle")
        return (node_id, self.types[node_id], handle,
                isinstance(ids, list) and handle in ids)

    def connection(self, path, source, target):
        (_, s_type, s_handle, _), (_, t_type, t_handle, _) = source, target
        if s_type is None or t_type is None:
            return
        out_type = (self.side(s_type, "outputTypes") or {}).get(s_handle or "")
        in_type = (self.side(t_type, "inputTypes") or {}).get(t_handle or "")
        where = f"{path}.targetHandle"
        if out_type and in_type and not compatible(out_type, in_type):
            self.run.error(where, f"{s_type} output {show(s_handle)} carries {out_type}, but "
                           f"input {show(t_handle)} of {t_type} takes {in_type}",
                           "connection-type")
        accepts = (self.side(t_type, "accepts") or {}).get(t_handle or "") or []
        if not allows(accepts, s_type, out_type or s_handle):
            self.run.error(where, f"input {show(t_handle)} of {t_type} accepts only "
                           f"{', '.join(accepts)}", "connection-accepts")
        rules = self.side(s_type, "connectsTo") or {}
        goes = rules.get(s_handle or "") or rules.get("*") or []
        if not allows(goes, t_type, in_type or t_handle):
            self.run.error(where, f"{s_type} output {show(s_handle)} connects only to "
                           f"{', '.join(goes)}", "connection-connects-to")

    def mappings(self, ends):
        """Each wired input has an entry in the mapping field; each entry names a field."""
        conv = self.run.conv
        field = conv.get("mapping_field")
        if not field:
            return
        wired = {}
        for _, source, target in ends:
            if target[1] is not None and target[3]:
                wired.setdefault(target[0], {}).setdefault(target[2], source[2])
        for node_id, (i, data) in self.datas.items():
            node_type = self.types[node_id]
            if data is None or node_type is None:
                continue
            props = resolve(self.defs[node_type], self.run).get("properties") or {}
            if field not in props:
                continue
            absent = props[field].get("default") if conv.get("editor_fills_defaults") else {}
            entries = data.get(field, absent)
            if not isinstance(entries, dict):
                continue
            base = f"$.nodes[{i}].{self.data_key}.{field}"
            if conv.get("mapping_required"):
                for handle in wired.get(node_id, {}):
                    if handle not in entries:
                        self.run.error(base, f"input {show(handle)} is wired but has no "
                                       "entry; add it with the data field it fills",
                                       "field-mapping-missing")
            value_key = conv.get("mapping_value_key")
            for handle, entry in entries.items():
                inner = isinstance(entry, dict) and value_key
                name = entry.get(value_key) if inner else entry
                where = f"{base}.{handle}" + (f".{value_key}" if inner else "")
                if isinstance(name, str) and name not in props:
                    self.run.error(where, f"names {show(name)}, which is not a data field "
                                   "of this node", "field-mapping-unknown-field")

    def graph(self, ends):
        conv, run = self.run.conv, self.run
        if conv.get("acyclic"):
            out = {}
            for j, source, target in ends:
                if source[0] == target[0]:
                    run.error(f"$.edges[{j}]", f"connects node {show(source[0])} to itself; "
                              "the graph must be acyclic", "graph-self-loop")
                else:
                    out.setdefault(source[0], []).append((j, target[0]))
            for j, to in back_edges(out):
                run.error(f"$.edges[{j}]", f"closes a cycle back to node {show(to)}; the "
                          "graph must be acyclic", "graph-cycle")
        seen = {}
        for j, _, target in ends:
            key = (target[0], target[2])
            seen[key] = seen.get(key, 0) + 1
            limits = self.side(target[1], "inputLimits") or {}
            limit = limits.get(target[2] or "") or conv.get("edges_per_input")
            if isinstance(limit, int) and seen[key] > limit:
                run.error(f"$.edges[{j}].targetHandle", f"input {show(target[2])} of node "
                          f"{show(target[0])} takes {limit} edge(s); this one is more",
                          "input-edge-limit")


def back_edges(out):
    """The edges that close a cycle, by a depth-first search in document order."""
    state = {}
    for root in out:
        if root in state:
            continue
        state[root], stack = 1, [(root, 0)]
        while stack:
            node, i = stack[-1]
            nexts = out.get(node, [])
            if i == len(nexts):
                state[node] = 2
                stack.pop()
                continue
            stack[-1] = (node, i + 1)
            j, to = nexts[i]
            if state.get(to) == 1:
                yield j, to
            elif to not in state:
                state[to] = 1
                stack.append((to, 0))


def members(type_text):
    return {part.strip() for part in type_text.split("|") if part.strip()}


def compatible(out_type, in_type):
    outs, ins = members(out_type), members(in_type)
    return bool(outs & WILDCARDS or ins & WILDCARDS or outs & ins)


def allows(rule, node_type, handle_type):
    names = {node_type, *(members(handle_type) if handle_type else ())}
    return not rule or bool(set(rule) & (names | WILDCARDS))


def check_workflow_keys(workflow, schema, edges_key, run):
    """The workflow's own keys, as its type (x-workflow) declares them."""
    props = (schema or {}).get("properties") or {}
    if not props:
        return
    for key, value in workflow.items():
        if key in ("nodes", edges_key):
            continue
        if key in props:
            check_value(value, props[key], f"$.{key}", run)
        else:
            run.add("warning", f"$.{key}", "unknown top-level key", "workflow-key")


def check_connections(connections, named, handles, base, run):
    """{source: {kind: [[{node, type, index}]]}}: the outer list by the source's output,
    `index` the target's input, each by its position in the node type's handles."""
    for source, kinds in connections.items():
        path = f"{base}[{json.dumps(source)}]"
        if source not in named:
            run.error(path, f"no node is named {source!r}", "edge-node")
            continue
        outputs = handles.get(named[source], {}).get("outputs") or []
        for kind, lists in kinds.items() if isinstance(kinds, dict) else ():
            for index, targets in enumerate(lists if isinstance(lists, list) else ()):
                where = f"{path}.{kind}[{index}]"
                if outputs and index >= len(outputs):
                    run.error(where, f"{named[source]!r} has {len(outputs)} outputs",
                              "output-index")
                for target in targets if isinstance(targets, list) else ():
                    check_target(target, named, handles, where, run)


def check_target(target, named, handles, where, run):
    name = target.get("node") if isinstance(target, dict) else None
    if name not in named:
        run.error(where, f"no node is named {name!r}", "edge-node")
        return
    inputs = handles.get(named[name], {}).get("inputs") or []
    slot = target.get("index", 0)
    if inputs and (not isinstance(slot, int) or not 0 <= slot < len(inputs)):
        run.error(where, f"input {slot!r} of {named[name]!r}: it has {len(inputs)} inputs",
                  "edge-handle")


'''
