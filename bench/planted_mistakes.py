"""Planted single mistakes in real workflows that validate clean: is each caught, and is the
repair pygen offers the right one?

`python -m bench.planted_mistakes --corpus DIR [--records FILE] [--seed 32] [--sample 300]`

The workflows are the real-workflow bench's seeded sample (bench/real_workflows.py, its
corpora pinned in bench/workflow_corpora.toml; nothing of them is copied here). Of those with
no error, in seeded order, each plant of bench/planted_mistakes.toml takes the first workflow
(not yet used) it applies to and changes one thing. A plant is caught when the changed
workflow has an error of the plant's rule that the clean one did not (a warning is listed,
not counted); where one value undoes the mistake, the repair is correct when a fix of that
finding restores it (or, counted apart, its did-you-mean names it).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import real_workflows
from pygen.conventions import canonical_node
from pygen.validation.catalog import Catalog
from pygen.validation.findings import Finding
from pygen.validation.workflow import validate_workflow

MANIFEST = Path(__file__).with_name("planted_mistakes.toml")
Workflow = dict[str, Any]


@dataclass(frozen=True)
class Planted:
    workflow: Workflow
    where: str  # what was changed, for the table
    # The repair that undoes it when one value does: (op, JSON path, value or key), else None.
    undo: tuple[str, str, Any] | None


Plant = Callable[[Workflow, Catalog, dict[str, Any]], Planted | None]


def _props(node: dict[str, Any], catalog: Catalog) -> dict[str, Any]:
    spec = catalog.node_spec(canonical_node(node, catalog.conventions))
    if spec is None:
        return {}
    schema = catalog.validator(spec.type).schema
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return props if isinstance(props, dict) else {}


def _params(workflow: Workflow, catalog: Catalog, entry: dict[str, Any],
            test: Callable[[str, Any, dict[str, Any]], bool]) -> tuple[int, str] | None:
    """The first (node index, parameter) whose value and schema pass `test`."""
    for i, node in enumerate(workflow["nodes"]):
        if entry.get("node") and node.get("type") != entry["node"]:
            continue
        params = node.get("parameters")
        if not isinstance(params, dict):
            continue
        props = _props(node, catalog)
        for key, value in params.items():
            if entry.get("field") and key != entry["field"]:
                continue
            if isinstance(props.get(key), dict) and test(key, value, props[key]):
                return i, key
    return None


def _at(i: int, key: str) -> str:
    return f"$.nodes[{i}].parameters.{key}"


def _choices(schema: dict[str, Any]) -> list[Any]:
    branches = [schema, *schema.get("anyOf", ())]
    return [v for b in branches if isinstance(b, dict) for v in b.get("enum", ())]


def _is_expr(value: object) -> bool:
    return isinstance(value, str) and value.startswith("=")


def _set_param(entry: dict[str, Any], test: Callable[[str, Any, dict[str, Any]], bool],
               new: Callable[[Any], Any], undo: bool) -> Plant:
    def plant(workflow: Workflow, catalog: Catalog, _: dict[str, Any]) -> Planted | None:
        found = _params(workflow, catalog, entry, test)
        if found is None:
            return None
        i, key = found
        out = copy.deepcopy(workflow)
        old = out["nodes"][i]["parameters"][key]
        out["nodes"][i]["parameters"][key] = new(old)
        return Planted(out, f"{_at(i, key)}: {old!r} -> {new(old)!r}",
                       ("set", _at(i, key), old) if undo else None)
    return plant


def _near_miss(value: str) -> str:
    """Two letters swapped in the middle: a typo one edit from the value."""
    mid = max(1, len(value) // 2)
    return value[:mid - 1] + value[mid] + value[mid - 1] + value[mid + 1:]


def _kinds(entry: dict[str, Any]) -> Plant:
    kind = entry["kind"]
    if kind == "wrong-type-number":
        return _set_param(entry, lambda k, v, s: s.get("type") == "number" and isinstance(
            v, int | float) and not isinstance(v, bool), lambda v: "many", undo=False)
    if kind == "wrong-type-boolean":
        return _set_param(entry, lambda k, v, s: s.get("type") == "boolean" and isinstance(
            v, bool), lambda v: "yes", undo=False)
    if kind == "required-emptied":
        return _set_param(entry, lambda k, v, s: s.get("x-nonempty") is True and isinstance(
            v, str) and v != "" and not _is_expr(v), lambda v: "", undo=False)
    if kind in ("enum-near-miss", "enum-case-slip"):
        change = _near_miss if kind == "enum-near-miss" else str.upper
        return _set_param(entry, lambda k, v, s: isinstance(v, str) and len(v) > 3 and (
            v in _choices(s)) and change(v) not in _choices(s), change, undo=True)
    return _SHAPES[kind]


def _required_removed(workflow: Workflow, catalog: Catalog,
                      entry: dict[str, Any]) -> Planted | None:
    found = _params(workflow, catalog, entry, lambda k, v, s: s.get("x-nonempty") is True and (
        isinstance(v, str) and v != "" and "default" not in s))
    if found is None:
        return None
    i, key = found
    out = copy.deepcopy(workflow)
    del out["nodes"][i]["parameters"][key]
    return Planted(out, f"{_at(i, key)} left out", None)


def _node_change(change: Callable[[dict[str, Any]], Any], what: str,
                 undo: Callable[[int, dict[str, Any]], tuple[str, str, Any] | None]) -> Plant:
    def plant(workflow: Workflow, catalog: Catalog, _: dict[str, Any]) -> Planted | None:
        out = copy.deepcopy(workflow)
        node = out["nodes"][0]
        repair = undo(0, copy.deepcopy(node))
        change(node)
        return Planted(out, f"$.nodes[0] ({workflow['nodes'][0].get('type')}): {what}", repair)
    return plant


def _edge(workflow: Workflow, change: Callable[[Workflow, str, str], None],
          what: str) -> Planted | None:
    """The first connection between two nodes, changed."""
    for source, kinds in workflow.get("connections", {}).items():
        lists = kinds.get("main") if isinstance(kinds, dict) else None
        if isinstance(lists, list) and lists and isinstance(lists[0], list) and lists[0]:
            target = lists[0][0].get("node")
            if isinstance(target, str):
                out = copy.deepcopy(workflow)
                change(out, source, target)
                return Planted(out, f"{what} ({source} -> {target})", None)
    return None


def _past_outputs(out: Workflow, source: str, target: str) -> None:
    lists = out["connections"][source]["main"]
    while len(lists) < 6:
        lists.append([])
    lists[5].append({"node": target, "type": "main", "index": 0})


def _duplicate(workflow: Workflow, catalog: Catalog, _: dict[str, Any]) -> Planted | None:
    if len(workflow["nodes"]) < 2:
        return None
    out = copy.deepcopy(workflow)
    first, second = out["nodes"][0]["name"], out["nodes"][1]["name"]
    out["nodes"][1]["name"] = first
    return Planted(out, f"$.nodes[1].name: {second!r} -> {first!r}", None)


def _expression(broken: Callable[[str], str], plain: bool) -> Plant:
    def plant(workflow: Workflow, catalog: Catalog, entry: dict[str, Any]) -> Planted | None:
        test: Callable[[str, Any, dict[str, Any]], bool] = (
            (lambda k, v, s: isinstance(v, str) and v != "" and not _is_expr(v) and "{" not in v
             and "}" not in v and s.get("type") == "string") if plain else
            (lambda k, v, s: isinstance(v, str) and v.startswith("={{") and v.rstrip()
             .endswith("}}") and v.count("{{") == 1))
        return _set_param(entry, test, broken, undo=False)(workflow, catalog, entry)
    return plant


def _snake(workflow: Workflow, catalog: Catalog, entry: dict[str, Any]) -> Planted | None:
    found = _params(workflow, catalog, entry, lambda k, v, s: re.search("[a-z][A-Z]", k)
                    is not None)
    if found is None:
        return None
    i, key = found
    snake = re.sub("([a-z])([A-Z])", lambda m: f"{m[1]}_{m[2].lower()}", key)
    out = copy.deepcopy(workflow)
    params = out["nodes"][i]["parameters"]
    out["nodes"][i]["parameters"] = {snake if k == key else k: v for k, v in params.items()}
    return Planted(out, f"{_at(i, key)} renamed {snake!r}", ("rename", _at(i, snake), key))


_SHAPES: dict[str, Plant] = {
    "required-removed": _required_removed,
    "unknown-node-type": _node_change(
        lambda n: n.update(type=n["type"] + "s"), "type with a letter added",
        lambda i, n: ("set", f"$.nodes[{i}].type", n["type"])),
    "node-type-missing": _node_change(lambda n: n.pop("type"), "type left out",
                                      lambda i, n: None),
    "unknown-version": _node_change(lambda n: n.update(typeVersion=99), "typeVersion 99",
                                    lambda i, n: None),
    "position-not-a-pair": _node_change(lambda n: n.update(position="0,0"), 'position "0,0"',
                                        lambda i, n: None),
    "parameters-not-an-object": _node_change(
        lambda n: n.update(parameters=json.dumps(n.get("parameters", {}))),
        "parameters saved as a JSON string",
        lambda i, n: ("set", f"$.nodes[{i}].parameters", n.get("parameters", {}))),
    "edge-to-missing-node": lambda w, c, e: _edge(w, lambda o, s, t: o["connections"][s][
        "main"][0].append({"node": "Ghost", "type": "main", "index": 0}), "an edge to Ghost"),
    "edge-from-missing-node": lambda w, c, e: _edge(w, lambda o, s, t: o["connections"].update(
        Ghost={"main": [[{"node": t, "type": "main", "index": 0}]]}), "an edge from Ghost"),
    "edge-output-past-outputs": lambda w, c, e: _edge(w, _past_outputs, "output 5"),
    "edge-input-past-inputs": lambda w, c, e: _edge(w, lambda o, s, t: o["connections"][s][
        "main"][0][0].update(index=5), "input 5"),
    "duplicate-name": _duplicate,
    "expression-unclosed": _expression(lambda v: v.rstrip()[:-2], plain=False),
    "expression-stray-close": _expression(lambda v: f"={v} }}}}", plain=True),
    "unknown-field-case-slip": _snake,
}


def _errors(found: list[Finding], rule: str) -> list[Finding]:
    return [f for f in found if f.rule == rule]


def _suggested(found: list[Finding], undo: tuple[str, str, Any]) -> bool:
    """A "did you mean" that names what was changed (a repair the agent applies itself)."""
    return any(f.suggestion is not None and f.suggestion == undo[2] for f in found)


def _repaired(found: list[Finding], undo: tuple[str, str, Any]) -> bool:
    op, path, value = undo
    for f in found:
        fix = f.fix.to_dict() if f.fix is not None else None
        if fix and fix["op"] == op and fix["path"] == path and (
                fix.get("value") == value if op == "set" else fix.get("to") == value):
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.planted_mistakes")
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--records", type=Path, help="a saved n8n loader run (JSON list)")
    parser.add_argument("--n8n-version", help="read this n8n-nodes-base release (default: latest)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pygen-bench")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--plants", type=Path, default=MANIFEST)
    args = parser.parse_args()
    saved = real_workflows.load_saved(args.corpus, real_workflows.corpora(real_workflows.MANIFEST))
    sample = random.Random(args.seed).sample(saved, min(args.sample, len(saved)))
    catalog = real_workflows.n8n_catalog(args.records, args.cache, args.n8n_version)
    before = {s: validate_workflow(s.workflow, catalog) for s in sample}
    clean = [s for s in sample if not any(f.level == "error" for f in before[s])]
    print(f"-- {len(clean)} of {len(sample)} sampled workflows validate clean (seed {args.seed})")
    plants = tomllib.loads(args.plants.read_text(encoding="utf-8"))["plant"]
    used: set[str] = set()
    caught = fixable = fixed = suggested = 0
    for entry in plants:
        plant = _kinds(entry)
        for saved_one in clean:
            if saved_one.file in used:
                continue
            planted = plant(saved_one.workflow, catalog, entry)
            if planted is not None:
                used.add(saved_one.file)
                break
        else:
            print(f"  {entry['kind']:26} no clean workflow it applies to")
            continue
        old = set(before[saved_one])
        new = [f for f in validate_workflow(planted.workflow, catalog) if f not in old]
        hits = _errors(new, entry["rule"])
        errors = [f for f in hits if f.level == "error"]
        caught += bool(errors)
        fixable += planted.undo is not None
        repaired = planted.undo is not None and _repaired(hits, planted.undo)
        named = planted.undo is not None and (repaired or _suggested(hits, planted.undo))
        fixed += repaired
        suggested += named
        level = "error" if errors else (hits[0].level if hits else "missed")
        repair = ("-" if planted.undo is None else "fixed" if repaired else
                  "named" if named else "no fix")
        shown = errors[0].message if errors else hits[0].message if hits else (
            "; ".join(f"{f.rule}: {f.message}" for f in new[:2]) or "nothing")
        print(f"  {entry['kind']:26} {entry['rule']:18} {level:7} {repair:7} "
              f"{saved_one.file} | {planted.where} | {shown[:110]}")
    print(f"  caught as errors: {caught} of {len(plants)}; of the {fixable} plants one value "
          f"undoes, a fix restores it in {fixed}, a fix or a did-you-mean names it in "
          f"{suggested}")


if __name__ == "__main__":
    main()
