"""Stage 2, the merge: extraction + MCP tool schemas → the merged Model every later stage reads."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence

from pygen.cleantext import clean_json
from pygen.config import Config
from pygen.extract.load_step import read_load_step
from pygen.extract.runner import extract
from pygen.model import DataField, Model, NodeDef, ToolSchema
from pygen.tools.envelope import declared_envelope
from pygen.tools.fallback_fields import unmatched


def load_model(config: Config, use_cache: bool = False,
               note: Callable[[str], None] | None = None) -> Model:
    """The merged model; `use_cache` reuses .pygen-cache/ for what has not changed (`note`
    hears how much of the catalog was read again)."""
    if use_cache:
        from pygen.extract import cache

        extraction = cache.extract(config, note)
    else:
        extraction = extract(config)
    model = Model(nodes=extraction.nodes, sources=extraction.sources,
                  diagnostics=extraction.diagnostics, stand_ins=extraction.stand_ins,
                  data_union=extraction.data_union, locations=extraction.locations,
                  workflow=extraction.workflow,
                  conventions=declared_envelope(extraction.workflow, config.settings.conventions))
    step, notes = read_load_step(config)
    notes = (*notes, *unmatched(model.conventions, model.nodes))
    if notes or not step.empty:
        model = model.model_copy(update={"load_step": step,
                                         "diagnostics": (*model.diagnostics, *notes)})
    model = attach_tools(model, config, use_cache)
    settings = config.settings
    return mark_results(model, settings.result_fields, settings.runner_fields,
                        settings.node_id_fields)


def attach_tools(model: Model, config: Config, use_cache: bool = False) -> Model:
    if not config.settings.tools and not config.settings.tool_map:
        return model
    from pygen.tools import load_tool_schemas, map_tools

    if not config.settings.run_tools:
        from pygen.tools.recorded import recorded_tools

        tools = recorded_tools(config)
    elif use_cache:
        from pygen.tools import cache as tool_cache

        tools = tool_cache.tool_schemas(config)
    else:
        tools = load_tool_schemas(config.settings.tools, config.root,
                                  config.settings.tool_timeout)
    # Tool names, descriptions and schemas are text from code too: cleaned as they enter.
    tools = tuple(ToolSchema.model_validate(clean_json(t.model_dump(mode="json")))
                  for t in tools)
    mapping = map_tools([n.type for n in model.nodes], tools, config.settings.tool_map)
    nodes = tuple(n.model_copy(update={"tool": mapping.get(n.type)}) for n in model.nodes)
    return model.model_copy(update={"nodes": nodes, "tools": tools})


def mark_results(model: Model, patterns: list[str], runner: Sequence[str] = (),
                 node_ids: Sequence[str] = ()) -> Model:
    """Flag fields matching the `result_fields` globs as result fields, and tag those matching
    `runner_fields` / `node_id_fields` as if they carried `@runner` / `@nodeIds`."""
    if not (patterns or runner or node_ids):
        return model

    def hit(field: DataField, globs: Sequence[str]) -> bool:
        return any(fnmatch.fnmatchcase(field.name, p) for p in globs)

    def flag(field: DataField) -> DataField:
        update: dict[str, object] = {}
        if hit(field, patterns) and not field.result:
            update["result"] = True
        tags = [(t, "") for t, globs in (("runner", runner), ("nodeIds", node_ids))
                if hit(field, globs) and field.tag(t) is None]
        if tags:
            update["tags"] = (*field.tags, *tags)
        return field.model_copy(update=update) if update else field

    def node(n: NodeDef) -> NodeDef:
        dt = n.data_type
        variants = tuple(v.model_copy(update={"fields": tuple(map(flag, v.fields))})
                         for v in dt.variants)
        new_dt = dt.model_copy(update={"fields": tuple(map(flag, dt.fields)), "variants": variants})
        return n.model_copy(update={"data_type": new_dt})

    return model.model_copy(update={"nodes": tuple(map(node, model.nodes))})
