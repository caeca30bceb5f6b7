"""The MCP server that hands skills to agents: one tool per skill, all read-only.

`build_server` is a pure function of a loaded `SkillStore`; reloading builds a fresh server
from a fresh store and moves its tools and resources into the running one in one step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import anyio
import watchfiles
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources.types import TextResource
from mcp.server.mcpserver.tools import Tool
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ResourcesListChanged,
    SubscriptionBus,
    ToolsListChanged,
)
from mcp_types import CallToolResult, TextContent
from pydantic import ValidationError

from pygen import __version__, layout
from pygen.errors import PygenError
from pygen.files import first_link
from pygen.server.guide import compact_guide
from pygen.server.limits import capped_result
from pygen.server.listing import READ_ONLY, compact, compact_answer
from pygen.server.node_tools import load_node_catalog, register_node_tools
from pygen.server.served_tools import with_served_tools
from pygen.server.store import SkillStore
from pygen.server.validate_tool import register_validate_tool
from pygen.skills.orchestrators import OrchestratorSkill

Registrar = Callable[[MCPServer], None]

SERVER_NAME = "pygen-skills"
MARKDOWN = "text/markdown"

WORKFLOW_EDITOR_DESCRIPTION = (
    "Call FIRST when building or editing any workflow. Returns the workflow JSON shape for "
    "update_workflow_json, edge conventions, the app's tools, and the node types for "
    "get_node_skill. detail=\"full\": with every example."
)
INSTRUCTIONS = (
    "Skills for building and editing workflows. Call start_workflow_editor before writing "
    "any workflow JSON, get_node_skill for the node types you use, and validate_workflow_json "
    "before saving."
)


class SkillServer(MCPServer):
    """MCPServer whose argument errors read `field: problem`, without the validation
    library's wording and links (agents act on the field; a URL is noise to them)."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Any = None) -> Any:
        try:
            result = compact_answer(await super().call_tool(name, arguments, context))
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: "
                                 f"{e['msg']}" for e in cause.errors())
            raise ToolError(f"Error executing tool {name}: argument validation error: "
                            f"{problems}") from cause
        return capped_result(result) if isinstance(result, CallToolResult) else result


def build_server(
    store: SkillStore,
    extra_registrars: Sequence[Registrar] = (),
    *,
    bus: SubscriptionBus | None = None,
) -> MCPServer:
    """An MCP server serving `store`; each registrar may then add its own tools. The guide it
    serves names the tools it ended up with (see `served_tools`)."""
    guide = [store.workflow_editor]
    server: MCPServer = SkillServer(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        subscriptions=bus,
        tools=skill_tools(store, lambda: guide[0]),
    )
    for registrar in (*protocol_registrars(store), *validation_registrars(store),
                      *extra_registrars):
        registrar(server)
    tools = server._tool_manager.list_tools()
    for tool in tools:
        compact(tool)
    guide[0] = with_served_tools(store.workflow_editor,
                                 {t.name: t.description or "" for t in tools})
    for resource in skill_resources(store, guide[0]):
        server.add_resource(resource)
    return server


def _text(text: str, *, error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=error)


def _tool(fn: Callable[..., Awaitable[CallToolResult]], name: str, description: str) -> Tool:
    return Tool.from_function(fn, name=name, description=description, annotations=READ_ONLY)


# The skill tools are coroutines: each answers a text loaded at start-up, so it runs on the
# event loop instead of paying a worker thread's hand-off per call.
def skill_tools(store: SkillStore, guide: Callable[[], str]) -> list[Tool]:
    async def start_workflow_editor(
            detail: Literal["compact", "full"] = "compact") -> CallToolResult:
        return _text(guide() if detail == "full" else compact_guide(guide()))

    tools = [_tool(start_workflow_editor, "start_workflow_editor", WORKFLOW_EDITOR_DESCRIPTION)]
    return tools + [_orchestrator_tool(skill) for skill in store.orchestrators]


def _orchestrator_tool(skill: OrchestratorSkill) -> Tool:
    async def start() -> CallToolResult:
        return _text(skill.text)

    return _tool(start, skill.tool_name, skill.description)


def skill_resources(store: SkillStore, guide: str) -> list[TextResource]:
    resources = [_resource("workflow-editor", WORKFLOW_EDITOR_DESCRIPTION, guide)]
    resources += [
        _resource(f"nodes/{t}", f"Skill for the {t} node", store.nodes[t])
        for t in store.node_types
    ]
    return resources + [
        _resource(skill.name, skill.description, skill.text) for skill in store.orchestrators
    ]


def _resource(name: str, description: str, text: str) -> TextResource:
    return TextResource(
        uri=f"skill://{name}", name=name, description=description, mime_type=MARKDOWN, text=text
    )


def protocol_registrars(store: SkillStore) -> list[Registrar]:
    """The Skill Call Protocol tools, when `<skills_dir>/protocol/registry.toml` exists.

    The registry is loaded here, with the rest of the content, so a broken registry fails
    start-up (or a reload) in one line instead of the first call.
    """
    path = layout.protocol_registry(store.root)
    if first_link(path, store.root) is not None or not path.is_file():
        return []
    from pygen.protocol.registry import load_registry
    from pygen.protocol.tools import register_protocol_tools

    registry = load_registry(path)
    return [lambda server: register_protocol_tools(server, registry)]


def validation_registrars(store: SkillStore) -> list[Registrar]:
    """`get_node_skill` always; `search_nodes`, `validate_node`, `validate_workflow_json` and
    `autofix_workflow` when `pygen gen` has written `<skills_dir>/schemas/...`.

    The schema document is read here, once per (re)load like every other file served.
    """
    nodes = load_node_catalog(layout.schema_file(store.root), store.root, store.nodes)
    registrars: list[Registrar] = [lambda server: register_node_tools(server, store.nodes, nodes)]
    if nodes is not None:
        registrars.append(lambda server: register_validate_tool(
            server, lambda: nodes.catalog, nodes.catalog.conventions))
    return registrars


def swap_content(live: MCPServer, fresh: MCPServer) -> None:
    """Move fresh's tools and resources into the running server.

    MCPServer looks both managers up per request, so replacing the references is atomic
    from a client's point of view: each request sees the old set or the new one, never a mix
    of one file's old text and another's new text.
    """
    live._tool_manager = fresh._tool_manager
    live._resource_manager = fresh._resource_manager


async def watch_and_reload(
    live: MCPServer,
    skills_dir: Path,
    rebuild: Callable[[], MCPServer],
    report: Callable[[str], None],
    *,
    bus: SubscriptionBus | None = None,
    debounce_ms: int = 300,
    stop_event: anyio.Event | None = None,
) -> None:
    """Rebuild on every change under skills_dir; a broken edit keeps the previous skills.

    The folder itself is followed too: deleted and re-created, or swapped by a rename, it is
    watched again (and reloaded) as soon as it is back.
    """
    async def reload() -> None:
        await _reload(live, skills_dir, rebuild, report, bus)

    stop = stop_event or anyio.Event()
    while not stop.is_set():
        watched = _identity(skills_dir)
        if watched is None:
            await anyio.sleep(debounce_ms / 1000)
            if _identity(skills_dir) is not None:
                await reload()
            continue
        async for changes in watchfiles.awatch(
                skills_dir, debounce=debounce_ms, step=50, stop_event=stop,
                rust_timeout=debounce_ms, yield_on_timeout=True):
            replaced = _identity(skills_dir) != watched
            if changes or replaced:
                await reload()
            if replaced:
                break


def _identity(folder: Path) -> tuple[int, int] | None:
    """Which folder a path names now (device, inode); None while it does not exist."""
    try:
        stat = folder.stat()
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)


async def _reload(live: MCPServer, skills_dir: Path, rebuild: Callable[[], MCPServer],
                  report: Callable[[str], None], bus: SubscriptionBus | None) -> None:
    try:
        fresh = rebuild()
    except PygenError as exc:
        report(f"reload failed, still serving the previous skills: {exc}")
        return
    except Exception as exc:  # a bug in one reload must not end the server
        report(f"reload failed, still serving the previous skills: {type(exc).__name__}: "
               f"{exc} (a bug in pygen; please report it)")
        return
    swap_content(live, fresh)
    if bus is not None:
        await bus.publish(ToolsListChanged())
        await bus.publish(ResourcesListChanged())
    report(f"reloaded skills from {skills_dir}")


def new_bus() -> SubscriptionBus:
    return InMemorySubscriptionBus()
