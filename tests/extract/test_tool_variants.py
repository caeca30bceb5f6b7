"""`…Tool` variants: n8n derives `<type>Tool` from a node whose description is usableAsTool
(pygen.extract.tool_variants)."""

from __future__ import annotations

from pygen.extract.tool_variants import derived

FIELDS = [{"name": "note", "type": "callout", "default": ""},
          {"name": "resource", "type": "options", "default": "message",
           "options": [{"name": "Message", "value": "message"}]},
          {"name": "text", "type": "string", "default": ""}]
TRAITS = {"usable_as_tool": True, "inputs": ["main"], "outputs": ["main"],
          "description": "Posts things"}


def test_a_usable_node_becomes_a_tool_with_a_description_choice() -> None:
    found = derived("pkg.thing", "Thing", FIELDS, TRAITS, "n8n")
    assert found is not None
    node_type, label, fields, traits = found
    assert (node_type, label) == ("pkg.thingTool", "Thing Tool")
    # After the last callout: the choice, then the description shown when set by hand.
    assert [f["name"] for f in fields] == ["note", "descriptionType", "toolDescription",
                                           "resource", "text"]
    text = fields[2]
    assert text["required"] is True and text["default"] == "Posts things"
    assert text["displayOptions"] == {"show": {"descriptionType": ["manual"]}}
    assert traits["inputs"] == [] and traits["outputs"] == ["ai_tool"]
    assert not traits["usable_as_tool"]


def test_without_resource_or_operation_only_the_description_is_added() -> None:
    found = derived("pkg.calc", "Calc", [{"name": "x", "type": "number", "default": 0}],
                    TRAITS, "n8n")
    assert found is not None
    assert [f["name"] for f in found[2]] == ["toolDescription", "x"]
    assert "displayOptions" not in found[2][0]


def test_a_list_with_its_own_tool_description_keeps_it() -> None:
    own = [{"name": "toolDescription", "type": "string", "default": "mine"}]
    found = derived("pkg.x", "X", own, TRAITS, "n8n")
    assert found is not None and found[2] == own


def test_replacements_replace_the_description() -> None:
    found = derived("pkg.x", "X", FIELDS[2:], {**TRAITS, "tool_replacements": {
        "displayName": "Other", "description": "Other things"}}, "n8n")
    assert found is not None
    assert found[1] == "Other Tool" and found[2][0]["default"] == "Other things"


def test_no_tool_without_the_marker_or_the_preset() -> None:
    assert derived("pkg.x", "X", FIELDS, {**TRAITS, "usable_as_tool": False}, "n8n") is None
    assert derived("pkg.x", "X", FIELDS, None, "n8n") is None
    assert derived("pkg.x", "X", FIELDS, TRAITS, "flowise") is None
