"""An agent's whole flow through `pygen serve` with the real MCP client, over stdio and over
streamable HTTP: the guide → get_node_skill(minimal) → validate_workflow_json →
autofix_workflow for a five-node workflow on the example's skills, and what it costs to read."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from serve_helpers import serve_http

from bench.agent_flow import broken_workflow, flow, measure

REPO = Path(__file__).resolve().parents[2]
# Characters read for the whole flow at minimal detail (15,847 when written, 14,143 once the
# tool list was compacted); main before issue 14 read 57,215 (~14.3k tokens) for the same
# five nodes. At standard detail 37,407 before issue 24, 31,437 after, 23,949 once a batch
# said each thing once and answers were compact JSON: the target, 6k tokens.
# From issue 34 the flow reads the guide first, as a fresh agent does (its tool says "Call
# FIRST"), and searches only for types the guide does not name: 18,347 minimal, 29,606 standard
# on main; the twelve-node flow 41,856 at standard. Then 16,228 / 25,199 / 34,858 once the
# guide had a compact form and a batch left out how to choose its types.
BUDGET = 17_000
STANDARD_BUDGET = 26_000
TWELVE_BUDGET = 35_500
# The protocol flow: 29,265 before issue 24 (the JSON Schema was the only shapes resource).
PROTOCOL_BUDGET = 16_000


@pytest.mark.slow
def test_the_flow_reads_under_budget_and_uses_the_new_tools(tmp_path: Path) -> None:
    skills = _example_skills(tmp_path)
    reads, protocol, twelve = measure(REPO, skills, "minimal")
    names = [name for name, _ in reads]
    # The example's guide names every type, so a fresh agent needs no search.
    assert names == ["tools/list", "start_workflow_editor", "get_node_skill",
                     "validate_workflow_json", "autofix_workflow"]
    assert [name for name, _ in twelve] == names
    total = sum(chars for _, chars in reads)
    assert total <= BUDGET, reads
    assert dict(reads)["tools/list"] <= 7_000
    assert [name for name, _ in protocol] == [
        "tools/list", "list_callable_skills", "protocol/shapes", "plan_skill_call",
        "validate_skill_result"]
    assert sum(chars for _, chars in protocol) <= PROTOCOL_BUDGET, protocol
    standard, _, twelve = measure(REPO, skills)
    assert sum(chars for _, chars in standard) <= STANDARD_BUDGET, standard
    assert sum(chars for _, chars in twelve) <= TWELVE_BUDGET, twelve


async def _steps(session: ClientSession, workflow: dict[str, Any]) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    answers["search"] = await session.call_tool("search_nodes",
                                                {"query": "animate image", "limit": 3})
    answers["minimal"] = await session.call_tool("get_node_skill", {
        "node_types": ["generate-image", "Image_To_Video"], "detail": "minimal"})
    answers["validate"] = await session.call_tool("validate_workflow_json",
                                                  {"workflow": workflow})
    answers["fix"] = await session.call_tool("autofix_workflow", {"workflow": workflow,
                                                                  "include_workflow": True})
    answers["changes"] = await session.call_tool("autofix_workflow", {"workflow": workflow})
    fixed = answers["fix"].structured_content["workflow"]
    answers["again"] = await session.call_tool("validate_workflow_json", {"workflow": fixed})
    return answers


def _check(answers: dict[str, Any]) -> None:
    assert answers["search"].content[0].text.startswith("image-to-video — Image to Video")
    minimal = answers["minimal"].content[0].text
    assert minimal.startswith("generate-image (Generate Image, ai)")
    assert "Note: 'Image_To_Video' is the MCP tool name of node type 'image-to-video'" in minimal
    found = answers["validate"].structured_content["findings"]
    assert {(f["rule"], f.get("fix", {}).get("op")) for f in found} >= {
        ("unknown-field", "rename"), ("field-mapping-missing", "set"), ("position", "set")}
    fixed = answers["fix"].structured_content
    assert fixed["valid"] and fixed["remaining"] == []
    assert answers["again"].structured_content["findings"] == []
    assert "aspect_ratio" not in json.dumps(fixed["workflow"])
    # Unasked, the workflow is not sent back: the changes say what to apply.
    assert answers["changes"].structured_content == {
        k: v for k, v in fixed.items() if k != "workflow"}


def _example_skills(tmp_path: Path) -> Path:
    skills = tmp_path / "skills"
    shutil.copytree(REPO / "skills", skills)
    return skills


def test_each_step_answers_what_the_next_needs(tmp_path: Path) -> None:
    skills = _example_skills(tmp_path)
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
                answers.update(await _steps(session, workflow))

    anyio.run(main)
    _check(answers)


@pytest.mark.slow
def test_the_flow_over_http_answers_the_same_and_reads_the_same(tmp_path: Path) -> None:
    """`pygen serve --http` on a loopback port: the same steps, the same characters read."""
    skills = _example_skills(tmp_path)
    workflow = broken_workflow(skills)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    answers: dict[str, Any] = {}
    reads: list[tuple[str, int]] = []

    async def main(url: str) -> None:
        async with streamable_http_client(url) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            answers.update(await _steps(session, workflow))
            reads.extend(await flow(session, skills, "minimal"))

    with serve_http(["--skills-dir", str(skills)], tmp_path / "http.log", env=env,
                    cwd=REPO) as (url, _pid):
        anyio.run(main, url)
    _check(answers)
    assert reads == measure(REPO, skills, "minimal")[0]
    assert sum(chars for _, chars in reads) <= BUDGET
