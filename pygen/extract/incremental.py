"""Incremental extraction: when some files changed since the cached reply, re-read only the
nodes whose files changed and splice them into that reply.

The extractor reports, per definitions entry, the files its node was read from (its entry,
its data type, and what they import) and labels every warning with the part of the run that
wrote it. A partial run (request `only`) re-reads the affected entries of an unchanged
catalog; the result equals what a full run would write. Anything that may reach more than
those nodes runs everything: a changed file no single node owns (the nodes file, tsconfig, a
declaration file, a package's file), a node that reaches too many files, a node type that
changed, appeared or went, entry keys that changed, duplicates or variants in the catalog, a
changed data union, workspace stand-ins, or any answer from the extractor that is not clean.

A partial run loads only what its nodes need when their type lookups weighed only their own
files (`skip_files`): the nodes file's imports of the other nodes' files stay unresolved. The
catalog's warnings, the lookups and the files read are then checked against the last run,
and the list of files read is completed from it (`_scoped_sources`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen.config import SEARCHED_SOURCES, Config

Runner = Callable[[Config, dict[str, Any]], dict[str, Any]]
# Data type lookups that read only the node's own files: by configured name, by naming
# convention, by a cast, or a field list (the name lookups' other candidates are checked by
# the extractor: a changed file declaring one stops the partial run). A structural match,
# or none, weighs every type of the project.
LOCAL_LOOKUPS = frozenset({"config", "name", "cast", "field-list"})
# Lookups a partial run may make with only the re-read nodes' files in its program: the name
# lookups, when every candidate the last full run saw was among those files (`alone`).
SCOPED_LOOKUPS = frozenset({"config", "name", "field-list"})


@dataclass(frozen=True)
class Partial:
    """A partial run's outcome: the whole reply, and how many nodes were read again."""

    reply: dict[str, Any]
    reread: int
    total: int


def changed_files(config: Config, recorded: list[list[str | None]],
                  sha: Callable[[Path], str | None]) -> list[str]:
    """The recorded inputs whose content differs now, relative to the root when inside it."""
    return [relative(config, Path(str(entry[0]))) for entry in recorded
            if sha(Path(str(entry[0]))) != entry[1]]


def relative(config: Config, path: Path) -> str:
    """`path` relative to the root when inside it, as the changed files are named."""
    try:
        return path.relative_to(config.root).as_posix()
    except ValueError:
        return path.as_posix()


def catalog_files(config: Config) -> set[str]:
    """Files that list the entries (the nodes file, files of a `glob:Name` source): a change
    there may reorder or replace entries, so every node is read again."""
    found = {config.nodes_file}
    for spec in config.definitions:
        pattern, _, name = spec.rpartition(":")
        if pattern and pattern not in SEARCHED_SOURCES and name != "*":
            found.update(config.root.glob(pattern))
    out = set()
    for path in found:
        try:
            out.add(path.resolve().relative_to(config.root.resolve()).as_posix())
        except ValueError:
            continue
    return out


def affected(reply: dict[str, Any], changed: list[str],
             catalog: set[str] = frozenset()) -> list[int] | None:  # type: ignore[assignment]
    """The entries whose files include a changed file; None when some change reaches more
    than single nodes, or when re-reading them would cost about as much as everything."""
    facts = _facts(reply)
    if facts is None or not _splicable(reply) or catalog.intersection(changed):
        return None
    owned: dict[str, list[int]] = {}
    for fact in facts:
        for name in fact["files"] or ():
            owned.setdefault(name, []).append(fact["index"])
    if not all(name in owned for name in changed):
        return None
    # A node that reaches a shared file (or too many), or whose data type was chosen among
    # every type of the project, may change with any change.
    searched = {i for i, via in _type_vias(reply).items() if via not in LOCAL_LOOKUPS}
    unknown = searched | {f["index"] for f in facts
                          if f["files"] is None and f["type"] is not None}
    found = unknown | {i for name in changed for i in owned[name]}
    indexes = sorted(_with_shared_types(reply, found))
    return indexes if 2 * len(indexes) <= len(facts) else None


def _data_types(reply: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Entry → its node's data type, for the entries that gave a node."""
    nodes = iter(reply["nodes"])
    return {fact["index"]: next(nodes).get("data_type") or {}
            for fact in reply["incremental"]["facts"] if fact["type"] is not None}


def _type_names(reply: dict[str, Any]) -> dict[int, str]:
    """Entry → the name of its node's data type, for the entries whose node has one."""
    return {i: str(t["name"]) for i, t in _data_types(reply).items() if t.get("name")}


def _type_vias(reply: dict[str, Any]) -> dict[int, str]:
    return {i: str(t.get("via")) for i, t in _data_types(reply).items()}


def _with_shared_types(reply: dict[str, Any], indexes: set[int]) -> set[int]:
    """Entries whose nodes share a data type are read together: the type is read once, by
    the first of them, and its warnings are that entry's."""
    names = _type_names(reply)
    wanted = {names[i] for i in indexes if i in names}
    return indexes | {i for i, name in names.items() if name in wanted}


def _facts(reply: dict[str, Any]) -> list[dict[str, Any]] | None:
    incremental = reply.get("incremental")
    if not isinstance(incremental, dict):
        return None
    facts = incremental.get("facts")
    if not isinstance(facts, list) or len(facts) != incremental.get("entries"):
        return None
    groups = incremental.get("groups")
    if not isinstance(groups, list) or len(groups) != len(reply.get("diagnostics", ())):
        return None
    return facts


def _splicable(reply: dict[str, Any]) -> bool:
    """Whether one node's reading depends on no other node's: no duplicate types, no
    variants (both are decided across entries), no stand-ins."""
    if reply.get("stand_ins"):
        return False
    if any(d.get("kind") == "duplicate" for d in reply.get("diagnostics", ())):
        return False
    return all(n.get("variant") is None for n in reply.get("nodes", ()))


def request_extra(reply: dict[str, Any], indexes: list[int], changed: list[str],
                  skip: list[str] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    """What the partial request adds: the entries to read, the catalog as last read, the
    changed files, and the files the nodes file imports that it may leave out."""
    facts = reply["incremental"]["facts"]
    return {"only": indexes, "entryCount": len(facts),
            "entryTypes": [fact["type"] for fact in facts], "changedFiles": sorted(changed),
            **({"skipFiles": list(skip)} if skip else {})}


def skip_files(config: Config, reply: dict[str, Any], indexes: list[int]) -> list[str]:
    """Files only the entries not read again reach, which the partial run may leave out of
    its program; none when a re-read node's lookup may weigh types beyond its own files, when
    the entries are not one constant's (a glob or a search lists them), or when the workflow
    type is read (it may name any node's data)."""
    if any(":" in d for d in config.definitions) or config.settings.workflow_type:
        return []
    incremental = reply["incremental"]
    facts = {f["index"]: f for f in incremental["facts"]}
    vias = _type_vias(reply)
    if any(not facts[i].get("alone") or vias.get(i) not in SCOPED_LOOKUPS for i in indexes):
        return []
    own = {name for i in indexes for name in facts[i]["files"] or ()}
    return sorted(_others_files(reply, indexes) - own)


def _others_files(reply: dict[str, Any], indexes: list[int]) -> set[str]:
    """The files the entries not in `indexes` reach, as the last run read them."""
    chosen = set(indexes)
    return {name for f in reply["incremental"]["facts"] if f["index"] not in chosen
            for name in f["files"] or ()}


def _scoped_sources(reply: dict[str, Any], fresh: dict[str, Any],
                    indexes: list[int]) -> list[Any] | None:
    """The files a full run would list after a partial run that left files out: the ones it
    read, and the rest as the last run listed them, which only nodes not read again reach
    (those are unchanged); None when the last run listed a file nothing explains, or the
    catalog's own warnings differ (the nodes file read without the files left out), or a
    node's lookup now weighs more than its own files (it would have seen the others')."""
    if _grouped(fresh).get("pre", []) != _grouped(reply).get("pre", []):
        return None
    vias = _type_vias(fresh)
    if any(not f.get("alone") or vias.get(f["index"]) not in SCOPED_LOOKUPS
           for f in fresh["incremental"]["facts"]):
        return None
    read = {s["path"] for s in fresh["sources"]}
    kept = [s for s in reply["sources"] if s["path"] not in read]
    others = _others_files(reply, indexes)
    if any(s["path"] not in others for s in kept):
        return None
    return sorted([*fresh["sources"], *kept], key=lambda s: str(s["path"]))


def partial(config: Config, reply: dict[str, Any], changed: list[str],
            run: Runner) -> Partial | None:
    """The full reply after re-reading the entries `changed` affects, or None when only a
    full run can tell."""
    indexes = affected(reply, changed, catalog_files(config))
    if not indexes:
        return None
    skip = skip_files(config, reply, indexes)
    fresh = _reread(config, reply, indexes, changed, skip, run) if skip else None
    # Leaving files out did not tell (the catalog read without them differs): read the
    # whole program for the same nodes.
    fresh = fresh or _reread(config, reply, indexes, changed, [], run)
    if fresh is None:
        return None
    total = sum(1 for fact in reply["incremental"]["facts"] if fact["type"] is not None)
    return Partial(splice(reply, fresh, set(indexes)), len(indexes), total)


def _reread(config: Config, reply: dict[str, Any], indexes: list[int], changed: list[str],
            skip: list[str], run: Runner) -> dict[str, Any] | None:
    """The partial run's reply, its files read completed when it left files out; None when
    it cannot tell."""
    fresh = run(config, request_extra(reply, indexes, changed, skip))
    if fresh.get("stale") or not _same_catalog(reply, fresh, indexes):
        return None
    if not skip:
        return fresh
    sources = _scoped_sources(reply, fresh, indexes)
    return None if sources is None else {**fresh, "sources": sources}


def _same_catalog(reply: dict[str, Any], fresh: dict[str, Any], indexes: list[int]) -> bool:
    """The re-read entries name the same types with the same keys, and nothing decided
    across the catalog changed."""
    old = {f["index"]: f for f in reply["incremental"]["facts"]}
    new = {f["index"]: f for f in fresh.get("incremental", {}).get("facts", ())}
    if sorted(new) != indexes:
        return False
    for i in indexes:
        if (new[i]["type"], new[i]["keys"]) != (old[i]["type"], old[i]["keys"]):
            return False
        if new[i]["type"] is None:
            return False
    # A node read again that now shares a data type with one that was not: see above.
    others = {name for i, name in _type_names(reply).items() if i not in new}
    if any(name in others for name in _type_names(fresh).values()):
        return False
    return (fresh.get("data_union") == reply.get("data_union")
            and fresh.get("stand_ins") == reply.get("stand_ins")) and _splicable(fresh)


def splice(reply: dict[str, Any], fresh: dict[str, Any], indexes: set[int]) -> dict[str, Any]:
    """The reply a full run would give: nodes, warnings and places of the re-read entries
    from `fresh`, in the order of the entries; the rest of the catalog's from `reply`; what
    the run read and the catalog-wide parts ("pre", "post") from `fresh`; the paths found
    missing from both."""
    facts = reply["incremental"]["facts"]
    new_nodes = {n["type"]: n for n in fresh["nodes"]}
    old_nodes = iter(reply["nodes"])
    nodes = []
    for fact in facts:
        if fact["type"] is None:
            continue
        cached = next(old_nodes)
        nodes.append(new_nodes[fact["type"]] if fact["index"] in indexes else cached)
    locations = {}
    for node in nodes:
        places = fresh["locations"] if node["type"] in new_nodes else reply["locations"]
        if node["type"] in places:
            locations[node["type"]] = places[node["type"]]
    diagnostics, groups = _spliced_diagnostics(reply, fresh, indexes)
    new_facts = {f["index"]: f for f in fresh["incremental"]["facts"]}
    return {**reply, "nodes": nodes, "locations": locations, "diagnostics": diagnostics,
            "sources": fresh["sources"], "workflow": fresh.get("workflow"),
            # Where either run's lookups found nothing: the nodes not read again resolve
            # as the last run saw them.
            "absent": sorted({*reply.get("absent", ()), *fresh.get("absent", ())}),
            **({"unsettled": fresh["unsettled"]} if fresh.get("unsettled") else {}),
            "incremental": {"entries": len(facts),
                            "facts": [new_facts.get(f["index"], f) for f in facts],
                            "groups": groups}}


def _spliced_diagnostics(reply: dict[str, Any], fresh: dict[str, Any],
                         indexes: set[int]) -> tuple[list[Any], list[str]]:
    """Warnings in a full run's order: pre, each entry's reading, mid, each entry's data
    type, post."""
    old = _grouped(reply)
    new = _grouped(fresh)
    order = [f["index"] for f in reply["incremental"]["facts"]]
    out: list[tuple[str, Any]] = [*new.get("pre", [])]
    for phase in ("d", "t"):
        for i in order:
            out += (new if i in indexes else old).get(f"{phase}:{i}", [])
        if phase == "d":
            out += old.get("mid", [])
    out += new.get("post", [])
    return [d for _, d in out], [g for g, _ in out]


def _grouped(reply: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    groups: dict[str, list[tuple[str, Any]]] = {}
    for label, diagnostic in zip(reply["incremental"]["groups"], reply["diagnostics"],
                                 strict=True):
        groups.setdefault(label, []).append((label, diagnostic))
    return groups
