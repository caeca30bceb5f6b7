"""The workflow editor's generated lists: the node catalog and which server has which tool.

The catalog is one line per node, grouped by category. A catalog too large to read whole
(more than LARGE_CATALOG nodes) becomes one line per category with its size and first types,
and points at `search_nodes`: reading 2,000 lines costs an agent more than a search does.
The tools block names, one line each, what `pygen serve` serves and what lives on the app's
own MCP server (the configured `tools` sources), so agents know where to call what.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pygen.model import Handle, Model, NodeDef, ToolSchema
from pygen.output import visible_line
from pygen.skills.conventions_text import conventions_lines
from pygen.skills.markdown import code, one_line

LARGE_CATALOG = 150
TOOLS_BLOCK = "tools"
SERVED_HEADING = "This server (skills and checks, all read-only):"
TOOL_MARK = " · tool "  # a catalog line's node tool: `- `type` Label: in … → out … · tool `x``
_PER_CATEGORY = 8

# What `pygen serve` answers, one line each (tests check it matches the running server, and
# the server rewrites the block it serves from its own tool list).
SERVED_TOOLS: tuple[tuple[str, str], ...] = (
    ("start_workflow_editor", "this guide"),
    ("search_nodes(query)", "find node types by what they do"),
    ("get_node_skill(node_type | node_types, detail)", "a node's fields, handles and tool; "
     "detail minimal, standard or full"),
    ("validate_node(node_type, data)", "check one node's data"),
    ("validate_workflow_json(workflow)", "check a whole workflow before saving it"),
    ("autofix_workflow(workflow)", "apply the mechanical fixes validation suggests"),
)
# Served only beside a protocol registry (`<skills_dir>/protocol/registry.toml`).
PROTOCOL_TOOLS: tuple[tuple[str, str], ...] = (
    ("list_callable_skills", "skills callable through the Skill Call Protocol"),
    ("plan_skill_call, validate_skill_result", "plan a protocol call, check its result"),
)


def catalog_lines(model: Model) -> str:
    groups: dict[str, list[NodeDef]] = {}
    for node in model.nodes:
        groups.setdefault(node.category or "other", []).append(node)
    said = conventions_lines(model.conventions,
                             any(n.default_variant for n in model.nodes))
    if len(model.nodes) > LARGE_CATALOG:
        return "\n".join([*said, _summary(groups, len(model.nodes))])
    lines: list[str] = [*said]
    for category, nodes in groups.items():
        lines += [f"**{one_line(category)}**", *(_node_line(n) for n in nodes), ""]
    return "\n".join(lines).rstrip("\n")


def _node_line(node: NodeDef) -> str:
    ins = _handles(node, "inputs")
    outs = _handles(node, "outputs")
    tool = f"{TOOL_MARK}{code(node.tool.name)}" if node.tool else ""
    return f"- {code(node.type)} {' '.join(node.label.split())}: in {ins} → out {outs}{tool}"


def _handles(node: NodeDef, side: Literal["inputs", "outputs"]) -> str:
    handles: Sequence[Handle] = getattr(node, side)
    # An id is code: a code span on one line (a newline spelled `\n`), so no id can start
    # a heading or a list of its own in the guide.
    listed = ", ".join(code(visible_line(h.id)) if h.id is not None else "unnamed"
                       for h in handles)
    dynamic = getattr(node, f"{side}_dynamic")
    if dynamic is not None:
        patterns = ", ".join(p.replace("*", "<id>") for p in dynamic.patterns) or "any id"
        return f"{listed + ', ' if listed else ''}dynamic ({patterns})"
    if not getattr(node, f"{side}_declared"):
        return "not declared"
    return listed or "none"


def _summary(groups: dict[str, list[NodeDef]], total: int) -> str:
    lines = [f"{total} node types; find one with `search_nodes(query)`. By category:"]
    for category, nodes in groups.items():
        shown = ", ".join(code(n.type) for n in nodes[:_PER_CATEGORY])
        more = f", … (+{len(nodes) - _PER_CATEGORY})" if len(nodes) > _PER_CATEGORY else ""
        lines.append(f"- **{one_line(category)}** ({len(nodes)}): {shown}{more}")
    return "\n".join(lines)


def tools_block(model: Model, protocol: bool = True) -> str:
    """The tools block; the protocol's tools only when the skills have a registry (`protocol`),
    the app's own server's tools only when tool sources are configured."""
    served = SERVED_TOOLS + (PROTOCOL_TOOLS if protocol else ())
    lines = [SERVED_HEADING]
    lines += [f"- `{name}`: {what}" for name, what in served]
    app = _app_tools(model.tools)
    if app:
        lines += ["", "The app's own MCP server (these do the work):"]
        lines += [f"- {code(tool.name)}: {_first_sentence(tool.description)}" for tool in app]
    return "\n".join(lines)


def _app_tools(tools: Sequence[ToolSchema]) -> list[ToolSchema]:
    return sorted(tools, key=lambda t: t.name)


def _first_sentence(text: str) -> str:
    sentence = " ".join(text.split()).split(". ")[0].rstrip(".")
    return sentence[:1].lower() + sentence[1:] if sentence else "(no description)"
