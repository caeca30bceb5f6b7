"""MCP tools for the protocol: `plan_skill_call` and `validate_skill_result`.

`pygen serve` calls `register_protocol_tools(server, registry)`; nothing else here knows about
the server. Parameters are typed with the protocol models, so the tools' input schemas show
agents the request and result shapes (camelCase), and the SDK checks arguments against them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from pygen.protocol.models import SceneSpec, SkillCallRequest, SkillCallResult, to_wire
from pygen.protocol.planning import plan
from pygen.protocol.registry import Registry
from pygen.protocol.rules import validate, validation_report
from pygen.protocol.wire import ProtocolError, check_scene_ids

PLAN_DESCRIPTION = (
    "Plan a Skill Call Protocol request to another skill without executing it (v1 is "
    "planning-only). Returns a SkillCallResult with status dryRun, or planned when the "
    "registry marks the skill's response design ready."
)
VALIDATE_DESCRIPTION = (
    "Check a SkillCallResult against its request, the scene specs and the skill registry. "
    "Returns {valid, violations: [{path, rule, message}]}; each path is a JSON path into the "
    "result."
)
_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


@contextmanager
def _as_tool_error() -> Iterator[None]:
    # ToolError keeps our message for the client; any other exception would be hidden.
    try:
        yield
    except ProtocolError as exc:
        raise ToolError(str(exc)) from None


def register_protocol_tools(server: MCPServer, registry: Registry) -> None:
    """Add `plan_skill_call` and `validate_skill_result` to the server, bound to a registry."""

    def plan_skill_call(request: SkillCallRequest) -> dict[str, Any]:
        with _as_tool_error():
            return to_wire(plan(request, registry))

    def validate_skill_result(
        result: SkillCallResult, request: SkillCallRequest, scene_specs: list[SceneSpec]
    ) -> dict[str, Any]:
        with _as_tool_error():
            check_scene_ids(scene_specs, "scene_specs")
            return validation_report(validate(result, request, scene_specs, registry))

    server.add_tool(plan_skill_call, description=PLAN_DESCRIPTION, annotations=_READ_ONLY)
    server.add_tool(
        validate_skill_result, description=VALIDATE_DESCRIPTION, annotations=_READ_ONLY
    )
