"""The guide a server serves names the tools that server serves, and no empty section."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
from mcp import Client

from pygen.server.app import build_server
from pygen.server.served_tools import with_served_tools
from pygen.server.store import load_store

REPO = Path(__file__).resolve().parents[2]


def guide_and_tools(skills: Path) -> tuple[str, set[str], str]:
    async def main() -> tuple[str, set[str], str]:
        async with Client(build_server(load_store(skills))) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            answer = await client.call_tool("start_workflow_editor", {"detail": "full"})
            resource = await client.read_resource("skill://workflow-editor")
            return answer.content[0].text, tools, resource.contents[0].text
    return anyio.run(main)


def test_a_server_without_registry_or_schemas_does_not_advertise_their_tools(
        tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(REPO / "skills", skills)
    shutil.rmtree(skills / "protocol")
    shutil.rmtree(skills / "schemas")
    guide, tools, resource = guide_and_tools(skills)
    assert guide == resource
    assert "plan_skill_call" not in tools and "plan_skill_call" not in guide
    assert "search_nodes" not in tools and "- `search_nodes(query)`" not in guide
    assert "- `get_node_skill(node_type | node_types, detail)`" in guide
    # The app's own server's tools stay as the block lists them.
    assert "- `update_workflow_json`:" in guide


def test_the_full_server_serves_the_guide_as_generated() -> None:
    guide, tools, _ = guide_and_tools(REPO / "skills")
    assert {"plan_skill_call", "search_nodes", "autofix_workflow"} <= tools
    assert guide == (REPO / "skills" / "workflow-editor.md").read_text(encoding="utf-8")


def test_a_served_tool_the_block_does_not_name_is_added() -> None:
    text = ("<!-- AUTO-GEN:START tools -->\nThis server:\n- `a(x)`: does a\n- `b, c`: b and c\n"
            "\nThe app's own MCP server:\n- `z`: zed\n<!-- AUTO-GEN:END tools -->\n")
    served = with_served_tools(text, {"a": "A.", "c": "C.", "d": "Does d. More.",
                                      "start_film": "An orchestrator."})
    # `b, c` names b, which is not served: c is listed on its own.
    assert served == ("<!-- AUTO-GEN:START tools -->\nThis server:\n- `a(x)`: does a\n"
                      "- `c`: c\n- `d`: does d\n\nThe app's own MCP server:\n- `z`: zed\n"
                      "<!-- AUTO-GEN:END tools -->\n")


def test_placeholder_sections_are_not_served(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(REPO / "skills", skills)
    node = skills / "nodes" / "note.md"
    text = node.read_text(encoding="utf-8")
    start = text.index("## When to use")
    end = text.index("## ", start + 3)
    node.write_text(text[:start] + "## When to use\n\n(Add prose here.)\n\n" + text[end:],
                    encoding="utf-8")
    served = load_store(skills).nodes["note"]
    assert "## When to use" not in served and "(Add prose here.)" not in served
    assert "## Common gotchas" in served
