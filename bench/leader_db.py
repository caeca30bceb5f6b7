"""n8n's node parameters as the leading n8n MCP server counts them, beside what pygen reads.

`python -m bench.real_catalogs --only n8n --leader-db PATH` reads that server's shipped
SQLite database (`data/nodes.db` in its npm package; nothing of it is kept in this repo) and
counts, for the `n8n-nodes-base` nodes that are not its generated tool variants:

- top-level: every descriptor of the node's `properties`, as stored (the latest version's
  list: notices and descriptors that `@version` conditions hide in that version included);
- nested: inside any descriptor's `options`, each option that has a `type` (a collection's
  fields) with what it nests, and each fixedCollection group's `values` with what they nest;
  the group itself is not counted.

The server's "parameters" figure is top-level + nested. The same counts are made of the
descriptors the bench's loader got from the installed package, and of the fields pygen read:
a leader parameter is read when pygen has a field at the same name path (node, parent names,
group, name), each field matching one parameter. What pygen does not read is said by cause.
"""

from __future__ import annotations

import base64
import gzip
import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pygen.extract import versioned
from pygen.jsonvalues import variant_text
from pygen.model import DataField, NodeDef

PACKAGE = "n8n-nodes-base"
# The server's second core package, which this bench does not install.
SECOND = "@n8n/n8n-nodes-langchain"
# Descriptor types that show something in the editor and hold no value.
NOT_DATA = frozenset({"notice", "callout", "button"})
Path_ = tuple[str, ...]


class LeaderDbError(Exception):
    """The file is not the leader's node database."""


def decode(text: Any) -> list[Any]:
    """A stored `properties_schema`: JSON, or JSON gzipped and base64-encoded."""
    if not isinstance(text, str) or not text:
        return []
    if not text.lstrip().startswith("["):
        text = gzip.decompress(base64.b64decode(text)).decode("utf-8")
    value = json.loads(text)
    return value if isinstance(value, list) else []


def leader_nodes(db: Path, package: str = PACKAGE) -> dict[str, tuple[str, list[Any]]]:
    """Each node of the package (full type name): its stored version and descriptors."""
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(nodes)")}
            if not {"node_type", "package_name", "properties_schema"} <= columns:
                raise LeaderDbError(f"{db}: no `nodes` table with node_type, package_name "
                                    "and properties_schema; give the server's data/nodes.db")
            where = " AND ".join(["package_name = ?", *(
                f"COALESCE({c}, 0) = 0" for c in ("is_tool_variant", "is_community")
                if c in columns)])
            version = "version" if "version" in columns else "''"
            rows = conn.execute(f"SELECT node_type, {version}, properties_schema FROM nodes "
                                f"WHERE {where} ORDER BY node_type", (package,)).fetchall()
    except sqlite3.Error as exc:
        raise LeaderDbError(f"{db}: {exc}") from exc
    return {f"{package}.{str(t).split('.', 1)[-1]}": (str(v), decode(s)) for t, v, s in rows}


def param_paths(descriptors: Any, chain: tuple[dict[str, Any], ...] = (),
                prefix: Path_ = ()) -> Iterator[tuple[Path_, tuple[dict[str, Any], ...]]]:
    """Each parameter the leader's definition counts: its name path, and the descriptors from
    the top-level one down to it."""
    for item in descriptors if isinstance(descriptors, list) else ():
        if not isinstance(item, dict):
            continue
        path, inner = (*prefix, str(item.get("name"))), (*chain, item)
        yield path, inner
        options = item.get("options")
        for option in options if isinstance(options, list) else ():
            if isinstance(option, dict) and isinstance(option.get("values"), list):
                yield from param_paths(option["values"], inner,
                                       (*path, str(option.get("name"))))
            elif isinstance(option, dict) and "type" in option:
                yield from param_paths([option], inner, path)


def count(descriptors: Any) -> tuple[int, int]:
    """Top-level and nested parameters by the leader's definition."""
    paths = [p for p, _ in param_paths(descriptors)]
    top = sum(len(p) == 1 for p in paths)
    return top, len(paths) - top


def field_paths(fields: Iterable[DataField], prefix: Path_ = ()) -> Counter[Path_]:
    """The name path of every field pygen read, nested ones included."""
    out: Counter[Path_] = Counter()
    for f in fields:
        path = (*prefix, f.name)
        out[path] += 1
        target = f.type.items if f.type.kind == "array" and f.type.items else f.type
        if target.kind == "object":
            out.update(field_paths(target.fields, path))
    return out


def cause(chain: tuple[dict[str, Any], ...], version: float | None) -> str | None:
    """Why pygen leaves a parameter out of this version on purpose, if it does: it or what
    holds it is a notice (no value), or is hidden in this version by an `@version` condition."""
    for item in chain:
        if item.get("type") in NOT_DATA:
            return "notices (no value)"
        shown = item.get("displayOptions")
        shown = shown if isinstance(shown, dict) else {}
        if not versioned.shown_in(shown.get("show"), shown.get("hide"), "@version", version):
            return "hidden in the latest version by @version"
    return None


@dataclass
class Tally:
    """Parameters by the leader's definition: theirs, ours, and where ours fall short."""

    leader_nodes: int = 0
    ours_nodes: int = 0
    ours: Counter[str] = field(default_factory=Counter)  # every node the loader read
    leader: Counter[str] = field(default_factory=Counter)  # "top" / "nested"
    package: Counter[str] = field(default_factory=Counter)  # our loader's, same nodes
    read: Counter[str] = field(default_factory=Counter)  # leader parameters pygen read
    gap: Counter[str] = field(default_factory=Counter)  # cause → parameters not read
    missing_nodes: list[str] = field(default_factory=list)
    other_versions: list[str] = field(default_factory=list)  # node: theirs → ours


def level(path: Path_) -> str:
    return "top" if len(path) == 1 else "nested"


def _version(record: dict[str, Any]) -> float | None:
    """The number of the record's latest version (what `@version` conditions compare)."""
    version = record.get("version")
    numbers = [v for v in version if isinstance(v, int | float)] \
        if isinstance(version, list) else [version]
    numbers = [v for v in numbers if isinstance(v, int | float)]
    return float(max(numbers)) if numbers else None


def latest_records(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each type's latest-version record, from the first file defining it (as the bench
    keeps it)."""
    first: dict[str, str] = {}
    out: dict[str, dict[str, Any]] = {}
    for record in records:
        kind = record.get("type")
        if isinstance(kind, str) and first.setdefault(kind, record.get("file", "")) == \
                record.get("file", "") and record.get("latest", True):
            out.setdefault(kind, record)
    return out


def node_fields(nodes: list[NodeDef], record: dict[str, Any]) -> Counter[Path_]:
    """The paths of the fields pygen read for the record's type and version (a class serving
    several versions is split in variants named by their latest: the record's latest's)."""
    for node in nodes:
        if node.type == record["type"] and node.variant in (
                None, variant_text(record.get("version")), _text(record)):
            return field_paths(node.data_type.fields if node.data_type else ())
    return Counter()


def _text(record: dict[str, Any]) -> str:
    version = _version(record)
    return "" if version is None else f"{version:g}"


def compare_node(out: Tally, theirs: list[Any], record: dict[str, Any],
                 nodes: list[NodeDef]) -> None:
    """Add one node's parameters: the leader's, our package's, those pygen read, and why the
    others were not."""
    leader = Counter(p for p, _ in param_paths(theirs))
    package: Counter[Path_] = Counter()
    causes: dict[Path_, Counter[str]] = {}
    version = _version(record)
    for path, chain in param_paths(record.get("fields") or []):
        package[path] += 1
        reason = cause(chain, version)
        if reason:
            causes.setdefault(path, Counter())[reason] += 1
    pygen = node_fields(nodes, record)
    for path, wanted in leader.items():
        out.leader[level(path)] += wanted
        out.package[level(path)] += min(wanted, package[path])
        read = min(wanted, pygen[path])
        out.read[level(path)] += read
        out.gap["not in the installed package (another release)"] += wanted - min(
            wanted, package[path])
        short = max(0, min(wanted, package[path]) - read)
        for reason, n in sorted(causes.get(path, Counter()).items()):
            taken = min(short, n)
            out.gap[reason] += taken
            short -= taken
        out.gap["other"] += short


def compare(db: Path, records: list[dict[str, Any]], nodes: list[NodeDef]) -> Tally:
    out = Tally()
    ours = latest_records(records)
    theirs = leader_nodes(db)
    out.leader_nodes, out.ours_nodes = len(theirs), len(ours)
    for read in ours.values():
        out.ours.update(level(p) for p, _ in param_paths(read.get("fields") or []))
    for kind, (version, descriptors) in theirs.items():
        record = ours.get(kind)
        if record is None:
            out.missing_nodes.append(kind)
            out.leader.update(level(p) for p, _ in param_paths(descriptors))
            out.gap["node not read"] += sum(1 for _ in param_paths(descriptors))
            continue
        if version and _text(record) != version:
            out.other_versions.append(f"{kind.split('.')[-1]} {version}→{_text(record)}")
        compare_node(out, descriptors, record, nodes)
    return out


def _share(part: int, whole: int) -> str:
    return f"{part:,} of {whole:,} ({100 * part / whole:.1f}%)" if whole else "0 of 0"


def print_comparison(db: Path | None, records: list[dict[str, Any]],
                     nodes: list[NodeDef]) -> None:
    """The leader's figures, ours by the same definition, and the gap by cause."""
    if db is None:
        print("  leading n8n MCP server's figures: skipped (give its data/nodes.db with "
              "--leader-db PATH)")
        return
    try:
        t = compare(db, records, nodes)
    except (LeaderDbError, OSError, ValueError) as exc:
        print(f"  leading n8n MCP server's figures: cannot read {exc}")
        return
    top, nested = t.leader["top"], t.leader["nested"]
    print(f"  leading n8n MCP server ({db.name}, {PACKAGE} without its tool variants): "
          f"{t.leader_nodes} nodes, {top:,} top-level + {nested:,} nested = "
          f"{top + nested:,} parameters (each node's stored latest-version list)")
    mine = t.ours["top"] + t.ours["nested"]
    print(f"  the installed package by that definition: {t.ours_nodes} nodes, "
          f"{t.ours['top']:,} top-level + {t.ours['nested']:,} nested = {mine:,}; of the "
          f"leader's it holds {t.package['top']:,} top-level and {t.package['nested']:,} nested")
    print(f"  read by pygen: top-level {_share(t.read['top'], top)}; all parameters "
          f"{_share(t.read['top'] + t.read['nested'], top + nested)}; nested "
          f"{_share(t.read['nested'], nested)}")
    gap = ", ".join(f"{n:,} {reason}" for reason, n in sorted(t.gap.items()) if n)
    print(f"  not read, by cause: {gap or 'none'}")
    print(f"  its nodes pygen did not read: {', '.join(t.missing_nodes) or 'none'}; "
          f"another version number stored there: {', '.join(t.other_versions) or 'none'}")
    second = leader_nodes(db, SECOND)
    counts = [count(descriptors) for _, descriptors in second.values()]
    print(f"  not in these figures, its {SECOND} (not installed here): {len(second)} nodes, "
          f"{sum(c[0] for c in counts):,} top-level + {sum(c[1] for c in counts):,} nested")
