"""Our example declares what its editor enforces (typed handles, single-edge inputs, a graph
that never loops): each rule fires with its rule id, in `pygen validate-workflow` on the
example's workflows and in the served `validate_workflow_json`, and the skills describe it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from cli_run import run
from mcp import Client

from pygen.server.app import build_server
from pygen.server.store import load_store

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / "examples" / "studio" / "workflows"
# workflow file → the one rule it breaks (None: valid)
EXPECTED = {"trailer": None, "cycle": "graph-cycle",
            "two-edges-into-one-input": "input-edge-limit", "text-into-image": "connection-type"}


def _rules(findings: list[dict[str, Any]]) -> list[str]:
    return [f["rule"] for f in findings if f["level"] == "error"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_validate_workflow_cli_reports_each_graph_rule(name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(REPO, "validate-workflow", "--json", str(WORKFLOWS / f"{name}.json"),
                 monkeypatch=monkeypatch)
    rule = EXPECTED[name]
    assert _rules(json.loads(result.output)["findings"]) == ([rule] if rule else [])
    assert result.exit_code == (1 if rule else 0)


def test_the_served_tool_reports_them_and_a_self_loop() -> None:
    docs = {n: json.loads((WORKFLOWS / f"{n}.json").read_text(encoding="utf-8"))
            for n in EXPECTED}
    looped = json.loads(json.dumps(docs["trailer"]))
    looped["nodes"].append({"id": "up", "type": "upscale-image", "position": {"x": 0, "y": 0},
                            "data": {"label": "Upscale Image"}})
    looped["edges"].append({"id": "self", "source": "up", "sourceHandle": "image",
                            "target": "up", "targetHandle": "image"})
    docs["self-loop"] = looped

    async def main() -> dict[str, list[str]]:
        async with Client(build_server(load_store(REPO / "skills"))) as client:
            out = {}
            for name, doc in docs.items():
                result = await client.call_tool("validate_workflow_json", {"workflow": doc})
                out[name] = _rules(result.structured_content["findings"])  # type: ignore
            return out

    found = anyio.run(main)
    assert found == {**{n: [r] if r else [] for n, r in EXPECTED.items()},
                     "self-loop": ["graph-self-loop"]}


def test_the_skills_describe_the_rules() -> None:
    editor = (REPO / "skills" / "workflow-editor.md").read_text(encoding="utf-8")
    assert "The graph must be acyclic: no cycles, no edge from a node to itself." in editor
    merge = (REPO / "skills" / "nodes" / "merge-video-audio.md").read_text(encoding="utf-8")
    assert "`video` (type `video`, one edge at most), `audio` (type `audio`, one edge at " \
           "most)" in merge
    combine = (REPO / "skills" / "nodes" / "combine-videos.md").read_text(encoding="utf-8")
    assert "**Inputs (target handles):** `videos` (type `video`)\n" in combine
