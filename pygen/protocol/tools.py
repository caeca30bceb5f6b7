"""MCP tools and resources for the protocol: `list_callable_skills`, `plan_skill_call`,
`validate_skill_result`, and the resources `skill://protocol/registry`,
`skill://protocol/shapes` (the shapes in one line each) and `skill://protocol/schema`.

`pygen serve` calls `register_protocol_tools(server, registry)`; nothing else here knows about
the server. The shapes are served once, as resources; each tool's parameters point at the
compact one instead of repeating them (they are most of a tool list's
size otherwise). Arguments are checked here against the protocol models: every problem comes
back at once as a finding with a JSON path (never a tool error, a validation library's text or
links), and no message names a path on the server's disk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resources.types import TextResource
from mcp.types import ToolAnnotations
from pydantic import Field

from pygen.protocol.docs import compact_shapes, protocol_schema
from pygen.protocol.findings import check_call, request_findings
from pygen.protocol.loading import ProtocolError, load_request
from pygen.protocol.models import to_wire
from pygen.protocol.planning import plan
from pygen.protocol.registry import Registry
from pygen.protocol.rules import validation_report

SCHEMA_URI = "skill://protocol/schema"
SHAPES_URI = "skill://protocol/shapes"
REGISTRY_URI = "skill://protocol/registry"

LIST_DESCRIPTION = (
    "List the skills you can call through the Skill Call Protocol: each one's name, what it "
    "is asked for, the output kinds it returns, and whether it is ready (v1 plans calls, it "
    "runs none)."
)
PLAN_DESCRIPTION = (
    "Plan a Skill Call Protocol request to a skill from list_callable_skills without "
    "executing it (v1 is planning-only). Returns a SkillCallResult with status dryRun, or "
    "planned when the registry marks the skill's response design ready, or error with "
    "violations [{path, rule, message}] naming every problem of the request."
)
VALIDATE_DESCRIPTION = (
    "Check a SkillCallResult against its request, the scene specs and the skill registry. "
    "Returns every problem at once: {valid, violations: [{path, rule, message}]}; a path is "
    f"into the result, or into the request or scene_specs when the message says so. Shapes: "
    f"{SHAPES_URI}."
)
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _shape(name: str) -> Any:
    return Field(description=f"{name}; shapes: {SHAPES_URI}")


RequestArg = Annotated[dict[str, Any], _shape("SkillCallRequest")]
# validate_skill_result's description points to the shapes once, for its three arguments.
ResultArg = Annotated[dict[str, Any], Field(description="SkillCallResult")]
ValidateRequestArg = Annotated[dict[str, Any], Field(description="SkillCallRequest")]
ScenesArg = Annotated[list[dict[str, Any]], Field(description="SceneSpec")]


def callable_skills(registry: Registry) -> list[dict[str, Any]]:
    """The registry as agents read it (camelCase, like the protocol's own shapes)."""
    return [{"name": s.name, "asks": s.asks, "outputs": list(s.outputs),
             "optionalOutputs": list(s.optional_outputs), "ready": s.ready}
            for s in registry.skills]


def register_protocol_tools(server: MCPServer, registry: Registry) -> None:
    """Add the protocol's tools and resources to the server, bound to a registry."""
    # Messages name the registry file, not where it sits on the server's disk.
    registry = registry.model_copy(update={"source": Path(registry.source).name})

    def list_callable_skills() -> dict[str, Any]:
        return {"skills": callable_skills(registry)}

    def plan_skill_call(request: RequestArg) -> dict[str, Any]:
        try:
            return to_wire(plan(load_request(request, "request"), registry))
        except ProtocolError:
            return refused_plan(request, registry)

    def validate_skill_result(result: ResultArg, request: ValidateRequestArg,
                              scene_specs: ScenesArg) -> dict[str, Any]:
        return validation_report(check_call(result, request, scene_specs, registry))

    server.add_tool(list_callable_skills, description=LIST_DESCRIPTION, annotations=_READ_ONLY)
    server.add_tool(plan_skill_call, description=PLAN_DESCRIPTION, annotations=_READ_ONLY)
    server.add_tool(
        validate_skill_result, description=VALIDATE_DESCRIPTION, annotations=_READ_ONLY
    )
    server.add_resource(_json_resource(REGISTRY_URI, "protocol/registry", LIST_DESCRIPTION,
                                       {"skills": callable_skills(registry)}))
    server.add_resource(TextResource(
        uri=SHAPES_URI, name="protocol/shapes", mime_type="text/plain", text=compact_shapes(),
        description="The Skill Call Protocol shapes an agent writes, one line each (~2k "
                    f"characters); the JSON Schema is {SCHEMA_URI}."))
    server.add_resource(_json_resource(
        SCHEMA_URI, "protocol/schema",
        "JSON Schema of the Skill Call Protocol shapes ($defs: SkillCallRequest, "
        "SkillCallResult, SceneSpec, ...), which the protocol tools' parameters refer to.",
        protocol_schema()))


def refused_plan(request: Any, registry: Registry) -> dict[str, Any]:
    """An `error` result for a request that cannot be planned, with every problem of it as
    `violations` (paths into the request), so one answer names them all."""
    problems = request_findings(request, registry)
    names = request if isinstance(request, dict) else {}
    return {"requestId": str(names.get("requestId") or ""),
            "skillName": str(names.get("skillName") or ""), "status": "error",
            "summary": f"not planned: the request has {_count(len(problems))}.",
            "error": "; ".join(f"{v.path}: {v.message}" for v in problems),
            "recovery": "fix the request at each path in violations and plan it again",
            "violations": [v.model_dump() for v in problems]}


def _count(n: int) -> str:
    return "one problem" if n == 1 else f"{n} problems"


def _json_resource(uri: str, name: str, description: str, value: Any) -> TextResource:
    return TextResource(uri=uri, name=name, description=description, mime_type="application/json",
                        text=json.dumps(value, indent=1, ensure_ascii=False))


