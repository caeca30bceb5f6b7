"""The conventions an editor family's code shows, keyed by its field-list preset.

A catalog read with a field-list preset (`[field_list] preset = "flowise"`) is one editor's,
and that editor's code says how it saves values; the preset's conventions apply unless
`[conventions]` declares the key itself (a key declared there always wins). Each entry
says where the editor's code shows it.
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "flowise": {
        # packages/ui/src/utils/genericHelper.js:112 (initializeDefaultNodeData) writes
        # `input.default || ''` for every input of a new node, and Flowise's own check of a
        # flow (packages/server/src/services/validation/index.ts:74-78) counts undefined,
        # null and '' as a required input not set.
        "unset_values": ['""', "null"],
        # Number inputs are saved as the text typed and parsed when the node runs:
        # packages/components/nodes/chatmodels/ChatOpenAI/ChatOpenAI.ts:254-258
        # (`if (topP) obj.topP = parseFloat(topP)`, `parseInt(maxTokens, 10)`).
        "numeric_strings": True,
    },
}


def with_preset_conventions(table: Any) -> Any:
    """The settings table with its field-list preset's conventions under the declared ones."""
    if not isinstance(table, dict):
        return table
    field_list = table.get("field_list")
    preset = field_list.get("preset") if isinstance(field_list, dict) else None
    own = table.get("conventions", {})
    if not isinstance(preset, str) or preset not in PRESETS or not isinstance(own, dict):
        return table
    return {**table, "conventions": {**PRESETS[preset], **own}}
