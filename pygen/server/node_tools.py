"""The node tools agents build workflows with: find, read at the right depth, check, fix.

`search_nodes`, `get_node_skill` (one type or a batch, at `minimal`, `standard` or `full`
detail), `validate_node` and `autofix_workflow`. All read-only; all read the schema document
`pygen gen` writes next to the skills (loaded once per reload, like every served file), so the
server needs no Node and no model. Errors are one line for the agent: no traceback, no
library text, no path on the server's disk.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import Field

from pygen import files
from pygen.conventions import DEFAULT as DEFAULT_CONVENTIONS
from pygen.conventions import Conventions
from pygen.errors import PygenError
from pygen.files import first_link
from pygen.server.batch import minimal_batch, standard_batch
from pygen.server.limits import (
    MAX_NAME_LENGTH,
    MAX_NODE_TYPES,
    MAX_QUERY_LENGTH,
    capped_parts,
)
from pygen.server.listing import READ_ONLY
from pygen.server.search import SearchIndex, entries_from_doc, search_text
from pygen.server.standard import standard_text
from pygen.server.validate_tool import DataArg, WorkflowArg, data_argument, workflow_argument
from pygen.server.versions import versioned_types
from pygen.skills.minimal_detail import render_minimal
from pygen.skills.sections import PROSE_SECTIONS, section_text
from pygen.suggest import NEAREST_TYPES, normalised, ranked
from pygen.validation.autofix import FixResult, autofix, without_workflow
from pygen.validation.catalog import Catalog, WorkflowInputError, parse_json
from pygen.validation.findings import WireReport, wire_report
from pygen.validation.profiles import DEFAULT_PROFILE, Profile
from pygen.validation.workflow import validate_node_data, validate_workflow

Detail = Literal["minimal", "standard", "full"]
_SUGGESTIONS = 3
# Answers kept per loaded store and kind (texts, whole single-type answers): every type of a
# typical catalog at every detail, while a 20,000-node one asked for all of them stays within
# tens of megabytes (past this, answers are computed per call, as before).
MAX_KEPT = 4096

SEARCH_DESCRIPTION = (
    "Find node types by what they do, in your own words (ranked, typo-tolerant). One line "
    "per hit: type — label (category): purpose."
)
NODE_SKILL_DESCRIPTION = (
    "A node type's skill: fields, defaults, handles, MCP tool, gotchas, a wired example. "
    "detail: minimal (~200 tokens), standard (default), full (with tool tables and JSON "
    "Schemas). Pass node_type (its label or tool name also works), or node_types."
)
VALIDATE_NODE_DESCRIPTION = (
    "Check one node's data before adding it (profile as in validate_workflow_json). Returns "
    "what validate_workflow_json returns."
)


def autofix_description(conv: Conventions = DEFAULT_CONVENTIONS) -> str:
    """The autofix tool's description; the mapping field only when the editor declares one."""
    mapping = f"`{conv.mapping_field}` entries, " if conv.mapping_field else ""
    return ("Apply every mechanical fix validation knows (renames, case, defaults, "
            f"{mapping}positions, runner-owned fields) to a workflow (profile as in "
            "validate_workflow_json). Returns {changes, remaining, valid}: each change's "
            "`fix` says what to apply where; include_workflow=true adds the fixed workflow. "
            "Never writes prompts or URLs.")


@dataclass(frozen=True)
class NodeCatalog:
    """The schema document, parsed once: validation catalog, search index, node metadata."""

    doc: Mapping[str, Any]
    catalog: Catalog
    index: SearchIndex

    @classmethod
    def from_text(cls, text: str | bytes, source: str,
                  skills: Mapping[str, str] | None = None) -> NodeCatalog:
        """The catalog of a schema document; the node skills served beside it (by type) add
        their "When to use" prose to the search index."""
        catalog = Catalog.from_json(text, source)
        doc = parse_json(text, source)
        prose = {t: section_text(s, PROSE_SECTIONS[0]) or "" for t, s in (skills or {}).items()}
        return cls(doc, catalog, SearchIndex.build(entries_from_doc(doc, prose)))

    @property
    def types(self) -> list[str]:
        return list(self.doc.get("$defs", {}))

    def meta(self, node_type: str) -> Mapping[str, Any]:
        meta = self.doc.get("x-nodes", {}).get(node_type, {})
        return meta if isinstance(meta, dict) else {}

    def minimal(self, node_type: str) -> str:
        return render_minimal(node_type, self.doc["$defs"][node_type],
                              self.doc.get("x-handles", {}).get(node_type, {}),
                              self.meta(node_type))

    def full_extra(self, node_type: str) -> str:
        """The JSON Schemas `full` adds to the skill file: the data's and the tool's."""
        parts = ["## Data JSON Schema", "", "```json",
                 json.dumps(self.doc["$defs"][node_type], indent=1, ensure_ascii=False), "```"]
        tool = self.meta(node_type).get("tool")
        schema = self.doc.get("x-tools", {}).get(tool) if tool else None
        if schema is not None:
            parts += ["", f"## Tool `{tool}` input JSON Schema", "", "```json",
                      json.dumps(schema, indent=1, ensure_ascii=False), "```"]
        return "\n".join(parts) + "\n"

    def tool_aliases(self) -> list[tuple[str, str]]:
        return [(str(m["tool"]), t) for t in self.types
                if isinstance(m := self.meta(t), dict) and m.get("tool")]

    def aliases(self) -> list[tuple[str, str, str]]:
        """(other name, node type, what the name is) for every exact alias: the tool name and
        the label, compared with case and separators erased, like the type itself."""
        out = [(tool, t, "the MCP tool name") for tool, t in self.tool_aliases()]
        return out + [(str(self.meta(t)["label"]), t, "the label") for t in self.types
                      if self.meta(t).get("label")]


class AliasIndex:
    """Every exact alias of the loaded types by its normalised spelling, built once: a name
    is then resolved by one lookup, not by comparing it with every type and alias."""

    def __init__(self, valid: Sequence[str], aliases: Sequence[tuple[str, str, str]]) -> None:
        known = set(valid)
        # normalised name → {node type: what the name is} (None: the type written otherwise),
        # the first reading of each type kept, as a scan in this order would.
        self._by_key: dict[str, dict[str, str | None]] = {}
        # A name written exactly as an alias is that alias: "Image to Video" is the label even
        # where it also reads as the tool `image_to_video` once case and separators are erased.
        self._exact: dict[tuple[str, str], str] = {}
        for other, node_type, what in aliases:
            if node_type in known:
                self._by_key.setdefault(normalised(other), {}).setdefault(node_type, what)
                self._exact.setdefault((other, node_type), what)
        for node_type in valid:
            self._by_key.setdefault(normalised(node_type), {}).setdefault(node_type, None)

    def resolve(self, name: str) -> tuple[str, str] | None:
        """(node type, note) for a name that is a type written another way (case, `_` or
        spaces), its tool's name or its label; None when it is none of these or names
        several types."""
        if name != name.strip() or not name.isprintable():
            return None  # a stray space or control character is a slip to report, not a name
        found = self._by_key.get(normalised(name), {})
        if len(found) != 1:
            return None
        node_type, what = next(iter(found.items()))
        what = self._exact.get((name, node_type), what)
        note = (f"'{name}' is {what} of node type '{node_type}'" if what is not None
                else f"'{name}' is node type '{node_type}' written another way")
        return node_type, f"Note: {note}; workflows name it \"type\": \"{node_type}\"."


def unknown_type_message(node_type: str, valid: Sequence[str],
                         aliases: Sequence[tuple[str, str]] = ()) -> str:
    """Up to three suggestions first, then the valid types: all of them when there are at
    most NEAREST_TYPES, else the NEAREST_TYPES closest and how to find the others."""
    if len(valid) > NEAREST_TYPES:
        near = ranked(node_type, list(valid), NEAREST_TYPES, aliases)
        listed = (f"Did you mean: {', '.join(near)}? (the nearest of {len(valid)} types)"
                  if near else f"None of the {len(valid)} types is close.")
        return (f"Unknown node_type '{node_type}'. {listed} search_nodes finds a type by what "
                "it does.")
    near = ranked(node_type, list(valid), _SUGGESTIONS, aliases)
    mean = f" Did you mean: {', '.join(near)}?" if near else ""
    return (f"Unknown node_type '{node_type}'.{mean} "
            f"Valid types: {', '.join(valid) if valid else '(none loaded)'}")


def _text(text: str, *, error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=error)


def node_skill_text(skills: Mapping[str, str], nodes: NodeCatalog | None, node_type: str,
                    detail: Detail) -> str | None:
    """One type's text at a detail level, or None for an unknown type."""
    if node_type not in skills:
        return None
    if detail == "minimal" and nodes is not None and node_type in nodes.types:
        return nodes.minimal(node_type)
    text = skills[node_type]
    if detail == "full" and nodes is not None and node_type in nodes.types:
        return text.rstrip("\n") + "\n\n" + nodes.full_extra(node_type)
    if detail == "full":
        return text
    known = nodes is not None and node_type in nodes.types
    return standard_text(text, nodes.doc["$defs"][node_type] if nodes and known else None)


class SkillAnswers:
    """`get_node_skill` for one loaded store and schema document.

    Both stay as they are until a reload builds a new server, so what every call would redo
    is done once: the sorted types, the alias index, and each type's text at each detail
    (filled on first ask, for loaded types only, so no caller input grows it; at most
    MAX_KEPT of each kind).
    """

    def __init__(self, skills: Mapping[str, str], nodes: NodeCatalog | None) -> None:
        self.skills, self.nodes = skills, nodes
        conv = nodes.catalog.conventions if nodes else DEFAULT_CONVENTIONS
        self.versions = versioned_types(nodes.doc, skills, conv.node_version_key,
                                        set(nodes.catalog.variant_of.values())) \
            if nodes else {}
        # The names an agent may ask for: each versioned type under its plain name, which
        # stands for its variants in "did you mean" (a workflow names the plain type).
        shadowed = {key for v in self.versions.values() for key, _ in v.variants}
        self.valid = sorted({*(t for t in skills if t not in shadowed), *self.versions})
        # A variant's label or tool names its plain type (variants share a label).
        plain = {key: v.node_type for v in self.versions.values() for key, _ in v.variants}
        self.aliases = [(a, plain.get(t, t), w) for a, t, w in (nodes.aliases() if nodes else [])]
        self.tool_aliases = [(a, t) for a, t, _ in self.aliases]
        self.index = AliasIndex(sorted({*skills, *self.versions}), self.aliases)
        self._texts: dict[tuple[str, Detail], str | None] = {}
        # One loaded type asked alone (the commonest call): its whole answer's text.
        self._single: dict[tuple[str, Detail], str] = {}

    def text(self, node_type: str, detail: Detail) -> str | None:
        if node_type not in self.skills:
            return None
        key = (node_type, detail)
        if key in self._texts:
            return self._texts[key]
        text = node_skill_text(self.skills, self.nodes, node_type, detail)
        if len(self._texts) < MAX_KEPT:
            self._texts[key] = text
        return text

    def _named(self, name: str, detail: Detail) -> tuple[str | None, str | None]:
        """(text, type served) of a loaded type, or of a versioned type's default variant
        with the line naming its versions; (None, None) for any other name."""
        text = self.text(name, detail)
        if text is not None:
            return text, name
        versions = self.versions.get(name)
        if versions is None:
            return None, None
        return f"{versions.line()}\n\n{self.text(versions.default, detail)}", versions.default

    def result(self, node_type: str | None, node_types: Sequence[str] | None,
               detail: Detail) -> CallToolResult:
        wanted = [*([node_type] if node_type else []), *(node_types or [])]
        if not wanted:
            return _text("Pass node_type, or node_types with one or more types.", error=True)
        names = list(dict.fromkeys(wanted))
        if len(names) == 1 and (names[0] in self.skills or names[0] in self.versions):
            key = (names[0], detail)
            text = self._single.get(key)
            if text is None:
                text = _only_text(self._answer(names, detail))
                if len(self._single) < MAX_KEPT:
                    self._single[key] = text
            # A fresh result each call: the SDK owns what it is handed.
            return _text(text)
        return self._answer(names, detail)

    def _answer(self, names: Sequence[str], detail: Detail) -> CallToolResult:
        parts: list[str] = []
        types: list[str | None] = []
        for name in names:
            text, node_type = self._named(name, detail)
            alias = self.index.resolve(name) if text is None else None
            if alias is not None:
                text, node_type = self._named(alias[0], detail)
                text = f"{alias[1]}\n\n{text}"
            elif text is None:
                text = unknown_type_message(name, self.valid, self.tool_aliases)
            types.append(node_type)
            parts.append(text)
        if detail == "standard":
            parts = standard_batch(parts, types)
        elif detail == "minimal":
            parts = minimal_batch(parts)
        joined, left_out = capped_parts(parts, "\n---\n\n")
        if left_out:
            joined += (f"\n---\n\n{left_out} more node types did not fit in this reply; "
                       "ask for them in another call.")
        return _text(joined, error=types.count(None) == len(parts))


def _only_text(result: CallToolResult) -> str:
    block = result.content[0]
    return block.text if isinstance(block, TextContent) else ""


def register_node_tools(server: MCPServer, skills: Mapping[str, str],
                        nodes: NodeCatalog | None) -> None:
    """Add the node tools; without a schema document only get_node_skill is served.

    `get_node_skill` is a coroutine: its answer is a lookup once warm, so it runs on the
    event loop instead of paying a worker thread's hand-off on every call."""
    answers = SkillAnswers(skills, nodes)

    async def get_node_skill(
            node_type: Annotated[str, Field(max_length=MAX_NAME_LENGTH)] = "",
            node_types: Annotated[tuple[Annotated[str, Field(max_length=MAX_NAME_LENGTH)], ...],
                                  Field(max_length=MAX_NODE_TYPES)] = (),
            detail: Detail = "standard") -> CallToolResult:
        return answers.result(node_type, node_types, detail)

    server.add_tool(get_node_skill, name="get_node_skill", description=NODE_SKILL_DESCRIPTION,
                    annotations=READ_ONLY)
    if nodes is not None:
        _register_catalog_tools(server, nodes)


def _register_catalog_tools(server: MCPServer, nodes: NodeCatalog) -> None:
    aliases = AliasIndex(nodes.types, nodes.aliases())

    def search_nodes(query: Annotated[str, Field(max_length=MAX_QUERY_LENGTH)],
                     limit: Annotated[int, Field(ge=1, le=50)] = 10) -> str:
        return search_text(nodes.index, query, limit)

    def validate_node(node_type: str, data: DataArg,
                      profile: Profile = DEFAULT_PROFILE) -> WireReport:
        if node_type not in nodes.catalog.specs:
            alias = aliases.resolve(node_type)
            if alias is None:
                from mcp.server.mcpserver.exceptions import ToolError

                raise ToolError(unknown_type_message(node_type, nodes.types,
                                                     nodes.tool_aliases()))
            node_type = alias[0]
        parsed, found = data_argument(data)
        if parsed is None and found:
            return wire_report(found)
        return wire_report(found + validate_node_data(node_type, parsed, nodes.catalog, profile))

    def autofix_workflow(workflow: WorkflowArg, profile: Profile = DEFAULT_PROFILE,
                         include_workflow: bool = False) -> FixResult:
        parsed, problem = workflow_argument(workflow)
        if problem is not None:
            return {"changes": [], "remaining": [dict(problem.to_dict())], "valid": False}
        fixed = autofix(parsed, lambda doc: validate_workflow(doc, nodes.catalog, profile))
        return fixed if include_workflow else without_workflow(fixed)

    server.add_tool(search_nodes, description=SEARCH_DESCRIPTION, annotations=READ_ONLY)
    server.add_tool(validate_node, description=VALIDATE_NODE_DESCRIPTION, annotations=READ_ONLY,
                    structured_output=True)
    server.add_tool(autofix_workflow, description=autofix_description(nodes.catalog.conventions),
                    annotations=READ_ONLY, structured_output=True)


def load_node_catalog(path: Path, within: Path | None = None,
                      skills: Mapping[str, str] | None = None) -> NodeCatalog | None:
    """The catalog from `<skills_dir>/schemas/nodes.schema.json`, None when gen wrote none
    (or it is a link: the store names every link under skills_dir and follows none)."""
    if first_link(path, within) is not None or not path.is_file():
        return None
    try:
        data = files.read_bytes(path, what="a schema document")
    except PygenError as exc:
        raise WorkflowInputError(str(exc)) from None
    if data is None:
        return None
    from pygen.schema.doc_index import open_beside

    opened = open_beside(path, data, within)  # gen's index of this document: read as used
    if opened is not None:
        from pygen.server.indexed import node_catalog

        return NodeCatalog(*node_catalog(opened, str(path), skills))
    return NodeCatalog.from_text(data, str(path), skills)
