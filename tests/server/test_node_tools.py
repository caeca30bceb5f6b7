"""server.node_tools through the SDK's in-process client on the repo's skills: detail levels,
batches, unknown types with suggestions, validate_node and autofix_workflow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult

from pygen.server.app import build_server
from pygen.server.store import load_store

REPO = Path(__file__).resolve().parents[2]


def calls(*requests: tuple[str, dict[str, Any]]) -> list[CallToolResult]:
    async def main() -> list[CallToolResult]:
        async with Client(build_server(load_store(REPO / "skills"))) as client:
            return [await client.call_tool(name, args) for name, args in requests]
    return anyio.run(main)


def text(result: CallToolResult) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


def test_detail_levels_grow_from_minimal_to_full() -> None:
    minimal, standard, full = calls(*[("get_node_skill", {"node_type": "generate-music",
                                                          "detail": d})
                                      for d in ("minimal", "standard", "full")])
    on_disk = (REPO / "skills" / "nodes" / "generate-music.md").read_text(encoding="utf-8")
    assert len(text(minimal)) / 4 <= 200 < len(text(standard)) / 4 <= 1100
    # standard: what an agent acts on, without frontmatter, markers or the tool's tables.
    assert "generated_at" not in text(standard) and "AUTO-GEN" not in text(standard)
    assert "**Parameters** (* required; types, here and below: get_node_skill(detail=" \
           "\"full\")): `prompt`*, `provider`" in text(standard)
    assert "**Returns:** `job_id`*, `status`*" in text(standard)
    assert "## When to use" in text(standard) and "## Common gotchas" in text(standard)
    assert "durationSeconds*: number minimum=5 maximum=240 =30" in text(minimal)
    assert text(full).startswith(on_disk.rstrip("\n"))
    assert "## Data JSON Schema" in text(full) and "## Tool `generate_music` input" in text(full)


def test_a_batch_answers_each_type_and_suggests_for_the_unknown() -> None:
    [batch] = calls(("get_node_skill", {"node_types": ["loop", "video-gen", "image_to_video"],
                                        "detail": "minimal"}))
    parts = text(batch).split("\n---\n\n")
    assert not batch.is_error and len(parts) == 3
    assert parts[0].startswith("loop (Loop, logic)")
    assert parts[1].startswith("Unknown node_type 'video-gen'. Did you mean: ")
    assert "image-to-video" in parts[1].split("?")[0]
    # A tool's name is an alias: the node comes back with a note of the canonical type.
    assert parts[2].startswith("Note: 'image_to_video' is the MCP tool name of node type "
                               "'image-to-video'; workflows name it \"type\": "
                               "\"image-to-video\".\n\nimage-to-video (Image to Video")


def test_labels_and_other_spellings_resolve_to_the_node_type() -> None:
    label, spaced, checked = calls(
        ("get_node_skill", {"node_type": "Merge Video & Audio", "detail": "minimal"}),
        ("get_node_skill", {"node_type": "Text To Speech", "detail": "minimal"}),
        ("validate_node", {"node_type": "generate_image", "data": {"label": "x"}}))
    assert not label.is_error and "is the label of node type 'merge-video-audio'" in text(label)
    assert not spaced.is_error and "\n\ntext-to-speech (" in text(spaced)
    assert not checked.is_error and checked.structured_content["valid"]


def test_a_label_that_also_reads_as_the_tool_name_is_called_the_label() -> None:
    """"Image to Video" is the label; erase case and separators and it is `image_to_video`
    too: the note names what was written, the label, and the tool name only as written."""
    label, tool = calls(
        ("get_node_skill", {"node_type": "Image to Video", "detail": "minimal"}),
        ("get_node_skill", {"node_type": "image_to_video", "detail": "minimal"}))
    assert text(label).startswith("Note: 'Image to Video' is the label of node type "
                                  "'image-to-video';")
    assert text(tool).startswith("Note: 'image_to_video' is the MCP tool name of node type "
                                 "'image-to-video';")


def test_validate_node_reports_rule_and_fix_and_refuses_unknown_types() -> None:
    checked, unknown = calls(
        ("validate_node", {"node_type": "generate-image",
                           "data": {"label": "x", "aspect_ratio": "16:9"}}),
        ("validate_node", {"node_type": "Generate_Imag", "data": {}}))
    finding = checked.structured_content["findings"][0]
    assert (finding["rule"], finding["path"], finding["fix"]) == (
        "unknown-field", "$.aspect_ratio",
        {"op": "rename", "path": "$.aspect_ratio", "to": "aspectRatio"})
    assert checked.structured_content["valid"]  # runtime: the defaults fill the rest
    assert unknown.is_error
    assert "Did you mean: generate-image" in text(unknown)


def test_errors_name_no_server_path_and_no_library_link() -> None:
    bad_args, bad_json = calls(("get_node_skill", {"node_type": "x" * 80}),
                               ("autofix_workflow", {"workflow": "{\"nodes\": ["}))
    for result in (bad_args, bad_json):
        shown = json.dumps(result.model_dump(mode="json"))
        assert str(REPO) not in shown and "http" not in shown and "Traceback" not in shown
    assert bad_args.is_error and "node_type: String should have at most 64" in text(bad_args)
    assert bad_json.structured_content["remaining"][0]["rule"] == "json"


def test_validate_node_parses_data_sent_as_json_text_and_says_so_with_a_fix() -> None:
    data = {"label": "x", "aspect_ratio": "16:9"}
    as_text, as_object, broken = calls(
        ("validate_node", {"node_type": "generate-image", "data": json.dumps(data)}),
        ("validate_node", {"node_type": "generate-image", "data": data}),
        ("validate_node", {"node_type": "generate-image", "data": "{\"label\": "}))
    first, *rest = as_text.structured_content["findings"]
    assert (first["rule"], first["path"], first["fix"]) == (
        "node-shape", "$", {"op": "set", "path": "$", "value": data})
    assert rest == as_object.structured_content["findings"]  # checked as the object itself
    assert [f["rule"] for f in rest] == ["unknown-field"]
    assert not broken.is_error
    assert [(f["rule"], f["message"].split(":")[0]) for f in
            broken.structured_content["findings"]] == [("json", "data")]


def test_a_structured_answer_reads_as_compact_json() -> None:
    checked, found = calls(("validate_node", {"node_type": "generate-image", "data": {}}),
                           ("search_nodes", {"query": "music", "limit": 1}))
    assert text(checked) == json.dumps(checked.structured_content, ensure_ascii=False,
                                       separators=(",", ":"))
    assert text(found).startswith("generate-music — ")  # plain text stays as it is


def test_a_standard_batch_leaves_out_how_to_choose_and_says_so_once() -> None:
    """A batch names its types: "When to use" (choosing a type) is left out of each skill and
    the pointers to the whole text are said once, at the end; one type alone keeps it."""
    one, batch = calls(("get_node_skill", {"node_type": "generate-image"}),
                       ("get_node_skill", {"node_types": ["text-prompt", "generate-image",
                                                          "image-to-video"]}))
    parts = text(batch).split("\n---\n\n")
    assert "## When to use" in text(one) and "## When to use" not in text(batch)
    assert "Each gotcha in full" not in text(batch)
    assert [p.count("(Left out of this batch:") for p in parts] == [0, 0, 1]
    assert parts[-1].rstrip().endswith(
        "(Left out of this batch: each gotcha in full and each type's \"When to use\"; "
        "get_node_skill(node_type, detail=\"full\") has them.)")
    # What fills the node stays: fields, gotchas, the tool and the wiring.
    for part in parts:
        assert "**Required data fields:**" in part and "## Common gotchas" in part
    assert "**MCP tool:** `image_to_video`" in parts[2] and "wired `generate-image`" in parts[2]
    # A lead line said word for word above is its lead; the list under it stays.
    assert "**Returns:** `job_id`*, `status`*" in parts[1] and "**Returns:** as above" in parts[2]
    assert "**Result fields** (as above):\n- `generatedVideoUrl`" in parts[2]
    assert "**Parameters** (* required): `source_image_url`*" in parts[2]
    assert "**Required data fields:**\n- `prompt: string`" in parts[2]


def test_a_minimal_batch_says_its_data_legend_once() -> None:
    [batch] = calls(("get_node_skill", {"node_types": ["loop", "generate-image", "note"],
                                        "detail": "minimal"}))
    parts = text(batch).split("\n---\n\n")
    assert "\ndata (* required, = default):\n" in parts[0]
    assert all("(* required, = default)" not in p and "\ndata:\n" in p for p in parts[1:])
    # The marks the legend explains are still on every field.
    assert "\nprompt*: string\n" in parts[1]
