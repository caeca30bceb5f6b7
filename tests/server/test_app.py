"""build_server through the SDK's in-process client; the subprocess paths are in test_serve_e2e."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, TextContent, TextResourceContents

from pygen.server.app import build_server, swap_content, watch_and_reload
from pygen.server.store import load_store

FILM = "REQUIRED FIRST STEP for any cinematic video request. Directs a short trailer."
FILM_MD = f"---\nname: film-director\ndescription: {FILM}\n---\n\n# Film Director\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write(root / "workflow-editor.md", "# Editor\n")
    write(root / "nodes" / "generate-image.md", "# Generate Image\n")
    write(root / "nodes" / "loop.md", "# Loop\r\n")
    write(root / "film-director" / "SKILL.md", FILM_MD)
    write(tmp_path / "secret.md", "SECRET\n")
    return root


def with_client(server: MCPServer, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(server) as client:
            return await body(client)

    return anyio.run(main)


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def call(server: MCPServer, tool: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
    async def body(client: Client) -> CallToolResult:
        return await client.call_tool(tool, arguments or {})

    result: CallToolResult = with_client(server, body)
    return result


def tools_of(server: MCPServer) -> dict[str, Any]:
    async def body(client: Client) -> dict[str, Any]:
        return {t.name: t for t in (await client.list_tools()).tools}

    return dict(with_client(server, body))


def test_tools_are_the_skills_and_all_read_only(skills: Path) -> None:
    tools = tools_of(build_server(load_store(skills)))
    assert sorted(tools) == ["get_node_skill", "start_film_director", "start_workflow_editor"]
    for tool in tools.values():
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.open_world_hint is False
        # The spec gives these meaning only for tools that write; listing them costs bytes.
        assert tool.annotations.idempotent_hint is None
        assert tool.annotations.destructive_hint is None


def test_descriptions_carry_the_activation_phrases(skills: Path) -> None:
    tools = tools_of(build_server(load_store(skills)))
    editor = tools["start_workflow_editor"].description
    for phrase in ("Call FIRST", "workflow", "edit", "JSON", "update_workflow_json", "node",
                   "get_node_skill"):
        assert phrase in editor
    node = tools["get_node_skill"].description
    assert "detail: minimal (~200 tokens)" in node
    assert tools["start_film_director"].description == FILM


def test_node_type_schema_is_bounded_and_takes_one_type_or_several(skills: Path) -> None:
    tool = tools_of(build_server(load_store(skills)))["get_node_skill"]
    prop = tool.input_schema["properties"]["node_type"]
    # "" (the default) means "not given": node_types may carry the types instead.
    assert (prop["type"], prop["default"], prop["maxLength"]) == ("string", "", 64)
    # No enum: the catalog may hold thousands of types; search_nodes and the errors list them.
    assert "enum" not in json.dumps(tool.input_schema["properties"]["node_type"])
    assert set(tool.input_schema["properties"]) == {"node_type", "node_types", "detail"}
    assert set(tools_of(build_server(load_store(skills)))["start_workflow_editor"].input_schema[
        "properties"]) == {"detail"}


def test_each_tool_returns_its_file(skills: Path) -> None:
    server = build_server(load_store(skills))
    assert text_of(call(server, "start_workflow_editor")) == "# Editor\n"
    assert text_of(call(server, "get_node_skill", {"node_type": "loop", "detail": "full"})) \
        == "# Loop\r\n"
    # standard is the file as an agent acts on it, in plain line ends.
    assert text_of(call(server, "get_node_skill", {"node_type": "loop"})) == "# Loop\n"
    assert text_of(call(server, "start_film_director")) == FILM_MD
    assert not call(server, "start_workflow_editor").is_error


@pytest.mark.parametrize("node_type", ["generate-video", "../secret", "%2e%2e%2fsecret",
                                       "..\\secret", "\uff0e\uff0e\uff0fsecret", "loop\x00"])
def test_unknown_type_is_an_error_result_with_the_valid_list(skills: Path,
                                                             node_type: str) -> None:
    result = call(build_server(load_store(skills)), "get_node_skill", {"node_type": node_type})
    assert result.is_error
    near = {"generate-video": " Did you mean: generate-image?", "loop\x00": " Did you mean: loop?"}
    assert text_of(result) == (
        f"Unknown node_type '{node_type}'.{near.get(node_type, '')} Valid types: generate-image, "
        "loop"
    )


def test_out_of_bounds_node_type_is_rejected_by_the_schema(skills: Path) -> None:
    result = call(build_server(load_store(skills)), "get_node_skill", {"node_type": "x" * 65})
    assert result.is_error
    assert "validation error" in text_of(result) and "node_type" in text_of(result)
    assert "http" not in text_of(result) and "pydantic" not in text_of(result)
    # An empty type is no type: the answer says what to pass.
    missing = call(build_server(load_store(skills)), "get_node_skill", {"node_type": ""})
    assert missing.is_error and text_of(missing) == (
        "Pass node_type, or node_types with one or more types.")


def test_resources_list_every_skill(skills: Path) -> None:
    async def body(client: Client) -> tuple[list[str], str]:
        listed = [str(r.uri) for r in (await client.list_resources()).resources]
        read = await client.read_resource("skill://nodes/loop")
        content = read.contents[0]
        assert isinstance(content, TextResourceContents)
        assert content.mime_type == "text/markdown"
        return listed, content.text

    listed, text = with_client(build_server(load_store(skills)), body)
    assert listed == ["skill://workflow-editor", "skill://nodes/generate-image",
                      "skill://nodes/loop", "skill://film-director"]
    assert text == "# Loop\r\n"


@pytest.mark.parametrize("uri", ["skill://nodes/../secret", "skill://nodes/%2e%2e%2fsecret",
                                 "skill://nodes/loop.md", "skill://../secret"])
def test_resources_outside_the_listed_set_are_not_found(skills: Path, uri: str) -> None:
    async def body(client: Client) -> None:
        with pytest.raises(MCPError, match="Unknown resource"):
            await client.read_resource(uri)

    with_client(build_server(load_store(skills)), body)


def test_fallback_server_still_answers_the_workflow_editor(tmp_path: Path) -> None:
    from pygen.server.fallback import fallback_text

    server = build_server(load_store(tmp_path / "missing"))
    guide = text_of(call(server, "start_workflow_editor", {"detail": "full"}))
    # The packaged copy, naming only the two tools a server without skills serves (in full:
    # the compact form leaves this server's tools to the tool list).
    assert guide.splitlines()[0] == fallback_text().splitlines()[0]
    assert text_of(call(server, "start_workflow_editor")).splitlines()[0] == guide.splitlines()[0]
    assert "- `get_node_skill`" in guide and "- `search_nodes(" not in guide
    result = call(server, "get_node_skill", {"node_type": "loop"})
    assert result.is_error
    assert text_of(result) == "Unknown node_type 'loop'. Valid types: (none loaded)"
    assert set(tools_of(server)) == {"start_workflow_editor", "get_node_skill"}


def test_extra_registrars_add_their_tools(skills: Path) -> None:
    def register(server: MCPServer) -> None:
        @server.tool()
        def validate_workflow_json(workflow: str) -> str:
            return "ok " + workflow

    server = build_server(load_store(skills), [register])
    assert "validate_workflow_json" in tools_of(server)
    assert text_of(call(server, "validate_workflow_json", {"workflow": "{}"})) == "ok {}"


def test_swap_content_replaces_tools_and_resources_together(skills: Path) -> None:
    live = build_server(load_store(skills))
    write(skills / "nodes" / "note.md", "# Note\n")
    write(skills / "nodes" / "loop.md", "# Loop v2\n")
    swap_content(live, build_server(load_store(skills)))
    assert text_of(call(live, "get_node_skill", {"node_type": "note"})) == "# Note\n"
    assert text_of(call(live, "get_node_skill", {"node_type": "loop"})) == "# Loop v2\n"
    unknown = call(live, "get_node_skill", {"node_type": "nope"})
    assert text_of(unknown).endswith("Valid types: generate-image, loop, note")


def test_watch_reloads_and_keeps_serving_through_a_broken_edit(skills: Path) -> None:
    live = build_server(load_store(skills))
    reports: list[str] = []

    async def wait_for(count: int) -> None:
        with anyio.fail_after(10):
            while len(reports) < count:
                await anyio.sleep(0.05)

    async def main() -> None:
        stop = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(lambda: watch_and_reload(
                live, skills, lambda: build_server(load_store(skills)), reports.append,
                debounce_ms=50, stop_event=stop))
            await anyio.sleep(0.3)  # let the watcher start before the first edit
            write(skills / "nodes" / "loop.md", "# Loop v2\n")
            await wait_for(1)
            write(skills / "film-director" / "SKILL.md", FILM_MD.replace("film-director", "Bad"))
            await wait_for(2)
            stop.set()

    anyio.run(main)
    assert reports[0] == f"reloaded skills from {skills}"
    assert reports[1].startswith("reload failed, still serving the previous skills: ")
    assert "name 'Bad' must be 1-64 chars" in reports[1]
    assert text_of(call(live, "get_node_skill", {"node_type": "loop"})) == "# Loop v2\n"
    assert text_of(call(live, "start_film_director")) == FILM_MD


def test_protocol_tools_are_served_when_a_registry_exists(skills: Path) -> None:
    pytest.importorskip("pygen.protocol.tools")
    write(skills / "protocol" / "registry.toml",
          '[[skills]]\nname = "helper"\nasks = "anything"\noutputs = ["promptSet"]\n')
    tools = tools_of(build_server(load_store(skills)))
    assert {"plan_skill_call", "validate_skill_result"} <= set(tools)


def test_a_broken_registry_fails_the_build_in_one_line(skills: Path) -> None:
    pytest.importorskip("pygen.protocol.tools")
    protocol = pytest.importorskip("pygen.protocol.loading")
    registry = write(skills / "protocol" / "registry.toml", "[[skills]\n")
    with pytest.raises(protocol.ProtocolError, match=f"^{registry}: invalid TOML"):
        build_server(load_store(skills))


def test_validate_workflow_json_is_served_when_gen_wrote_the_schemas(skills: Path) -> None:
    from pygen.layout import SCHEMA_FILE
    from pygen.model import DataField, DataType, Handle, Location, Model, NodeDef, TypeRef
    from pygen.schema.document import schema_document

    loop = NodeDef(
        type="loop", label="Loop", inputs=(Handle(id="items"),), outputs=(Handle(id="item"),),
        source=Location(file="nodes.ts", line=1),
        data_type=DataType(name="LoopData", via="name", fields=(
            DataField(name="label", type_text="string", type=TypeRef(kind="string")),)),
    )
    write(skills / SCHEMA_FILE, schema_document(Model(nodes=(loop,))))
    server = build_server(load_store(skills))
    assert tools_of(server)["validate_workflow_json"].annotations.read_only_hint is True
    workflow = {"nodes": [{"id": "a", "type": "lop", "position": {"x": 0, "y": 0},
                           "data": {"label": "L"}}], "edges": []}
    result = call(server, "validate_workflow_json", {"workflow": workflow})
    assert '"valid":false' in text_of(result).replace(" ", "")
    assert "lop" in text_of(result)


def test_no_schema_file_means_no_validate_tool(skills: Path) -> None:
    assert "validate_workflow_json" not in tools_of(build_server(load_store(skills)))
