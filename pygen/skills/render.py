"""Pure rendering: model → the Markdown bodies of AUTO-GEN blocks and new-file templates."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pygen.model import ComputedValue, DataField, DataType, Model, NodeDef
from pygen.schema.node_schema import own_variants, tag_disagrees
from pygen.skills.example_data import example_data, unset_to_fill
from pygen.skills.field_budget import fitted
from pygen.skills.field_lines import field_list, literal
from pygen.skills.handles_text import names_text, side_text
from pygen.skills.markdown import cell, code, one_line
from pygen.skills.neighbours import HandleIndex
from pygen.skills.render_tools import render_mcp_call
from pygen.skills.saved_examples import SavedExample, real_lines
from pygen.skills.wired_example import render_wired_example, wired_example

# Blocks of a node file, in the order they appear in a new file. The worked example shows
# the node's neighbours too.
EXAMPLES_BLOCK = "examples"
NODE_BLOCKS = ("node-data-shape", "mcp-call", EXAMPLES_BLOCK)
CATALOG_BLOCK = "node-catalog"
# The generated index in nodes/_README.md, a file for people (`_` files are never served).
INDEX_BLOCK = "node-index"


def own_blocks() -> frozenset[str]:
    """Every AUTO-GEN block id pygen writes; any other id in a skill file is foreign."""
    from pygen.protocol.docs import BLOCKS
    from pygen.skills.catalog_text import TOOLS_BLOCK

    return frozenset((*NODE_BLOCKS, CATALOG_BLOCK, INDEX_BLOCK, TOOLS_BLOCK, *BLOCKS))




def _section(title: str, fields: list[DataField]) -> list[str]:
    return [title, *field_list(fields), ""] if fields else []


def fields_sections(fields: tuple[DataField, ...], type_name: str | None) -> list[str]:
    source = f" (from {code(type_name)})" if type_name else ""
    data = [f for f in fields if not f.result]
    results = [f for f in fields if f.result]
    return [
        *_section(f"**Required data fields**{source}:", [f for f in data if not f.optional]),
        *_section("**Optional data fields:**", [f for f in data if f.optional]),
        *_section("**Result fields** (set them so the canvas shows the generated content):",
                  results),
    ]


def variant_sections(data_type: DataType) -> list[str]:
    first = data_type.variants[0]
    by = f" by {code(first.discriminant)}" if first.discriminant else ""
    lines = [f"**Data variants** (from {code(data_type.name or 'the data type')}, "
             f"discriminated{by}):", ""]
    for variant in data_type.variants:
        head = (f"{code(f'{variant.discriminant}: {literal(variant.value)}')}"
                if variant.discriminant and variant.value is not None else "variant")
        name = f" ({code(variant.name)})" if variant.name else ""
        lines += [f"*{head}*{name}", ""]
        lines += fields_sections(variant.fields, None)
    return lines


def data_type_sections(node: NodeDef) -> list[str]:
    data_type = node.data_type
    if data_type.via == "none":
        keys = ", ".join(code(k) for k in node.default_data) or "none"
        known = f" Keys of its default data: {keys}." if node.default_data_declared else ""
        return [f"**Data fields:** not declared in the code.{known}", ""]
    own = own_variants(node)
    if len(own) == 1 and not data_type.fields:  # a variant (variant_field) shows its own branch
        return fields_sections(own[0].fields, own[0].name or data_type.name) + \
            index_signature_lines(data_type)
    if data_type.variants:
        return variant_sections(data_type) + index_signature_lines(data_type)
    if data_type.via == "inferred":
        return ["**Data fields** (inferred from default data; the code declares no type for "
                "them, so each type is that of its default value):", *field_list(data_type.fields),
                ""]
    if not data_type.fields and not data_type.index_signature:
        return [f"**Data fields:** {code(data_type.name or 'the data type')} has no fields that "
                "could be read.", ""]
    return fields_sections(_as_defaulted(node, data_type.fields), data_type.name) + \
        index_signature_lines(data_type)


def _as_defaulted(node: NodeDef, fields: tuple[DataField, ...]) -> tuple[DataField, ...]:
    """Fields whose `@default` tag disagrees with the default data show the default data's
    value, as the JSON blocks and the schema do (`doctor` reports the disagreement)."""
    return tuple(f.model_copy(update={"default_tag": json.dumps(node.default_data[f.name],
                                                                ensure_ascii=False)})
                 if f.name in node.default_data and tag_disagrees(f, node.default_data[f.name])
                 else f for f in fields)


def index_signature_lines(data_type: DataType) -> list[str]:
    if not data_type.index_signature:
        return []
    return [f"Also accepts other keys ({code(data_type.index_signature)}).", ""]


def default_data_lines(node: NodeDef, definitions: str) -> list[str]:
    if not node.default_data_declared:
        return [f"**Default data:** not declared in {code(definitions)}."]
    source = code(definitions)
    if node.schema_defaults:  # keys zod's `.default(v)` filled in come from the schema
        mixed = len(node.schema_defaults) < len(node.default_data)
        source = f"{source} and " * mixed + "the zod schema's defaults"
    return [f"**Default data** (from {source}):", "", *json_block(node.default_data)]


def json_block(value: Any) -> list[str]:
    return ["```json", json.dumps(value, indent=2, ensure_ascii=False), "```"]


def node_data_shape(node: NodeDef, definitions: str = "NODE_DEFINITIONS",
                    version_key: str | None = None) -> str:
    lines = [f"- **Type:** {code(node.type)}"]
    if node.variant is not None:
        # With a declared version key (`typeVersion`) the node, not its data, names it.
        says = f"its {code(version_key)} says which" if version_key else (
            "its default data says which")
        covers = (f"versions {', '.join(code(v) for v in node.variant_values)}; "
                  if node.variant_values[1:] else "")
        lines.append(f"- **Variant:** {code(node.variant)} ({covers}one of several "
                     f"`{node.type}` nodes; {says})")
    elif node.versions[1:]:
        lines.append(f"- **Versions:** {', '.join(code(v) for v in node.versions)} (the same "
                     "data fields in each)")
    if node.category:
        lines.append(f"- **Category:** {one_line(node.category)}")
    if node.credit_cost is not None:
        lines.append(f"- **Credit cost:** {node.credit_cost}")
    lines += [
        f"- **Inputs (target handles):** {side_text(node, 'inputs')}",
        f"- **Outputs (source handles):** {side_text(node, 'outputs')}",
    ]
    if node.connects_to:
        lines.append(f"- **Outputs connect only to:** {names_text(node.connects_to)} (unless an "
                     "output names its own)")
    if node.tool is not None:
        lines.append(f"- **MCP tool:** {code(node.tool.name)}")
    lines.append("")
    if node.description:
        lines += [node.description, ""]
    lines += fitted(data_type_sections, node)
    lines += default_data_lines(node, definitions)
    lines += computed_lines(node)
    return "\n".join(lines)


def examples(node: NodeDef, model: Model, index: HandleIndex | None = None) -> str:
    """The worked example: the node wired to its neighbours (see wired_example), each with
    valid example data (example_data), and which values are placeholders."""
    lines = render_wired_example(wired_example(node, model, index=index), node.type,
                                 model.conventions.editor_fills_defaults,
                                 bool(node.inputs or node.outputs))
    _, notes = example_data(node, unset_to_fill(model.conventions))
    if not node.default_data_declared:
        lines += ["", "Its data is built from placeholders: the definitions declare no "
                  "default data."]
    if notes.filled and node.default_data_declared:
        lines += ["", "Placeholders fill required fields the default data leaves out: "
                  + ", ".join(code(k) for k in notes.filled) + "."]
    if notes.replaced:
        lines += ["", "Placeholders replace default values that do not fit their field's type: "
                  + ", ".join(code(k) for k in notes.replaced) + "."]
    return "\n".join(lines)


def _computed(node: NodeDef, field: str) -> tuple[ComputedValue, ...]:
    return tuple(c for c in node.computed if c.field == field)


def computed_lines(node: NodeDef) -> list[str]:
    """The values the definitions compute at run time, listed under the static default data."""
    data = _computed(node, "default_data")
    other = [c for c in node.computed if c.field != "default_data"]
    lines: list[str] = []
    if data:
        lines += ["", "**Computed at run time** (the editor fills these data fields in when it "
                  "creates the node; they are not in the default data above):", ""]
        for value in data:
            name = value.path.partition(".")[2]
            where = code(name) if name else "more default data"
            lines.append(f"- {where} — computed at run time: {code(value.text)} "
                         f"({value.type_text})")
    if other:
        lines += ["", "**Known only when the app runs** (the definitions compute them):", ""]
        lines += [f"- {code(v.path)} — {code(v.text)} ({v.type_text})" for v in other]
    return lines


def node_blocks(node: NodeDef, definitions: str, model: Model,
                real: Sequence[SavedExample] = (), index: HandleIndex | None = None
                ) -> dict[str, str]:
    blocks = {"node-data-shape": node_data_shape(node, definitions,
                                                 model.conventions.node_version_key),
              "examples": examples(node, model, index)
              + real_lines(real, model.conventions.node_data_key)}
    if node.tool is not None:
        blocks["mcp-call"] = render_mcp_call(node.tool)
    return blocks


def node_template(node: NodeDef, with_tool: bool) -> str:
    """A new node file: generated blocks around empty sections for people to fill."""
    parts = [f"# {one_line(node.label)}", "", _empty_block("node-data-shape")]
    if with_tool:
        parts += ["## MCP call", "", _empty_block("mcp-call")]
    parts += ["## When to use", "", "", "## Common gotchas", "", "",
              "## Worked example", "", _empty_block("examples").rstrip("\n")]
    return "\n".join(parts) + "\n"


def _empty_block(block_id: str) -> str:
    return f"<!-- AUTO-GEN:START {block_id} -->\n<!-- AUTO-GEN:END {block_id} -->\n"


def workflow_editor_template() -> str:
    return "\n".join([
        "# Workflow Editor — General Patterns",
        "",
        "## Tools",
        "",
        _empty_block("tools").rstrip("\n"),
        "",
        "## Available node types",
        "",
        "Call `get_node_skill(node_type)` for the full schema of any of:",
        "",
        _empty_block(CATALOG_BLOCK).rstrip("\n"),
        "",
    ])


def purpose(node: NodeDef) -> str:
    """The first sentence of the node's description, for a one-line index cell."""
    text = " ".join((node.description or "").split())
    end = text.find(". ")
    return (text[:end + 1] if end >= 0 else text) or "—"


def nodes_index(model: Model, empty_prose: Mapping[str, tuple[str, ...]]) -> str:
    """The table of nodes/_README.md: one row per node, and which of its prose sections a
    person has yet to write."""
    lines = ["| Node type | Label | Category | Purpose | Prose |", "|---|---|---|---|---|"]
    for node in model.nodes:
        link = f"[{code(node.key, table=True)}]({model.file_stems[node.key]}.md)"
        empty = empty_prose.get(node.key, ())
        written = "written" if not empty else "to write: " + ", ".join(empty)
        cells = [link, cell(node.label), cell(node.category or "—"), cell(purpose(node)),
                 written]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def nodes_index_template() -> str:
    return "\n".join([
        "# Node skills",
        "",
        "One file per node type, for agents; this file is for people and is never served.",
        "",
        _empty_block(INDEX_BLOCK).rstrip("\n"),
        "",
    ])
