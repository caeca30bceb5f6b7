"""The run: extract → model → render → plan; the commands call these with explicit arguments."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pygen import files
from pygen.config import Config
from pygen.extract.runner import extract
from pygen.model import Model, ToolSchema
from pygen.skills import gitinfo
from pygen.skills.plan import (
    FileUpdate,
    Stamp,
    mark_results,
    node_path,
    plan_blocks_file,
    plan_copy,
    plan_nodes,
    plan_workflow_editor,
)

PROTOCOL_REGISTRY = Path("protocol") / "registry.toml"
PROTOCOL_DOC = Path("protocol") / "skill-call.md"


def load_model(config: Config, use_cache: bool = False) -> Model:
    """The merged model; `use_cache` reuses .pygen-cache/ when nothing read has changed."""
    if use_cache:
        from pygen.extract import cache

        extraction = cache.extract(config)
    else:
        extraction = extract(config)
    model = Model(nodes=extraction.nodes, sources=extraction.sources,
                  diagnostics=extraction.diagnostics)
    model = attach_tools(model, config, use_cache)
    return mark_results(model, config.settings.result_fields)


def attach_tools(model: Model, config: Config, use_cache: bool = False) -> Model:
    if not config.settings.tools and not config.settings.tool_map:
        return model
    from pygen.tools import load_tool_schemas, map_tools

    if use_cache:
        from pygen.extract import cache

        tools = cache.tool_schemas(config)
    else:
        tools = load_tool_schemas(config.settings.tools, config.root,
                                  config.settings.tool_timeout)
    mapping = map_tools([n.type for n in model.nodes], tools, config.settings.tool_map)
    nodes = tuple(n.model_copy(update={"tool": mapping.get(n.type)}) for n in model.nodes)
    return model.model_copy(update={"nodes": nodes, "tools": tools})


def now_stamp(config: Config) -> Stamp:
    """Now, in UTC; SOURCE_DATE_EPOCH pins it for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    seconds = int(epoch) if epoch and epoch.isdigit() else int(time.time())
    return Stamp(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)),
                 functools.cache(lambda: gitinfo.short_sha(config.root)))


def tool_renderer() -> Callable[[ToolSchema], str] | None:
    try:
        from pygen.skills.render_tools import render_mcp_call
    except ImportError:
        return None
    return render_mcp_call


@dataclass(frozen=True)
class Plan:
    model: Model
    updates: tuple[FileUpdate, ...]

    @property
    def changed(self) -> tuple[FileUpdate, ...]:
        return tuple(u for u in self.updates if u.status != "unchanged")


def existing_texts(paths: list[Path]) -> dict[Path, str | None]:
    return {path: files.read_text(path) for path in paths}


def plan(config: Config, model: Model | None = None, stamp: Stamp | None = None) -> Plan:
    """Every file the run owns, with its current and its new text. Reads, never writes."""
    model = model if model is not None else load_model(config)
    stamp = stamp or now_stamp(config)
    skills = config.skills_dir
    editor = skills / "workflow-editor.md"
    protocol = protocol_blocks(skills)
    from pygen.skills.schema_doc import SCHEMA_FILE

    paths = [node_path(skills, n.type) for n in model.nodes]
    paths += [editor, skills / PROTOCOL_DOC, skills / SCHEMA_FILE]
    if config.fallback_file:
        paths.append(config.fallback_file)
    existing = existing_texts(paths)
    updates = plan_nodes(model, skills, existing, stamp, config.settings.definitions,
                         tool_renderer())
    editor_update = plan_workflow_editor(model, skills, existing, stamp)
    updates.append(editor_update)
    if protocol is not None:
        updates.append(plan_blocks_file(skills / PROTOCOL_DOC, existing,
                                        "# Skill Call Protocol\n", protocol, stamp))
    if config.fallback_file:
        updates.append(plan_copy(config.fallback_file, existing, editor_update))
    updates.append(plan_schema_file(model, skills, existing))
    return Plan(model, tuple(updates))


def plan_schema_file(model: Model, skills_dir: Path,
                     existing: Mapping[Path, str | None]) -> FileUpdate:
    """The per-node JSON Schemas `pygen serve` validates workflows with, without Node."""
    from pygen.skills.schema_doc import SCHEMA_FILE, schema_document

    path = skills_dir / SCHEMA_FILE
    return FileUpdate(path, existing.get(path), schema_document(model))


def protocol_blocks(skills_dir: Path) -> dict[str, str] | None:
    """The protocol doc's blocks, when the skills declare a Skill Call registry."""
    registry_path = skills_dir / PROTOCOL_REGISTRY
    if not registry_path.is_file():
        return None
    from pygen.protocol import load_registry, render_protocol_blocks

    return render_protocol_blocks(load_registry(registry_path))


def apply(plan_: Plan) -> None:
    files.write_all((u.path, u.new) for u in plan_.changed)
