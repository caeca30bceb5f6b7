"""Which fields and enum values of a node's schema its `standard` answer never names.

`python -m bench.n8n_coverage --skills DIR [TYPE ...]` (DIR: skills built by bench.n8n_agent
`--out`): for each type (default Slack and HTTP Request, asked by their plain type), every
field name and enum value of its schema (two levels: top fields and the fields of objects
and arrays of objects) that does not appear in the standard answer as `name` or `"value"`,
and whether the answer points to `detail="full"` at all. A check of "nothing an agent
filling the node needs is left out", read from the schema, not from the rendered text.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pygen.server.node_tools import SkillAnswers, load_node_catalog
from pygen.server.store import load_store

ASKED = ("n8n-nodes-base.slack", "n8n-nodes-base.httpRequest")


def reachable(schema: Mapping[str, Any], depth: int = 2) -> Iterator[tuple[str, str]]:
    """("field", name) and ("value", literal) for each field and enum value, `depth` deep."""
    for name, prop in (schema.get("properties") or {}).items():
        yield "field", name
        yield from _values(prop)
        if depth > 1 and isinstance(prop, dict):
            inner = prop.get("items") if prop.get("type") == "array" else prop
            if isinstance(inner, dict):
                yield from reachable(inner, depth - 1)


def _values(prop: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(prop, dict):
        return
    for value in prop.get("enum") or []:
        yield "value", str(value)
    for branch in (*(prop.get("anyOf") or []), *(prop.get("oneOf") or [])):
        yield from _values(branch)


def missing(text: str, schema: Mapping[str, Any]) -> list[tuple[str, str]]:
    out = []
    for kind, name in dict.fromkeys(reachable(schema)):
        shown = f"`{name}" in text if kind == "field" else \
            f'"{name}"' in text or f"`{name}`" in text
        if not shown:
            out.append((kind, name))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.n8n_coverage")
    parser.add_argument("--skills", type=Path, required=True)
    parser.add_argument("types", nargs="*", default=list(ASKED))
    args = parser.parse_args()
    store = load_store(args.skills)
    nodes = load_node_catalog(args.skills / "schemas" / "nodes.schema.json", args.skills,
                              store.nodes)
    answers = SkillAnswers(store.nodes, nodes)
    for name in args.types:
        text = answers.result(name, None, "standard").content[0].text  # type: ignore[union-attr]
        served = answers.versions[name].default if name in answers.versions else name
        schema = nodes.doc["$defs"][served] if nodes else {}
        gaps = missing(text, schema)
        pointer = 'detail="full"' in text
        total = len(dict.fromkeys(reachable(schema)))
        print(f"{name} ({served}): {len(text)} chars, {total - len(gaps)} of {total} fields and "
              f"values named; pointer to full: {pointer}")
        for kind, value in gaps:
            print(f"  not named: {kind} {value}")


if __name__ == "__main__":
    main()
