"""The `validate_workflow_json` MCP tool: a workflow checked against the node schemas."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BeforeValidator, ValidatorFunctionWrapHandler, WithJsonSchema, WrapValidator
from pydantic import Field as PydanticField

from pygen import jsonread
from pygen.conventions import DEFAULT as DEFAULT_CONVENTIONS
from pygen.conventions import Conventions
from pygen.errors import PygenError
from pygen.model import Model
from pygen.server.limits import check_workflow_counts, check_workflow_text
from pygen.validation.catalog import Catalog, as_catalog
from pygen.validation.findings import Finding, Fix, WireReport, error_at, warning_at, wire_report
from pygen.validation.profiles import DEFAULT_PROFILE, Profile
from pygen.validation.workflow import validate_workflow

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

_CHECKED = "node types, data fields and values, ids, {edges}, handles and connection rules{mapping}"


def checked_text(conv: Conventions) -> str:
    """What validation checks, naming only what the editor declares: its mapping field, and
    edges kept as a connections map."""
    edges = f"the `{conv.connections_key}` map" if conv.connections_key else "edges"
    mapping = f", the `{conv.mapping_field}` mapping" if conv.mapping_field else ""
    return _CHECKED.format(edges=edges, mapping=mapping)


def tool_description(conv: Conventions = DEFAULT_CONVENTIONS) -> str:
    return (f"Check a workflow before sending it to update_workflow_json: {checked_text(conv)}, "
            "positions. Returns {valid, errors, warnings, findings[{level, path, rule, message, "
            "suggestion, fix?}]}; fix every error (autofix_workflow applies each `fix`), then "
            "send.")


PROFILE_ARG = ("runtime: what the editor needs to load it; strict: every required field; "
               "minimal: types only")
WORKFLOW_ARG = "the workflow document, or its JSON text"


def _as_json_text(value: Any) -> Any:
    """An object argument as JSON text, so both forms meet the one strict reader.

    Declared as `str`, the argument is not pre-parsed by the SDK's lenient `json.loads`
    (which takes NaN and lets a duplicate key win); the schema agents see stays "any value".
    """
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, allow_nan=True)
    except RecursionError:
        raise ValueError(f"nested deeper than {jsonread.MAX_DEPTH} levels") from None


class ObjectText(str):
    """The JSON text of an argument that arrived as an object, not as text."""

    __slots__ = ()


def _keep_form(value: Any, handler: ValidatorFunctionWrapHandler) -> str:
    """Text stays text; an object becomes `ObjectText`, so the tool knows which it got (and
    the SDK, seeing a `str` parameter, leaves JSON text for the strict reader)."""
    return handler(value) if isinstance(value, str) else ObjectText(_as_json_text(value))


# Shared by the workflow tools (node_tools): the profile is explained once, here.
WorkflowArg = Annotated[str, BeforeValidator(_as_json_text),
                        WithJsonSchema({"description": WORKFLOW_ARG})]
DataArg = Annotated[str, WrapValidator(_keep_form),
                    WithJsonSchema({"type": "object", "description": "the node's data object"})]
ProfileArg = Annotated[Profile, PydanticField(description=PROFILE_ARG)]


def register_validate_tool(server: MCPServer,
                           catalog_provider: Callable[[], Catalog | Model],
                           conventions: Conventions = DEFAULT_CONVENTIONS) -> None:
    """Add `validate_workflow_json(workflow)` to a server. The provider is called per request
    (it may read the schema file or the model); the catalog is rebuilt only when it changes.
    The description names what `conventions` declare, nothing else."""
    from mcp.server.mcpserver.exceptions import ToolError

    from pygen.server.listing import READ_ONLY

    last: list[tuple[object, Catalog]] = []

    def current() -> Catalog:
        try:
            source = catalog_provider()
        except PygenError as exc:
            raise ToolError(str(exc)) from None
        if not last or last[0][0] is not source:
            last[:] = [(source, as_catalog(source))]
        return last[0][1]

    def validate_workflow_json(workflow: WorkflowArg,
                               profile: ProfileArg = DEFAULT_PROFILE) -> WireReport:
        return wire_report(validate_workflow_input(workflow, current(), profile))

    server.add_tool(validate_workflow_json, name="validate_workflow_json",
                    description=tool_description(conventions),
                    annotations=READ_ONLY,
                    structured_output=True)


def workflow_argument(workflow: Any, name: str = "workflow") -> tuple[Any, Finding | None]:
    """A workflow argument, parsed when it came as JSON text (or the finding why not)."""
    if not isinstance(workflow, str):
        check_workflow_counts(workflow)
        return workflow, None
    check_workflow_text(workflow, name)
    try:
        parsed = jsonread.loads(workflow, name)
    except jsonread.JsonInputError as exc:
        return None, error_at("$", str(exc), rule="json")
    if name == "workflow":
        check_workflow_counts(parsed)
    return parsed, None


def data_argument(data: str) -> tuple[Any, list[Finding]]:
    """A node's data argument parsed, and why not or, when it came as JSON text holding an
    object, a warning whose fix sets the object itself."""
    parsed, problem = workflow_argument(str(data), "data")
    if problem is not None:
        return None, [problem]
    if isinstance(data, ObjectText) or not isinstance(parsed, dict):
        return parsed, []
    return parsed, [warning_at("$", "got a JSON string holding the data object; it was checked "
                                    "as that object: send the object itself", rule="node-shape",
                               fix=Fix("set", (), parsed))]


def validate_workflow_input(workflow: Any, catalog: Catalog,
                            profile: Profile = DEFAULT_PROFILE) -> list[Finding]:
    """Like validate_workflow, but a workflow passed as a JSON string is parsed first."""
    parsed, problem = workflow_argument(workflow)
    return [problem] if problem else validate_workflow(parsed, catalog, profile)
