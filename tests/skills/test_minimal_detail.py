"""skills.minimal_detail: the ~200-token node description, from the schema document alone."""

from __future__ import annotations

import json
from pathlib import Path

from pygen.skills.minimal_detail import render_minimal

REPO = Path(__file__).resolve().parents[2]
DOC = json.loads((REPO / "skills" / "schemas" / "nodes.schema.json").read_text(encoding="utf-8"))


def minimal(node_type: str) -> str:
    return render_minimal(node_type, DOC["$defs"][node_type], DOC["x-handles"][node_type],
                          DOC.get("x-nodes", {}).get(node_type, {}))


def test_every_example_node_fits_200_tokens() -> None:
    for node_type in DOC["$defs"]:
        text = minimal(node_type)
        assert len(text) / 4 <= 200, (node_type, len(text) / 4)


def test_fields_one_per_line_with_types_enums_and_defaults() -> None:
    schema = {"description": "Animates a still.", "required": ["provider"], "properties": {
        "provider": {"enum": ["kling", "veo-3"], "default": "kling"},
        "strength": {"type": "number", "minimum": 0, "maximum": 1},
        "frames": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4},
        "old": {"type": "string", "deprecated": True},
        "url": {"type": "string", "x-result": True},
        "status": {"enum": ["idle", "completed"], "x-runner": True},
    }}
    text = render_minimal("image-to-video", schema, {"inputs": ["image", "in"],
                                                     "outputs": ["video"]},
                          {"label": "Image to Video", "category": "ai", "tool": "image_to_video"})
    assert text == (
        "image-to-video (Image to Video, ai): Animates a still.\n"
        "in: image, in → out: video · MCP tool: image_to_video\n"
        "data (* required, = default):\n"
        'provider*: "kling" | "veo-3" ="kling"\n'
        "strength: number minimum=0 maximum=1\n"
        "frames: string[] minItems=1 maxItems=4\n"
        "deprecated, leave out: old\n"
        "runner sets: url, status\n"
    )


def test_nested_fields_carry_their_enums_and_long_enums_a_count() -> None:
    text = minimal("image-to-video")
    assert ('camera*: { motion*: "static" | "pan-left" | "pan-right" | "zoom-in" | "zoom-out" | '
            '"orbit" ="zoom-in", strength*: number minimum=0 maximum=1 =0.5 }') in text
    assert "in: image (image, ≤1), in (text, ≤1) → out: video (video)" in text
    schema = {"properties": {"options": {"type": "object", "properties": {
        "region": {"enum": [f"r{i}" for i in range(20)]}}}}}
    line = render_minimal("x", schema, {}, {}).splitlines()[-1]
    assert line == ('options: { region: "r0" | "r1" | "r2" | "r3" | "r4" | "r5" | "r6" | "r7" | '
                    '"r8" | "r9" | "r10" | "r11" | "r12" | "r13" | "r14" | "r15" | … (4 more: '
                    'detail="standard") }')
