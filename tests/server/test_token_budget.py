"""What agents read stays small: the tool list, start_workflow_editor (for the example and for
a 2,000-node catalog), and every node's minimal description. Tokens ≈ chars / 4, as
`pygen doctor` counts them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
from mcp import Client

from pygen.model import Handle, Location, Model, NodeDef
from pygen.server.app import build_server
from pygen.server.node_tools import load_node_catalog
from pygen.server.store import load_store
from pygen.skills.catalog_text import PROTOCOL_TOOLS, SERVED_TOOLS, catalog_lines

REPO = Path(__file__).resolve().parents[2]
SKILLS = REPO / "skills"


def tokens(text: str) -> float:
    return len(text) / 4


def tool_list() -> list[dict[str, object]]:
    async def main() -> list[dict[str, object]]:
        async with Client(build_server(load_store(SKILLS))) as client:
            tools = (await client.list_tools()).tools
            return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    return anyio.run(main)


def test_the_tool_list_fits_8k_characters_with_the_protocol_defs_once() -> None:
    listed = tool_list()
    # 6,071 when written (7,775 before the listing was compacted); the bound is 8k,
    # and 7k keeps room for the ~650 characters each orchestrator skill adds.
    assert len(json.dumps(listed)) <= 7_000
    assert not any('"$defs":' in json.dumps(tool["inputSchema"]) for tool in listed)


def test_the_listing_keeps_what_an_agent_needs() -> None:
    tools = {str(t["name"]): t for t in tool_list()}
    for name in ("validate_node", "validate_workflow_json", "autofix_workflow"):
        # Output schemas are cut to an object; the description names the keys returned.
        assert tools[name]["outputSchema"] == {"type": "object"}
        returned = "{changes, remaining, valid}" if name == "autofix_workflow" else (
            "validate_workflow_json returns" if name == "validate_node" else
            "{valid, errors, warnings, findings[{level, path, rule, message, suggestion, fix?}]}")
        assert returned in str(tools[name]["description"])
    profile = tools["validate_workflow_json"]["inputSchema"]["properties"]["profile"]
    assert profile["enum"] == ["strict", "runtime", "minimal"] and "runtime:" in profile[
        "description"]
    assert all(t["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
               for t in tools.values())


def test_the_editor_guide_names_every_tool_this_server_serves() -> None:
    served = {str(tool["name"]) for tool in tool_list()}
    # "a(x, y), b" names a and b: split on commas outside parentheses.
    named = {re.split(r"[(\s]", part.strip())[0] for line, _ in SERVED_TOOLS + PROTOCOL_TOOLS
             for part in re.split(r",(?![^()]*\))", line)}
    orchestrators = {name for name in served if name.startswith("start_")} - {
        "start_workflow_editor"}
    assert named == served - orchestrators


def test_start_workflow_editor_fits_2k_tokens() -> None:
    assert tokens((SKILLS / "workflow-editor.md").read_text(encoding="utf-8")) <= 2_000


def synthetic_model(count: int) -> Model:
    categories = ("input", "ai", "video", "audio", "logic", "utility")
    return Model(nodes=tuple(
        NodeDef(type=f"synth-node-{i}", label=f"Synth Node {i}",
                category=categories[i % len(categories)],
                inputs=(Handle(id="in"),), outputs=(Handle(id="out"),),
                source=Location(file="nodes.ts", line=i + 1))
        for i in range(count)))


def test_start_workflow_editor_fits_6k_tokens_for_2000_nodes() -> None:
    prose = (SKILLS / "workflow-editor.md").read_text(encoding="utf-8")
    start = prose.index("<!-- AUTO-GEN:START node-catalog -->")
    end = prose.index("<!-- AUTO-GEN:END node-catalog -->")
    large = prose[:start] + catalog_lines(synthetic_model(2_000)) + prose[end:]
    assert tokens(large) <= 6_000
    assert "search_nodes" in catalog_lines(synthetic_model(2_000))


def test_minimal_fits_200_tokens_for_every_example_node() -> None:
    nodes = load_node_catalog(SKILLS / "schemas" / "nodes.schema.json")
    assert nodes is not None and len(nodes.types) == 13
    for node_type in nodes.types:
        assert tokens(nodes.minimal(node_type)) <= 200, node_type
