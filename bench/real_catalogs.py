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
side, the time the server takes to load the schema document, and the validation of n8n's
GitHub node without the `title` its issue/create needs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import leader_db
from pygen.config import FieldList
from pygen.conventions import Conventions
from pygen.extract import fieldlist, load_added, tool_variants, typenames, versionsplit
from pygen.jsonvalues import variant_text
from pygen.model import DataField, Handle, Location, Model, NodeDef
from pygen.schema.document import schema_document
from pygen.skills.render import node_data_shape
from pygen.validation.catalog import Catalog, build_catalog
from pygen.validation.workflow import validate_node_data

LOADER = Path(__file__).with_name("runtime_catalog.cjs")
PACKAGES = {"n8n": ["n8n-nodes-base", "n8n-workflow"], "flowise": ["flowise-components"]}
ROOTS = {"n8n": "n8n-nodes-base", "flowise": "flowise-components"}
LISTS = {"n8n": FieldList(entry_field="properties", preset="n8n"),
         "flowise": FieldList(entry_field="inputs", preset="flowise")}
# How each editor saves a workflow, in the documented `[conventions]` keys (the schema
# document carries them, so `validate-workflow --schemas` needs no config). n8n saves only
# the parameters that differ from their defaults and fills the rest in when it loads a node.
SAVED = {"n8n": Conventions.model_validate(tomllib.loads("""
node_data_key = "parameters"
node_version_key = "typeVersion"
position_pair = true
connections_key = "connections"
connection_node_key = "name"
editor_fills_defaults = true
expression_prefix = "="
error_output = { onError = "continueErrorOutput" }
required_nonempty = true
""")), "flowise": Conventions()}
# The types workflows name, in the documented `type_template` key (n8n registers a node
# under its package's name and its own: `n8n-nodes-base.github`).
TYPE_TEMPLATE = {"n8n": "{package}.{type}"}
WORKFLOW = Path(__file__).with_name("n8n_workflow.json")
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
    # Descriptors in the package itself (nested: inside collections and fixedCollection
    # groups, the groups included), to say how much of them the reader keeps.
    raw_top: int = 0
    raw_nested: int = 0
    # Fields read over every version, not only the latest.
    every_top: int = 0
    every_nested: int = 0
    # Classes serving several versions whose fields differ between them: split in variants.
    split: int = 0
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


def install_release(cache: Path, version: str) -> Path:
    """`n8n-nodes-base` at one release (to compare with figures built from it): the package
    as published and the `n8n-workflow` it names. Its other dependencies are not installed
    (a registry may not hold them all); the loader stands in for them, as it does for any
    package that is not there."""
    folder = cache / f"n8n-{version}"
    root = folder / "node_modules" / "n8n-nodes-base"
    if (root / "package.json").is_file():
        return root
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps({"name": "bench-n8n", "private": True}))
    packed = subprocess.run(["npm", "pack", "--silent", f"n8n-nodes-base@{version}"],
                            cwd=folder, check=True, timeout=600, capture_output=True, text=True)
    with tarfile.open(folder / packed.stdout.strip().splitlines()[-1]) as archive:
        manifest = archive.extractfile("package/package.json")
        wanted = json.load(manifest)["dependencies"]["n8n-workflow"] if manifest else "*"
        subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                        "--legacy-peer-deps", "--loglevel=error", f"n8n-workflow@{wanted}"],
                       cwd=folder, check=True, timeout=1800)
        # After npm, which would remove a package its package.json does not name.
        archive.extractall(folder / "unpacked", filter="data")
    (folder / "unpacked" / "package").rename(root)
    (folder / "unpacked").rmdir()
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


def raw_nested(descriptors: Any) -> int:
    """Descriptors nested in a list as the package writes it (n8n's collection `options`,
    fixedCollection groups and their `values`; Flowise nests none)."""
    total = 0
    for item in descriptors if isinstance(descriptors, list) else ():
        if not isinstance(item, dict):
            continue  # a value read through a stand-in; the reader reports it
        inner = item.get("options")
        if item.get("type") == "collection" and isinstance(inner, list):
            total += len(inner) + raw_nested(inner)
        elif item.get("type") == "fixedCollection" and isinstance(inner, list):
            for group in inner:
                values = group.get("values") if isinstance(group, dict) else None
                values = values if isinstance(values, list) else []
                total += 1 + len(values) + raw_nested(values)
    return total


def conditions(fields: tuple[DataField, ...]) -> int:
    total = 0
    for f in fields:
        total += len(f.shown_when)
        target = f.type.items if f.type.kind == "array" and f.type.items else f.type
        total += conditions(target.fields)
    return total


def named(name: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records with the types workflows name (`type_template`, as `gen` applies it)."""
    template = TYPE_TEMPLATE.get(name)
    if not template:
        return records
    return [{**r, "type": typenames.full_type(template, r["type"], r.get("package"))}
            if isinstance(r.get("type"), str) else r for r in records]


def tally(name: str, records: list[dict[str, Any]]) -> Tally:
    """The nodes read; counts are of each type's latest version, as the targets count them.
    A type with several versions (n8n's VersionedNodeType) has one variant per version."""
    out = Tally()
    first: dict[str, str] = {}
    kept: list[dict[str, Any]] = []
    for record in records:
        if "stubbed" in record:
            out.stubbed = record["stubbed"]
        elif "error" in record or not isinstance(record.get("type"), str):
            out.errors.append(f"{record.get('file')}: {record.get('error', 'no name')}")
        elif first.setdefault(record["type"], record["file"]) == record["file"]:
            kept.append(record)  # the first definition of a type wins, as in the catalog
    kept = loaded(kept, LISTS[name].preset)
    versions = Counter(r["type"] for r in kept)
    for record in kept:
        several = versions[record["type"]] > 1
        default = variant_text(record.get("default_version"))
        # A versioned type's record is read at its own version; a class serving several is
        # read per version and split where the fields differ, as gen does.
        nodes, problems = versionsplit.read(NodeDef(
            type=record["type"], label=str(record.get("label") or record["type"]),
            **sides(record.get("traits")), default_data_declared=False,
            variant=variant_text(record.get("version")) if several else None,
            variant_field="version" if several else None,
            default_variant=default if several else None,
            versions=() if several else tuple(
                v for v in map(variant_text, record.get("versions") or []) if v is not None),
            source=Location(file=str(record["file"]), line=1)),
            record.get("fields") or [], LISTS[name], "version")
        out.split += len(nodes) > 1
        for node in nodes:
            every_top, every_nested = fieldlist.count(node.data_type.fields)
            out.every_top, out.every_nested = (out.every_top + every_top,
                                               out.every_nested + every_nested)
        if record.get("latest", True):
            # The last is the latest version's (variants come in the order of their versions).
            add_latest(out, record, nodes[-1].data_type.fields, len(problems))
        out.nodes += nodes
    return out


def loaded(records: list[dict[str, Any]], preset: str | None) -> list[dict[str, Any]]:
    """The records as the editor's loader leaves them: the parameters it adds on load
    (pygen.extract.load_added), and the types it derives (pygen.extract.tool_variants) after
    each type's own records."""
    out: list[dict[str, Any]] = []
    derived: list[dict[str, Any]] = []
    for record in records:
        traits = record.get("traits")
        record = {**record, "fields": load_added.with_load_added(
            record.get("fields") or [], traits, preset)}
        out.append(record)
        tool = tool_variants.derived(record["type"], str(record.get("label") or ""),
                                     record["fields"], traits, preset)
        if tool is not None:
            derived.append({**record, "type": tool[0], "label": tool[1], "fields": tool[2],
                            "traits": tool[3]})
    return out + derived


def sides(traits: Any) -> dict[str, Any]:
    """A node's connection sides from the run's traits: a static list of kinds is declared
    (each handle named by its kind, later ones of a kind `kind[i]`, as pygen reads a
    connections map); one an expression computes, or a record without traits, is not
    declared."""
    out: dict[str, Any] = {"inputs_declared": False, "outputs_declared": False}
    for side in ("inputs", "outputs"):
        kinds = traits.get(side) if isinstance(traits, dict) else None
        if not isinstance(kinds, list):
            continue
        out[f"{side}_declared"] = True
        out[side] = tuple(Handle(id=k if kinds.index(k) == i else f"{k}[{i}]", type=str(k))
                          for i, k in enumerate(kinds))
    return out


def add_latest(out: Tally, record: dict[str, Any], fields: tuple[DataField, ...],
               problems: int) -> None:
    """Counts of a type's latest version: the package's descriptors and the fields read."""
    out.raw_top += len(record.get("fields") or [])
    out.raw_nested += raw_nested(record.get("fields"))
    out.problems += problems
    top, nested = fieldlist.count(fields)
    out.with_fields += bool(top)
    out.top, out.nested = out.top + top, out.nested + nested
    out.conditions += conditions(fields)


def github_check(catalog: Catalog) -> None:
    data = {"resource": "issue", "operation": "create", "owner": "n8n-io",
            "repository": "n8n"}
    findings = validate_node_data("n8n-nodes-base.github", data, catalog, "strict")
    print("  validate_node github {resource: issue, operation: create} without title "
          "(profile strict):")
    for finding in findings:
        print(f"    {finding.level}: {finding.path}: {finding.message}")


def report(name: str, records: list[dict[str, Any]], wall: float, peak: float,
           leader: Path | None = None) -> None:
    started = time.perf_counter()
    records = named(name, records)
    found = tally(name, records)
    model = Model(nodes=tuple(found.nodes), conventions=SAVED[name])
    document = schema_document(model)
    skills = sum(len(node_data_shape(n, "runtime")) for n in model.nodes)
    catalog = build_catalog(model)
    python_wall = time.perf_counter() - started
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    modules = len({r["file"] for r in records if "file" in r})
    types = len({n.type for n in found.nodes})
    print(f"  nodes read: {types} of {modules} modules ({found.with_fields} with fields; "
          f"{len(found.nodes)} schemas with their versions; {found.split} classes serving "
          f"versions with different fields split in variants); unreadable: "
          f"{len(found.errors)}")
    print(f"  fields: {found.top} top-level, {found.nested} nested; conditions: "
          f"{found.conditions}; descriptors left out: {found.problems}")
    print(f"  descriptors in the package (latest versions): {found.raw_top} top-level, "
          f"{found.raw_nested} nested (notices, which hold no data, are not fields); over "
          f"every version: {found.every_top} top-level and {found.every_nested} nested fields")
    print(f"  node run: {wall:.1f} s, peak {peak:.0f} MB; pygen side (fields, schema "
          f"{len(document) // 1024} KB, skills {skills // 1024} KB): {python_wall:.1f} s, "
          f"peak {own_peak:.0f} MB")
    for error in found.errors[:5]:
        print(f"  unreadable: {error}")
    print(f"  values read through {len(found.stubbed)} packages that are not installed "
          f"(stand-ins): {', '.join(found.stubbed[:8])}{', …' if found.stubbed[8:] else ''}")
    started, cpu = time.perf_counter(), time.process_time()
    Catalog.from_json(document, "bench")
    print(f"  loading the schema document as the server does (parse, meta-schema check of "
          f"each node): {time.perf_counter() - started:.1f} s "
          f"({time.process_time() - cpu:.1f} s CPU)")
    if name == "n8n":
        saved_workflows(document)
    if name == "n8n":
        versions = {r["type"]: variant_text(r.get("version")) for r in records
                    if "type" in r and r.get("latest", True)}
        for node in found.nodes:
            if node.type.split(".")[-1] in ("httpRequest", "slack", "if") and (
                    node.variant is None or node.variant == versions.get(node.type)):
                top, nested = fieldlist.count(node.data_type.fields)
                print(f"  {node.type}: version {versions.get(node.type)}, {top} top-level and "
                      f"{nested} nested fields")
        github_check(catalog)
        leader_db.print_comparison(leader, records, found.nodes)


def broken_workflows() -> dict[str, Any]:
    """The hand-written workflow, and three copies each broken in one way."""
    clean = json.loads(WORKFLOW.read_text(encoding="utf-8"))
    cases: dict[str, Any] = {"clean": clean}
    for case in ("no title", "hidden parameter", "unknown typeVersion"):
        copy = json.loads(json.dumps(clean))
        github = next(n for n in copy["nodes"] if n["type"].endswith(".github"))
        if case == "no title":
            del github["parameters"]["title"]
        elif case == "hidden parameter":
            github["parameters"]["issueNumber"] = 7
        else:
            next(n for n in copy["nodes"] if n["type"].endswith(".set"))["typeVersion"] = 9
        cases[case] = copy
    return cases


def saved_workflows(document: str) -> None:
    """bench/n8n_workflow.json and its broken copies through `pygen validate-workflow
    --schemas` (the real CLI), with the findings counted by rule."""
    print("  validate-workflow --schemas on bench/n8n_workflow.json (profile strict):")
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        schemas = Path(tmp) / "nodes.schema.json"
        schemas.write_text(document, encoding="utf-8")
        for case, workflow in broken_workflows().items():
            path = Path(tmp) / "workflow.json"
            path.write_text(json.dumps(workflow), encoding="utf-8")
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "pygen", "validate-workflow", "--json",
                                   "--profile", "strict", "--schemas", str(schemas), str(path)],
                                  capture_output=True, text=True, check=False, cwd=tmp)
            wall = time.perf_counter() - started
            try:
                found = json.loads(done.stdout)["findings"]
            except (ValueError, KeyError):
                print(f"    {case}: exit {done.returncode}: {done.stderr.strip()[-200:]}")
                continue
            rules = Counter(f"{f['level']} {f['rule']}" for f in found)
            said = "; ".join(f"{f['path']}: {f['message'][:90]}" for f in found[:2])
            print(f"    {case}: exit {done.returncode}, {wall:.1f} s, "
                  f"{dict(rules) or 'no findings'}{' — ' + said if said else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.real_catalogs")
    parser.add_argument("--only", choices=sorted(PACKAGES))
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pygen-bench")
    parser.add_argument("--n8n-version", help="read this n8n-nodes-base release (the "
                        "leader's figures are of one) instead of the latest")
    parser.add_argument("--leader-db", type=Path, help="the leading n8n MCP server's "
                        "data/nodes.db (from its npm package), to compare n8n's figures")
    args = parser.parse_args()
    for name in [args.only] if args.only else sorted(PACKAGES):
        print(f"-- {name}", flush=True)
        try:
            root = install_release(args.cache, args.n8n_version) \
                if name == "n8n" and args.n8n_version else install(args.cache, name)
        except (subprocess.SubprocessError, OSError, KeyError, ValueError) as exc:
            print(f"  cannot install {' + '.join(PACKAGES[name])}: {exc}")
            continue
        records, wall, peak = run_loader(name, root)
        report(name, records, wall, peak, args.leader_db)


if __name__ == "__main__":
    main()
