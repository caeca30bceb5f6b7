"""Real editors' catalogs: n8n's node package and Flowise's components, read by running them.

`python -m bench.real_catalogs [--only n8n|flowise] [--cache DIR]`

Installs `n8n-nodes-base` + `n8n-workflow` and `flowise-components` from the npm registry
into a cache folder outside the repo (default ~/.cache/pygen-bench; nothing is installed
when they are there), then runs bench/runtime_catalog.cjs on each: a child Node process
that requires the compiled node modules and instantiates each class (no network, writes
only to a temp folder, a memory bound and a timeout). Every value it prints came from
running code. Each node's descriptor list goes through pygen's field-list reader with the
package's preset; the nodes then become the schema document and the validation catalog.

Prints: nodes found (of those registered), nodes with fields, top-level and nested fields,
conditions, unreadable nodes, the time and peak memory of the Node run and of the Python
side, and the validation of n8n's GitHub node without the `title` its issue/create needs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pygen.config import FieldList
from pygen.extract import fieldlist
from pygen.model import DataField, Location, Model, NodeDef
from pygen.schema.document import schema_document
from pygen.skills.render import node_data_shape
from pygen.validation.catalog import Catalog, build_catalog
from pygen.validation.workflow import validate_node_data

LOADER = Path(__file__).with_name("runtime_catalog.cjs")
PACKAGES = {"n8n": ["n8n-nodes-base", "n8n-workflow"], "flowise": ["flowise-components"]}
ROOTS = {"n8n": "n8n-nodes-base", "flowise": "flowise-components"}
LISTS = {"n8n": FieldList(entry_field="properties", preset="n8n"),
         "flowise": FieldList(entry_field="inputs", preset="flowise")}
TIMEOUT = 600
MEMORY_MB = 1536


@dataclass
class Tally:
    nodes: list[NodeDef] = field(default_factory=list)
    with_fields: int = 0
    top: int = 0
    nested: int = 0
    conditions: int = 0
    problems: int = 0
    errors: list[str] = field(default_factory=list)
    # Packages the run stood in for (not installed): values read through them are not theirs.
    stubbed: list[str] = field(default_factory=list)


def install(cache: Path, name: str) -> Path:
    folder = cache / name
    root = folder / "node_modules" / ROOTS[name]
    if root.is_dir():
        return root
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps({"name": f"bench-{name}", "private": True}))
    subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                    "--legacy-peer-deps", "--loglevel=error", *PACKAGES[name]],
                   cwd=folder, check=True, timeout=1800)
    return root


def run_loader(name: str, root: Path) -> tuple[list[dict[str, Any]], float, float]:
    """The loader's records, its wall time and the peak memory (MB) of the Node process."""
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        command = ["node", f"--max-old-space-size={MEMORY_MB}", "--experimental-permission",
                   "--allow-fs-read=*", f"--allow-fs-write={tmp}", "--no-warnings",
                   str(LOADER), name, str(root)]
        env = {"PATH": os.environ.get("PATH", ""), "HOME": tmp, "TMPDIR": tmp,
               "NODE_ENV": "production"}
        started = time.perf_counter()
        done = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT, check=False)
        wall = time.perf_counter() - started
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    # The process's own peak (RUSAGE_CHILDREN would be the largest of every child so far).
    peak = next((r["max_rss_kb"] / 1024 for r in records if "max_rss_kb" in r), 0.0)
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        records.append({"file": "(process)", "error": f"exit {done.returncode}: {tail}"})
    return records, wall, peak


def conditions(fields: tuple[DataField, ...]) -> int:
    total = 0
    for f in fields:
        total += len(f.shown_when)
        target = f.type.items if f.type.kind == "array" and f.type.items else f.type
        total += conditions(target.fields)
    return total


def tally(name: str, records: list[dict[str, Any]]) -> Tally:
    out = Tally()
    seen: set[str] = set()
    for record in records:
        if "stubbed" in record:
            out.stubbed = record["stubbed"]
            continue
        if "error" in record or not isinstance(record.get("type"), str):
            out.errors.append(f"{record.get('file')}: {record.get('error', 'no name')}")
            continue
        if record["type"] in seen:  # the first definition wins, as in the catalog
            continue
        seen.add(record["type"])
        data_type, problems = fieldlist.data_type(record.get("fields") or [], LISTS[name])
        out.problems += len(problems)
        top, nested = fieldlist.count(data_type.fields)
        out.with_fields += bool(top)
        out.top, out.nested = out.top + top, out.nested + nested
        out.conditions += conditions(data_type.fields)
        out.nodes.append(NodeDef(
            type=record["type"], label=str(record.get("label") or record["type"]),
            inputs_declared=False, outputs_declared=False, default_data_declared=False,
            source=Location(file=str(record["file"]), line=1), data_type=data_type))
    return out


def github_check(catalog: Catalog) -> None:
    data = {"resource": "issue", "operation": "create", "owner": "n8n-io",
            "repository": "n8n"}
    findings = validate_node_data("githubV1" if "githubV1" in catalog.specs else "github",
                                  data, catalog, "strict")
    print("  validate_node github {resource: issue, operation: create} without title "
          "(profile strict):")
    for finding in findings:
        print(f"    {finding.level}: {finding.path}: {finding.message}")


def report(name: str, records: list[dict[str, Any]], wall: float, peak: float,
           loaded_check: bool = False) -> None:
    started = time.perf_counter()
    found = tally(name, records)
    model = Model(nodes=tuple(found.nodes))
    document = schema_document(model)
    skills = sum(len(node_data_shape(n, "runtime")) for n in model.nodes)
    catalog = build_catalog(model)
    python_wall = time.perf_counter() - started
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  nodes read: {len(found.nodes)} of {len(records)} modules "
          f"({found.with_fields} with fields); unreadable: {len(found.errors)}")
    print(f"  fields: {found.top} top-level, {found.nested} nested; conditions: "
          f"{found.conditions}; descriptors left out: {found.problems}")
    print(f"  node run: {wall:.1f} s, peak {peak:.0f} MB; pygen side (fields, schema "
          f"{len(document) // 1024} KB, skills {skills // 1024} KB): {python_wall:.1f} s, "
          f"peak {own_peak:.0f} MB")
    for error in found.errors[:5]:
        print(f"  unreadable: {error}")
    print(f"  values read through {len(found.stubbed)} packages that are not installed "
          f"(stand-ins): {', '.join(found.stubbed[:8])}{', …' if found.stubbed[8:] else ''}")
    if loaded_check:
        started = time.perf_counter()
        Catalog.from_json(document, "bench")
        print(f"  loading the schema document as the server does (meta-schema check of each "
              f"node): {time.perf_counter() - started:.1f} s")
    if name == "n8n":
        versions = {r.get("type"): r.get("version") for r in records if "type" in r}
        for node in found.nodes:
            if node.type in ("httpRequest", "slack", "if"):
                top, nested = fieldlist.count(node.data_type.fields)
                print(f"  {node.type}: version {versions.get(node.type)}, {top} top-level and "
                      f"{nested} nested fields")
        github_check(catalog)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.real_catalogs")
    parser.add_argument("--only", choices=sorted(PACKAGES))
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pygen-bench")
    parser.add_argument("--load-document", action="store_true",
                        help="also time loading the schema document the way the server does")
    args = parser.parse_args()
    for name in [args.only] if args.only else sorted(PACKAGES):
        print(f"-- {name}", flush=True)
        try:
            root = install(args.cache, name)
        except (subprocess.SubprocessError, OSError) as exc:
            print(f"  cannot install {' + '.join(PACKAGES[name])}: {exc}")
            continue
        records, wall, peak = run_loader(name, root)
        report(name, records, wall, peak, args.load_document)


if __name__ == "__main__":
    main()
