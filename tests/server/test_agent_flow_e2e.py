"""An agent's whole flow through `pygen serve` over stdio with the real MCP client:
search_nodes → get_node_skill(minimal) → validate_workflow_json → autofix_workflow for a
five-node workflow, and what it costs to read."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from bench.agent_flow import QUERIES, broken_workflow, measure

REPO = Path(__file__).resolve().parents[2]
# Characters read for the whole flow (15,847 when written); main before issue 14 read
# 57,215 (~14.3k tokens) for the same five nodes.
BUDGET = 17_000


def test_the_flow_reads_under_budget_and_uses_the_new_tools(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(REPO / "skills", skills)
    reads = measure(REPO, skills)
    names = [name for name, _ in reads]
    assert names == ["tools/list", *["search_nodes"] * len(QUERIES), "get_node_skill",
                     "validate_workflow_json", "autofix_workflow"]
    total = sum(chars for _, chars in reads)
    assert total <= BUDGET, reads
    assert dict(reads)["tools/list"] <= 8_000


def _call(session: ClientSession, name: str, args: dict[str, Any]) -> Any:
    return session.call_tool(name, args)


def test_each_step_answers_what_the_next_needs(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(REPO / "skills", skills)
    workflow = broken_workflow(skills)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    params = StdioServerParameters(command=sys.executable, env=env,
                                   args=["-m", "pygen", "serve", "--skills-dir", str(skills)])
    answers: dict[str, Any] = {}

    async def main() -> None:
        with (tmp_path / "err.log").open("w") as err:
            async with stdio_client(params, errlog=err) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                answers["search"] = await _call(session, "search_nodes",
                                                {"query": "animate image", "limit": 3})
                answers["minimal"] = await _call(session, "get_node_skill", {
                    "node_types": ["generate-image", "Image_To_Video"], "detail": "minimal"})
                answers["validate"] = await _call(session, "validate_workflow_json",
                                                  {"workflow": workflow})
                answers["fix"] = await _call(session, "autofix_workflow", {"workflow": workflow})
                fixed = answers["fix"].structured_content["workflow"]
                answers["again"] = await _call(session, "validate_workflow_json",
                                               {"workflow": fixed})

    anyio.run(main)
    assert answers["search"].content[0].text.startswith("image-to-video — Image to Video")
    minimal = answers["minimal"].content[0].text
    assert minimal.startswith("generate-image (Generate Image, ai)")
    assert "Unknown node_type 'Image_To_Video'. Did you mean: image-to-video" in minimal
    found = answers["validate"].structured_content["findings"]
    assert {(f["rule"], f.get("fix", {}).get("op")) for f in found} >= {
        ("unknown-field", "rename"), ("field-mapping-missing", "set"), ("position", "set")}
    fixed = answers["fix"].structured_content
    assert fixed["valid"] and fixed["remaining"] == []
    assert answers["again"].structured_content["findings"] == []
    assert "aspect_ratio" not in json.dumps(fixed["workflow"])
