"""Every MCP argument has a size limit answered with one error; replies have a size cap.

Through the real SDK stdio client against `pygen serve`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
from mcp_types import CallToolResult
from serve_helpers import stdio_session, text_of

from pygen.server import limits

REPO = Path(__file__).resolve().parents[2]


def make_skills(root: Path, big_nodes: int = 0) -> Path:
    (root / "nodes").mkdir(parents=True)
    (root / "workflow-editor.md").write_text("# Editor\n", encoding="utf-8")
    shutil.copytree(REPO / "skills" / "schemas", root / "schemas")
    for i in range(big_nodes):
        (root / "nodes" / f"big-{i}.md").write_text(f"# big-{i}\n" + "x" * 30_000 + "\n",
                                                     encoding="utf-8")
    return root


def calls(tmp_path: Path, requests: list[tuple[str, dict[str, Any]]],
          big_nodes: int = 0) -> list[CallToolResult]:
    skills = make_skills(tmp_path / "skills", big_nodes)

    async def main() -> list[CallToolResult]:
        async with stdio_session(["--skills-dir", str(skills)], tmp_path / "err.log") as client:
            return [await client.call_tool(name, args) for name, args in requests]

    return anyio.run(main)


def workflow(nodes: int, edges: int = 0) -> dict[str, Any]:
    return {"nodes": [{"id": f"n{i}", "type": "t", "position": {"x": 0, "y": 0}, "data": {}}
                      for i in range(nodes)],
            "edges": [{"id": f"e{i}", "source": "n0", "target": "n0"} for i in range(edges)]}


def test_oversized_arguments_are_one_error_each(tmp_path: Path) -> None:
    too_many = limits.MAX_WORKFLOW_NODES + 1
    results = calls(tmp_path, [
        ("get_node_skill", {"node_types": [f"t{i}" for i in range(limits.MAX_NODE_TYPES + 1)]}),
        ("get_node_skill", {"node_types": ["x" * (limits.MAX_NAME_LENGTH + 1)]}),
        ("search_nodes", {"query": "q" * (limits.MAX_QUERY_LENGTH + 1)}),
        ("validate_workflow_json", {"workflow": workflow(too_many)}),
        ("autofix_workflow", {"workflow": json.dumps(workflow(1, limits.MAX_WORKFLOW_EDGES + 1))}),
        ("validate_workflow_json", {"workflow": " " * limits.MAX_WORKFLOW_BYTES + "{}"}),
    ])
    texts = [text_of(r) for r in results]
    assert all(r.is_error for r in results), texts
    assert all("\n" not in t and len(t) < 300 for t in texts), texts
    assert f"at most {limits.MAX_NODE_TYPES} items" in texts[0]
    assert texts[0].startswith("Error executing tool get_node_skill: argument validation "
                               "error: node_types:")
    assert f"at most {limits.MAX_NAME_LENGTH} characters" in texts[1]
    assert texts[2].startswith("Error executing tool search_nodes: argument validation error: "
                               "query:")
    assert f"workflow.nodes: {too_many} nodes, more than the" in texts[3]
    assert "workflow.edges:" in texts[4] and "check it in parts" in texts[4]
    assert "bytes of JSON, more than the" in texts[5]


def test_a_reply_past_the_budget_says_what_was_left_out(tmp_path: Path) -> None:
    names = [f"big-{i}" for i in range(60)]
    [result] = calls(tmp_path, [("get_node_skill", {"node_types": names})], big_nodes=60)
    text = text_of(result)
    assert not result.is_error
    assert len(text) <= limits.MAX_REPLY_CHARS + 200
    served = text.count("# big-")
    assert 0 < served < 60
    assert text.endswith(f"{60 - served} more node types did not fit in this reply; ask for "
                         "them in another call.")
