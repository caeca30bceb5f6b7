"""Node types an editor derives from others: n8n registers `<type>Tool`, a copy of every node
whose description is `usableAsTool`, with tool-description parameters added and its
connections changed (n8n cli: createAiTools / convertNodeToAiTool). Each derived type is its
own catalog entry, built from the entry it copies, only where the catalog run shows the
marker trait; the rule is data of the field-list preset."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Traits = Mapping[str, Any]


@dataclass(frozen=True)
class Derivation:
    # The trait that marks an entry as derivable, and the one holding description keys the
    # derived copy takes instead of the entry's own (n8n's `usableAsTool.replacements`).
    marker: str
    replacements: str
    type_suffix: str
    label_suffix: str
    # The copy's connection sides, by kind.
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    why: str


PRESETS: dict[str, Derivation] = {
    "n8n": Derivation(
        marker="usable_as_tool", replacements="tool_replacements", type_suffix="Tool",
        label_suffix=" Tool", inputs=(), outputs=("ai_tool",),
        why="n8n cli convertNodeToAiTool: name += 'Tool', inputs = [], outputs = [AiTool], "
            "a toolDescription parameter (after the last callout) and, when the node has a "
            "resource or operation, a descriptionType choosing it"),
}


def _tool_fields(descriptors: list[Any], description: object) -> list[Any]:
    """The derived copy's field list: n8n adds a required `toolDescription` (default: the
    node's description), shown only for descriptionType `manual` when the node has a
    `resource` or `operation` to describe it by, unless the list already has one."""
    names = {d.get("name") for d in descriptors if isinstance(d, dict)}
    if "toolDescription" in names:
        return descriptors
    text: dict[str, Any] = {"name": "toolDescription", "displayName": "Description",
                            "type": "string", "required": True,
                            "default": description if isinstance(description, str) else ""}
    added: list[dict[str, Any]] = [text]
    if names & {"resource", "operation"}:
        text["displayOptions"] = {"show": {"descriptionType": ["manual"]}}
        added.insert(0, {"name": "descriptionType", "displayName": "Tool Description",
                         "type": "options", "default": "auto", "options": [
                             {"name": "Set Automatically", "value": "auto"},
                             {"name": "Set Manually", "value": "manual"}]})
    last = max((i for i, d in enumerate(descriptors)
                if isinstance(d, dict) and d.get("type") == "callout"), default=-1)
    return [*descriptors[:last + 1], *added, *descriptors[last + 1:]]


def derived(node_type: str, label: str, descriptors: Sequence[Any], traits: Traits | None,
            preset: str | None) -> tuple[str, str, list[Any], dict[str, Any]] | None:
    """The derived entry (type, label, field list, traits) of one entry, or None when the
    preset derives none or the entry does not carry the marker."""
    rule = PRESETS.get(preset or "")
    if rule is None or not traits or not traits.get(rule.marker):
        return None
    replaced = traits.get(rule.replacements)
    replaced = replaced if isinstance(replaced, dict) else {}
    fields = replaced.get("properties", descriptors)
    fields = list(fields) if isinstance(fields, list) else list(descriptors)
    label = str(replaced.get("displayName", label))
    new_traits = {**traits, rule.marker: False, "inputs": list(rule.inputs),
                  "outputs": list(rule.outputs), "output_names": None, "sub_node": True}
    return (f"{node_type}{rule.type_suffix}", f"{label}{rule.label_suffix}",
            _tool_fields(fields, replaced.get("description", traits.get("description"))),
            new_traits)
