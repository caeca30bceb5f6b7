"""What an agent reads to build a workflow over `pygen serve` (stdio, real client).

`python -m bench.agent_flow [--repo DIR] [--skills DIR] [--detail LEVEL]`: starts
`python -m pygen serve` from the repo given (default: this one), so the same script measures an
older checkout too, and prints the characters and tokens (chars/4, as `pygen doctor` counts) of
every answer read, for three flows:

- five nodes (the editor skill's example) and twelve nodes (a narrated trailer over the
  example's catalog): what a fresh agent runs. It reads the guide first (its tool says "Call
  FIRST"), searches for each type the guide does not name, then get_node_skill(batch, at
  --detail, default `standard`, what an agent asks for unless told otherwise) →
  validate_workflow_json → autofix_workflow where they exist; on a server without batches,
  get_node_skill per type and validate_workflow_json.
- protocol: list_callable_skills → the protocol's shapes (the compact resource where served,
  else the JSON Schema) → plan_skill_call → validate_skill_result on a result with two slips.

Each flow counts the tool list, which an agent reads on every connection.
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
# What an agent asks search_nodes for each type of the five-node flow, when the guide it read
# does not name the type.
QUERIES = {"text-prompt": "text prompt", "generate-image": "generate image",
           "image-to-video": "animate image", "generate-music": "music",
           "merge-video-audio": "merge video audio"}
TWELVE_QUERIES = {**QUERIES, "list": "list of shots", "loop": "repeat for each shot",
                  "upscale-image": "upscale image", "combine-videos": "join clips",
                  "text-to-speech": "voiceover", "adjust-volume": "lower volume"}


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


def _node(node_id: str, node_type: str, x: int, y: int, **data: Any) -> dict[str, Any]:
    return {"id": node_id, "type": node_type, "position": {"x": x, "y": y},
            "data": {"label": node_id.replace("-", " ").title(), **data}}


def twelve_node_workflow() -> dict[str, Any]:
    """A narrated three-shot trailer over the example's catalog, with the slips an agent makes
    (an unmapped wired input, a node without position, a snake_case field)."""
    nodes = [
        _node("shots", "list", 0, 0, items=["Harbour at dawn", "Storm at noon",
                                             "Lighthouse at night"]),
        _node("each-shot", "loop", 300, 0),
        _node("still", "generate-image", 600, 0, style="cinematic, 35mm"),
        _node("sharp", "upscale-image", 900, 0, scale=2),
        _node("clip", "image-to-video", 1200, 0, prompt="slow push-in, waves crash",
              camera={"motion": "zoom-in", "strength": 0.4},
              fieldMappings={"image": "sourceImageUrl"}),
        _node("reel", "combine-videos", 1500, 0, transition="crossfade"),
        _node("narration", "text-prompt", 0, 300,
              text="Every storm ends. The light stays."),
        _node("voice", "text-to-speech", 300, 300, voice="brian"),
        _node("narrated", "merge-video-audio", 1500, 300, audioVolume=1, videoVolume=0.2),
        _node("score", "generate-music", 0, 600, prompt="brooding strings, slow build",
              duration_seconds=60),
        _node("score-bed", "adjust-volume", 300, 600, gainDb=-12),
        _node("final", "merge-video-audio", 1800, 300, audioVolume=0.6, videoVolume=1),
    ]
    del nodes[-1]["position"]
    edges = [("shots", "items", "each-shot", "items"), ("each-shot", "item", "still", "in"),
             ("still", "image", "sharp", "image"), ("sharp", "image", "clip", "image"),
             ("clip", "video", "reel", "videos"), ("narration", "text", "voice", "text"),
             ("reel", "video", "narrated", "video"), ("voice", "audio", "narrated", "audio"),
             ("narrated", "video", "final", "video"), ("score", "audio", "score-bed", "audio"),
             ("score-bed", "audio", "final", "audio")]
    return {"nodes": nodes, "edges": [
        {"id": f"e{i}", "source": s, "sourceHandle": sh, "target": t, "targetHandle": th}
        for i, (s, sh, t, th) in enumerate(edges, 1)],
        "settings": {"defaultAspectRatio": "16:9", "concurrency": 2}}


def _answer_text(result: Any) -> str:
    """What the agent reads of an answer: its text content (structured content mirrors it)."""
    return "".join(getattr(part, "text", "") for part in result.content)


async def tool_list(session: ClientSession) -> tuple[set[str], tuple[str, int]]:
    listed = await session.list_tools()
    return {t.name for t in listed.tools}, ("tools/list", len(json.dumps(
        [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools])))


async def flow(session: ClientSession, skills: Path, detail: str,
               workflow: dict[str, Any] | None = None,
               queries: dict[str, str] | None = None) -> list[tuple[str, int]]:
    """What a fresh agent reads to build `workflow` (default: the five-node example, broken)."""
    tools, listing = await tool_list(session)
    reads = [listing]
    workflow = broken_workflow(skills) if workflow is None else workflow
    queries = QUERIES if queries is None else queries
    types = list(dict.fromkeys(n["type"] for n in workflow["nodes"]))

    async def call(name: str, args: dict[str, Any]) -> str:
        text = _answer_text(await session.call_tool(name, args))
        reads.append((name, len(text)))
        return text

    # The guide's tool says "Call FIRST": a fresh agent reads it before anything else.
    guide = await call("start_workflow_editor", {}) if "start_workflow_editor" in tools else ""
    if "search_nodes" in tools:
        for node_type in types:
            if f"`{node_type}`" not in guide:
                await call("search_nodes", {"query": queries[node_type], "limit": 3})
        await call("get_node_skill", {"node_types": types, "detail": detail})
        await call("validate_workflow_json", {"workflow": workflow})
        await call("autofix_workflow", {"workflow": workflow})
    else:
        for node_type in types:
            await call("get_node_skill", {"node_type": node_type})
        await call("validate_workflow_json", {"workflow": workflow})
    return reads


REQUEST = {"requestId": "music-1", "skillName": "suno-music-brief",
           "purpose": "a locked music brief for the trailer", "expectedOutputs": ["musicBrief"]}
# Two slips an agent makes: a mode the shape does not allow, a status v1 does not allow.
RESULT = {"requestId": "music-1", "skillName": "suno-music-brief", "status": "done",
          "summary": "Brief for a tense, slow-building score.",
          "outputs": {"musicBrief": {"mode": "final", "mood": "tense", "tempoBpm": 90}}}


async def protocol_flow(session: ClientSession) -> list[tuple[str, int]]:
    """The calls an orchestrator makes to ask another skill for a music brief."""
    tools, listing = await tool_list(session)
    if "plan_skill_call" not in tools:
        return []
    reads = [listing]

    async def call(name: str, args: dict[str, Any]) -> None:
        reads.append((name, len(_answer_text(await session.call_tool(name, args)))))

    await call("list_callable_skills", {})
    uris = {str(r.uri) for r in (await session.list_resources()).resources}
    uri = next(u for u in ("skill://protocol/shapes", "skill://protocol/schema") if u in uris)
    shapes = await session.read_resource(uri)
    reads.append((uri.removeprefix("skill://"),
                  sum(len(getattr(c, "text", "")) for c in shapes.contents)))
    await call("plan_skill_call", {"request": REQUEST})
    await call("validate_skill_result", {"result": RESULT, "request": REQUEST,
                                         "scene_specs": []})
    return reads


def measure(repo: Path, skills: Path, detail: str = "standard"
            ) -> tuple[list[tuple[str, int]], list[tuple[str, int]], list[tuple[str, int]]]:
    """(what was read, characters) for the five-node, protocol and twelve-node flows, against
    `repo`'s pygen over stdio."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "pygen", "serve", "--skills-dir", str(skills)],
                                   env=env, cwd=str(repo))
    nodes: list[tuple[str, int]] = []
    protocol: list[tuple[str, int]] = []
    twelve: list[tuple[str, int]] = []

    async def main() -> None:
        with open(os.devnull, "w") as err:
            async with stdio_client(params, errlog=err) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                nodes.extend(await flow(session, skills, detail))
                protocol.extend(await protocol_flow(session))
                twelve.extend(await flow(session, skills, detail, twelve_node_workflow(),
                                         TWELVE_QUERIES))

    anyio.run(main)
    return nodes, protocol, twelve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.agent_flow")
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--skills", type=Path, default=None)
    parser.add_argument("--detail", choices=("minimal", "standard", "full"), default="standard")
    args = parser.parse_args()
    nodes, protocol, twelve = measure(args.repo.resolve(),
                              (args.skills or args.repo / "skills").resolve(), args.detail)
    for title, reads in ((f"five-node flow (detail={args.detail})", nodes),
                         (f"twelve-node flow (detail={args.detail})", twelve),
                         ("protocol flow", protocol)):
        print(title)
        for name, chars in reads:
            print(f"  {name:24} {chars:7} chars ~{chars // 4:6} tokens")
        total = sum(chars for _, chars in reads)
        print(f"  {'total':24} {total:7} chars ~{total // 4:6} tokens")


if __name__ == "__main__":
    main()
