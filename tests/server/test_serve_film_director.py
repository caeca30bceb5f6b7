"""The Film Director orchestrator may only name node types and tools that really exist."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import anyio
import pytest
from mcp import Client

from pygen.protocol.registry import load_registry
from pygen.server.app import build_server
from pygen.server.store import load_store
from pygen.skills.orchestrators import check_orchestrators, parse_frontmatter

REPO = Path(__file__).resolve().parents[2]
SKILL = REPO / "skills" / "film-director" / "SKILL.md"
NODES_TS = REPO / "examples" / "studio" / "src" / "types" / "nodes.ts"
TOOLS_PY = REPO / "examples" / "studio" / "tools" / "studio_tools.py"

# `code` spans; a tool is a snake_case identifier (optionally called), a node type kebab-case.
CODE = re.compile(r"`([^`\n]+)`")
TOOL = re.compile(r"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\(.*\))?")
KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
SKILL_ARG = re.compile(r"get_node_skill\(\s*\"?([^\")<]+)\"?\s*\)")


def spans() -> list[str]:
    return CODE.findall(SKILL.read_text(encoding="utf-8"))


def catalog() -> set[str]:
    """Node types: the generated node skills when present, else NODE_DEFINITIONS' types."""
    nodes = REPO / "skills" / "nodes"
    files = {p.stem for p in nodes.glob("*.md") if not p.name.startswith("_")}
    if files:
        return files
    return set(re.findall(r'^\s*type:\s*"([^"]+)"', NODES_TS.read_text("utf-8"), re.M))


def served_tools(tmp_path: Path) -> set[str]:
    store = load_store(shutil.copytree(REPO / "skills", tmp_path / "skills"))

    async def names() -> set[str]:
        async with Client(build_server(store)) as client:
            return {t.name for t in (await client.list_tools()).tools}

    return anyio.run(names)


def example_tools() -> set[str]:
    spec = importlib.util.spec_from_file_location("studio_tools_for_film_test", TOOLS_PY)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    async def names() -> set[str]:
        async with Client(module.build_server()) as client:
            return {t.name for t in (await client.list_tools()).tools}

    return anyio.run(names)


def test_frontmatter_and_size() -> None:
    text = SKILL.read_text(encoding="utf-8")
    meta = parse_frontmatter(text)
    assert meta["name"] == "film-director"
    assert "REQUIRED FIRST STEP for any cinematic video request" in meta["description"]
    assert len(text.splitlines()) <= 250
    assert check_orchestrators(REPO / "skills") == []


def test_every_node_type_named_is_in_the_catalog() -> None:
    known = catalog()
    # Callable skills (the protocol registry) are named too: they are not node types.
    callable_skills = set(load_registry(REPO / "skills" / "protocol" / "registry.toml").names())
    named = {s for s in spans() if KEBAB.fullmatch(s)} - {"film-director"} - callable_skills
    named |= {m.group(1).strip() for s in spans() if (m := SKILL_ARG.search(s))}
    named |= {s for s in spans() if s in known}
    assert named, "the skill names no node types"
    assert sorted(named - known) == []
    # Every stage of the trailer is covered by a real node.
    for node_type in ("text-prompt", "list", "loop", "generate-image", "image-to-video",
                      "generate-music", "trim-video", "combine-videos", "merge-video-audio"):
        assert f"`{node_type}`" in SKILL.read_text(encoding="utf-8"), node_type


def test_every_tool_named_is_served_or_an_example_tool(tmp_path: Path) -> None:
    if not TOOLS_PY.is_file():
        pytest.skip("the studio example's tools module is not there")
    available = served_tools(tmp_path) | example_tools()
    named = {m.group(1) for s in spans() if (m := TOOL.fullmatch(s))}
    assert {"start_workflow_editor", "get_node_skill", "create_workflow",
            "update_workflow_json"} <= named
    assert sorted(named - available) == []


def test_no_node_shapes_are_embedded() -> None:
    text = SKILL.read_text(encoding="utf-8")
    assert "```json" not in text
    assert not re.search(r'"(type|data|position|sourceHandle|targetHandle)"\s*:', text)
