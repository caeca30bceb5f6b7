"""The editor's load step (config `load_step`): the legacy names it rewrites on load.

Saved workflows are judged as the editor would load them: a node of a legacy type, or an
edge on a legacy handle id, that the load step rewrites is a warning naming the current name
(pygen.validation.load_step), never an error. The maps come from the code, each a constant
whose value is an object literal of strings (`path/file.ts:NAME`, read as syntax by the
Node script, no program built), or from the config itself when the code rewrites names in
statements no map holds. A map that cannot be read is one warning; the others still apply.
"""

from __future__ import annotations

import json
from typing import Any

from pygen import jsonread, proc
from pygen.config import Config
from pygen.extract import noderuntime
from pygen.extract.load_functions import read_functions
from pygen.jsonread import JsonInputError
from pygen.load_renames import ByData, LoadRenames
from pygen.model import Diagnostic

KEYS = ("node_types", "input_handles", "output_handles")
DRAWN = ("drawn_inputs", "drawn_outputs")
_TIMEOUT = 60.0


def read_load_step(config: Config) -> tuple[LoadRenames, tuple[Diagnostic, ...]]:
    """The renames the config's load step declares, and a warning per unreadable map."""
    step = config.settings.load_step
    if step is None:
        return LoadRenames(), ()
    refs = [ref for key in (*KEYS, *DRAWN) for ref in getattr(step, key) if isinstance(ref, str)]
    read, notes = _read_maps(config, refs) if refs else ({}, [])
    merged: dict[str, dict[str, Any]] = {key: {} for key in KEYS}
    sources: list[str] = []
    for key in KEYS:
        for ref in getattr(step, key):
            value = read.get(ref) if isinstance(ref, str) else ref
            if value is None:
                continue
            shape = _shaped(value, nested=key != "node_types")
            if shape is None:
                notes.append(_note(f"load_step.{key}: {ref} is not a map of "
                                   + ("{node type: {legacy id: current id}}" if key != "node_types"
                                      else "{legacy type: current type}")
                                   + "; it is left out"))
                continue
            for name, renames in shape.items():
                if isinstance(renames, dict):
                    merged[key].setdefault(name, {}).update(renames)
                else:
                    merged[key][name] = renames
            sources.append(ref if isinstance(ref, str) else "config")
    by_data = {legacy: ByData(**by.model_dump()) for legacy, by in step.node_types_by_data.items()}
    if by_data:
        sources.append("config")
    functions, more = read_functions(config.root, step.handle_functions)
    notes += more
    sources += list(functions)
    drawn_in = _drawn("drawn_inputs", step.drawn_inputs, read, notes, sources)
    drawn_out = _drawn("drawn_outputs", step.drawn_outputs, read, notes, sources)
    return (LoadRenames(**merged, node_types_by_data=by_data, handle_functions=functions,
                        drawn_inputs=drawn_in, drawn_outputs=drawn_out,
                        sources=tuple(dict.fromkeys(sources))), tuple(notes))


def _drawn(key: str, refs: list[str], read: dict[str, Any], notes: list[Diagnostic],
           sources: list[str]) -> dict[str, tuple[str, ...]]:
    """{node type: the handle ids its components draw}: the keys of each type's map, over
    the maps read (a map not of that shape is one warning)."""
    out: dict[str, dict[str, None]] = {}
    for ref in refs:
        value = read.get(ref)
        if value is None:
            continue
        shape = _shaped(value, nested=True)
        if shape is None:
            notes.append(_note(f"load_step.{key}: {ref} is not a map of {{node type: {{handle "
                               f"id: string}}}}; it is left out"))
            continue
        for node_type, ids in shape.items():
            out.setdefault(node_type, {}).update(dict.fromkeys(ids))
        sources.append(ref)
    return {node_type: tuple(ids) for node_type, ids in out.items()}


def _shaped(value: object, nested: bool) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    if nested:
        ok = all(isinstance(v, dict) and all(isinstance(x, str) for x in v.values())
                 for v in value.values())
    else:
        ok = all(isinstance(v, str) for v in value.values())
    return value if ok else None


def _note(message: str, file: str | None = None, line: int | None = None) -> Diagnostic:
    return Diagnostic(level="warning", kind="load-step", message=message, file=file, line=line)


def _read_maps(config: Config, refs: list[str]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """{ref: value} for each `path:NAME` the Node script read; a warning for each other."""
    notes: list[Diagnostic] = []
    wanted = []
    for ref in dict.fromkeys(refs):
        path, _, name = ref.rpartition(":")
        if not path or not name:
            notes.append(_note(f"load_step: '{ref}' is not `path/file.ts:NAME`; it is left out"))
            continue
        wanted.append({"file": path, "name": name, "ref": ref})
    if not wanted:
        return {}, notes
    script = noderuntime.extractor()
    request = {"mode": "load-maps", "root": str(config.root),
               "maps": [{"file": w["file"], "name": w["name"]} for w in wanted]}
    done = proc.run(noderuntime.node_command(script), input=json.dumps(request),
                    timeout=_TIMEOUT, cwd=config.root, env=noderuntime.node_env(script))
    try:
        reply = jsonread.loads_own(done.stdout, "the load-map reply")
    except JsonInputError:
        return {}, [*notes, _note("load_step: the maps could not be read (the Node script "
                                  f"exited {done.code}); no legacy name is rewritten")]
    out: dict[str, Any] = {}
    for want, got in zip(wanted, reply.get("maps") or [], strict=False):
        if "value" in got:
            out[want["ref"]] = got["value"]
        else:
            notes.append(_note(f"load_step: {got.get('problem')}; that map is left out",
                               want["file"], got.get("line")))
    return out, notes

