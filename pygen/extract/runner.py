"""Run the Node extractor and turn its JSON into model objects (or one-line errors)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pygen import files, jsonread, proc
from pygen.cleantext import clean_json
from pygen.config import Config, FieldList
from pygen.errors import ExtractionError, located
from pygen.extract import handle_sides, noderuntime, prestart, typenames, versionsplit, warm
from pygen.extract.infer import with_inferred_type
from pygen.jsonread import JsonInputError
from pygen.model import DataType, Diagnostic, NodeDef, NodeSources, SourceFile, StandIn
from pygen.output import excerpt

PROTOCOL = 1


@dataclass(frozen=True)
class Extraction:
    nodes: tuple[NodeDef, ...]
    sources: tuple[SourceFile, ...]
    diagnostics: tuple[Diagnostic, ...]
    # The workflow document's type (config `workflow_type`), when one is configured and read.
    workflow: DataType | None = None
    # Workspace sources read in place of missing build outputs.
    stand_ins: tuple[StandIn, ...] = ()
    # The editor's union of every node's data type, when found (not configured).
    data_union: str | None = None
    # Node type → where its fields and default values are written (absent in old replies).
    locations: dict[str, NodeSources] = field(default_factory=dict)


def request_for(config: Config) -> dict[str, Any]:
    settings = config.settings
    return {
        "root": str(config.root),
        "nodesFile": str(config.nodes_file),
        "definitions": list(config.definitions),
        "variantField": settings.variant_field,
        "tsconfig": str(config.tsconfig) if config.tsconfig else None,
        "dataTypes": settings.data_types,
        "dataUnion": settings.data_union,
        "entryFields": {**settings.entry_fields.model_dump(), "field_list": (
            settings.field_list.entry_field if settings.field_list else None),
            "zod": settings.zod.entry_field if settings.zod else None},
        "workflowType": _workflow_type(config),
        # The names the user set, so one no entry has is reported (once).
        "entryFieldsSet": sorted(settings.entry_fields.model_fields_set),
    }


def _workflow_type(config: Config) -> dict[str, str | None] | None:
    """`Name` or `path/file.ts:Name` (path relative to the config) for the extractor."""
    value = config.settings.workflow_type
    if not value:
        return None
    path, _, name = value.rpartition(":")
    return {"name": name, "file": str(config.path(path)) if path else None}


# Within `remembered()`: request → the reply the extractor gave it, in this process, as JSON
# text (each asker gets its own copy: decoding it again is cheaper than a deep copy).
_replies: dict[str, str] | None = None


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """Within it, a request the extractor already answered is answered again from memory.
    `pygen init` asks the same request up to three times (ranking the candidate, confirming
    it with the config to write, reading its handles from the written config): on a big app
    each one read the whole program again. Only init uses it: its run is short, so no file
    it read changes in between that it should have seen."""
    global _replies
    outer, _replies = _replies, {} if _replies is None else _replies
    try:
        with warm.session():  # and the requests it has not answered go to one process
            yield
    finally:
        _replies = outer


def run_extractor(config: Config, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The extractor's raw reply; raises ExtractionError for anything but a clean document.
    `extra` adds to the request (a partial run: pygen.extract.incremental)."""
    check_inputs(config)
    request = json.dumps({**request_for(config), **(extra or {})})
    if _replies is not None and request in _replies:
        remembered: dict[str, Any] = json.loads(_replies[request])
        return remembered
    reply = _run(config, request)
    if _replies is not None:
        _replies[request] = json.dumps(reply)
    return reply


def _nodes_request(request: str) -> str:
    """The request without what only adds notes (`entryFieldsSet`: a name set that no entry
    has is warned of), so requests asking for the same nodes compare equal."""
    fields = json.loads(request)
    fields.pop("entryFieldsSet", None)
    return json.dumps(fields)


def extract_nodes(config: Config) -> tuple[NodeDef, ...]:
    """The nodes `extract` reads, from a remembered reply whose request differs only in what
    adds notes (init's handles, read with the config it wrote: that config leaves unset the
    entry fields the candidate's confirmation named)."""
    if _replies is not None:
        check_inputs(config)
        wanted = _nodes_request(json.dumps(request_for(config)))
        for request, reply in _replies.items():
            if _nodes_request(request) == wanted:
                return named(parse_reply(json.loads(reply), config.settings.field_list,
                                         config.settings.variant_field), config).nodes
    return extract(config).nodes


def _run(config: Config, request: str) -> dict[str, Any]:
    script = noderuntime.extractor()
    timeout = config.settings.extract_timeout
    started = prestart.take(script, config.root)
    if started is not None:
        done = proc.finish(started, request, timeout)
    else:
        done = warm.run(script, request, timeout, config.root)
    try:
        reply: dict[str, Any] = jsonread.loads_own(done.stdout, "the extractor's reply")
    except JsonInputError:
        if out_of_memory(done):
            raise ExtractionError(
                f"{config.nodes_file}: the extractor ran out of memory (Node's heap limit, "
                f"exit {done.code}) reading the catalog; raise Node's limit in the "
                "environment pygen runs in, e.g. NODE_OPTIONS=--max-old-space-size=8192 "
                "(in MB), and run again") from None
        detail = excerpt(done.stderr if done.stderr.strip() else done.stdout)
        raise ExtractionError(f"{config.nodes_file}: the extractor failed (exit {done.code}): "
                              f"{detail or 'no output'}") from None
    if reply.get("protocol") != PROTOCOL:
        raise ExtractionError("the extractor script does not match this pygen; reinstall pygen")
    if not reply.get("ok"):
        raise ExtractionError(_first_error(reply.get("errors") or [{}], config, script))
    return reply


# What V8 prints when a heap limit ends the process (it then aborts: SIGABRT, or 134).
_HEAP_FATAL = ("JavaScript heap out of memory", "Reached heap limit",
               "Ineffective mark-compacts near heap limit")


def out_of_memory(done: proc.Completed) -> bool:
    """Whether Node died of its heap limit (a large catalog), not of a bug."""
    return done.code != 0 and any(line in done.stderr for line in _HEAP_FATAL)


def check_inputs(config: Config) -> None:
    """The files Node would read, checked before it starts: a pipe would hang it, a device
    or a huge file fill its memory, a folder crash it."""
    where = config.source or "the pygen config"
    inputs = [(config.nodes_file, "nodes_file", "a TypeScript file")]
    if config.tsconfig is not None:
        inputs.append((config.tsconfig, "tsconfig", "a tsconfig JSON file"))
    workflow = _workflow_type(config)
    if workflow and workflow["file"]:
        inputs.append((Path(workflow["file"]), "workflow_type", "a TypeScript file"))
    for path, key, what in inputs:
        try:
            info = path.stat()
        except OSError:
            if key == "nodes_file":
                raise ExtractionError(f"{path}: nodes_file not found; fix nodes_file in "
                                      f"{where}") from None
            continue  # the extractor reports a missing tsconfig or workflow file itself
        kind = files.kind_of(info.st_mode)
        if kind is not None:
            raise ExtractionError(f"{path}: is {kind}; {key} must name {what}: fix it in "
                                  f"{where}")
        if info.st_size > files.MAX_READ:
            raise ExtractionError(f"{path}: larger than {files.MAX_READ >> 20} MB; {key} must "
                                  f"name {what}: fix it in {where}")


def _first_error(errors: list[dict[str, Any]], config: Config,
                 script: noderuntime.NodeScript) -> str:
    error = errors[0]
    if error.get("code") == "no-ts-morph":
        if script.node_path is not None:
            return (f"ts-morph cannot be loaded from {script.node_path}; delete "
                    f"{script.node_path.parent} and run pygen again to reinstall it")
        return f"ts-morph is not installed: run `npm ci` in {script.script.parent.parent}"
    # Always one line: the first says what; anything after it is detail for a bug report.
    message = (str(error.get("message") or "unknown extractor error").splitlines() or [""])[0]
    if error.get("code") == "config":
        return f"{config.source or 'configuration'}: {message}"
    if error.get("file"):
        return located(str(error["file"]), error.get("line"), message, error.get("col"))
    return message


def _node(raw: dict[str, Any], field_list: FieldList | None, notes: list[Diagnostic],
          variant_field: str | None) -> list[NodeDef]:
    """The node(s) of a reply entry; one described by a field list gets its fields from it
    (each descriptor it cannot read is one warning in `notes`), one variant per data shape
    when its versions' fields differ (pygen.extract.versionsplit)."""
    descriptors = raw.get("field_list")
    node = NodeDef.model_validate({k: v for k, v in raw.items() if k != "field_list"})
    if descriptors is None or field_list is None:
        return [node]
    nodes, problems = versionsplit.read(node, descriptors, field_list, variant_field)
    if problems:
        # One warning per node, however many descriptors: an unknown dialect fails them all.
        more = f" (and {len(problems) - 1} more)" if problems[1:] else ""
        notes.append(Diagnostic(
            level="warning", kind="field-list", node_type=node.type, file=node.source.file,
            line=node.source.line, message=f"node '{node.type}': {problems[0]}{more}; those "
            "fields are left out (check the field_list keys against the descriptors)"))
    return nodes


# The reply's lists of files the run reads again: paths on disk, kept byte for byte.
READ_AGAIN = frozenset({"sources", "stand_ins"})


def parse_reply(reply: dict[str, Any], field_list: FieldList | None = None,
                variant_field: str | None = None) -> Extraction:
    """The reply as model objects; `variant_field` (config) names the versions of an entry
    split into variants by its field list."""
    notes: list[Diagnostic] = []
    # The one place text from the code enters the model (a cached reply passes here too).
    reply = clean_json(reply, READ_AGAIN)
    try:
        nodes = tuple(with_inferred_type(node) for raw in reply["nodes"]
                      for node in _node(raw, field_list, notes, variant_field))
        return Extraction(
            nodes=nodes,
            sources=tuple(SourceFile.model_validate(s) for s in reply["sources"]),
            diagnostics=(*(Diagnostic.model_validate(d) for d in reply["diagnostics"]),
                         *notes),
            workflow=DataType.model_validate(reply["workflow"]) if reply.get("workflow")
            else None,
            stand_ins=tuple(StandIn.model_validate(s) for s in reply.get("stand_ins", ())),
            data_union=reply.get("data_union"),
            locations={t: NodeSources.model_validate(p)
                       for t, p in (reply.get("locations") or {}).items()},
        )
    except KeyError as exc:
        raise ExtractionError(f"the extractor's reply is malformed: no {exc}; "
                              "reinstall pygen") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ExtractionError(f"the extractor's reply is malformed: {where}: {first['msg']}; "
                              "reinstall pygen") from None


def extract(config: Config) -> Extraction:
    return named(parse_reply(run_extractor(config), config.settings.field_list,
                             config.settings.variant_field), config)


def named(extraction: Extraction, config: Config) -> Extraction:
    """The extraction with the types workflows name (config `type_template`); read after the
    cache, so a package renamed in package.json is seen."""
    nodes, diagnostics, locations = typenames.with_full_types(
        extraction.nodes, extraction.diagnostics, extraction.locations, config)
    nodes, diagnostics = handle_sides.with_dynamic_sides(nodes, diagnostics, config)
    if nodes is extraction.nodes:
        return extraction
    return replace(extraction, nodes=nodes, diagnostics=diagnostics, locations=locations)


