"""What an agent reads to build a five-node workflow over `pygen serve` (stdio, real client).

`python -m bench.agent_flow [--repo DIR] [--skills DIR]`: starts `python -m pygen serve` from
the repo given (default: this one), so the same script measures an older checkout too, and
prints the characters and tokens (chars/4, as `pygen doctor` counts) of every answer read.

The flow uses the tools the server has: search_nodes → get_node_skill(minimal, batch) →
validate_workflow_json → autofix_workflow where they exist; otherwise start_workflow_editor
for the catalog, get_node_skill per type, and validate_workflow_json.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[1]
QUERIES = ("text prompt", "generate image", "animate image", "music", "merge video audio")


def editor_workflow(skills: Path) -> dict[str, Any]:
    """The editor skill's five-node example workflow."""
    text = (skills / "workflow-editor.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"nodes\".*?)\n```", text, re.DOTALL)
    assert block is not None, "workflow-editor.md has no example workflow"
    loaded: dict[str, Any] = json.loads(block.group(1))
    return loaded


def broken_workflow(skills: Path) -> dict[str, Any]:
    """The example with three typical slips: a snake_case field, an unmapped wired input,
    a node without position."""
    workflow = copy.deepcopy(editor_workflow(skills))
    image = next(n for n in workflow["nodes"] if n["type"] == "generate-image")
    image["data"]["aspect_ratio"] = image["data"].pop("aspectRatio", "16:9")
    image["data"]["fieldMappings"] = {}
    del workflow["nodes"][-1]["position"]
    return workflow


def _answer_text(result: Any) -> str:
    """What the agent reads of an answer: its text content (structured content mirrors it)."""
    return "".join(getattr(part, "text", "") for part in result.content)


async def flow(session: ClientSession, skills: Path) -> list[tuple[str, int]]:
    listed = await session.list_tools()
    tools = {t.name for t in listed.tools}
    reads = [("tools/list", len(json.dumps([t.model_dump(mode="json", by_alias=True,
                                                          exclude_none=True)
                                             for t in listed.tools])))]
    workflow = broken_workflow(skills)
    types = list(dict.fromkeys(n["type"] for n in workflow["nodes"]))

    async def call(name: str, args: dict[str, Any]) -> Any:
        result = await session.call_tool(name, args)
        reads.append((name, len(_answer_text(result))))
        return result

    if "search_nodes" in tools:
        for query in QUERIES:
            await call("search_nodes", {"query": query, "limit": 3})
        await call("get_node_skill", {"node_types": types, "detail": "minimal"})
        await call("validate_workflow_json", {"workflow": workflow})
        await call("autofix_workflow", {"workflow": workflow})
    else:
        await call("start_workflow_editor", {})
        for node_type in types:
            await call("get_node_skill", {"node_type": node_type})
        await call("validate_workflow_json", {"workflow": workflow})
    return reads


def measure(repo: Path, skills: Path) -> list[tuple[str, int]]:
    """(what was read, characters) for the flow, against `repo`'s pygen over stdio."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "pygen", "serve", "--skills-dir", str(skills)],
                                   env=env, cwd=str(repo))
    out: list[tuple[str, int]] = []

    async def main() -> None:
        with open(os.devnull, "w") as err:
            async with stdio_client(params, errlog=err) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                out.extend(await flow(session, skills))

    anyio.run(main)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.agent_flow")
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--skills", type=Path, default=None)
    args = parser.parse_args()
    reads = measure(args.repo.resolve(), (args.skills or args.repo / "skills").resolve())
    for name, chars in reads:
        print(f"{name:24} {chars:7} chars ~{chars // 4:6} tokens")
    total = sum(chars for _, chars in reads)
    print(f"{'total':24} {total:7} chars ~{total // 4:6} tokens")


if __name__ == "__main__":
    main()
