"""The guide's compact form: what every fresh agent reads first, without what it repeats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp_types import TextContent

from pygen.server.app import build_server
from pygen.server.guide import FULL_GUIDE, compact_guide
from pygen.server.store import load_store

REPO = Path(__file__).resolve().parents[2]
GUIDE = """---
generated_at: 2026-01-01T00:00:00Z
---

# Editor

## Tools

<!-- AUTO-GEN:START tools -->
This server (skills and checks, all read-only):
- `search_nodes(query)`: find node types by what they do

The app's own MCP server (these do the work):
- `create_workflow`: create an empty workflow
- `generate_image`: generate a still image
<!-- AUTO-GEN:END tools -->

## Types

<!-- AUTO-GEN:START node-catalog -->
- `generate-image` Generate Image: in `in` → out `image` · tool `generate_image`
<!-- AUTO-GEN:END node-catalog -->

## Shape

```json
{"nodes": []}
```

## Loops

A loop fans in:

```json
{
  "nodes": [
    {"id": "shots", "type": "list"},
    {"id": "each", "type": "loop"},
    {"id": "still", "type": "generate-image"}
  ],
  "edges": [
    {"source": "shots", "target": "each"},
    {"source": "each", "target": "still"}
  ]
}
```

An edge, short:

```json
{"source": "a", "target": "b"}
```
"""


def test_the_compact_guide_keeps_the_first_example_and_names_the_later_ones() -> None:
    compact = compact_guide(GUIDE)
    assert compact == (
        "# Editor\n\n## Tools\n\nThe app's own MCP server (these do the work):\n"
        "- `create_workflow`: create an empty workflow\n"
        "- each node type's own tool: on its line of the catalog below\n\n## Types\n\n"
        "- `generate-image` Generate Image: in `in` → out `image` · tool `generate_image`\n\n"
        "## Shape\n\n```json\n"
        '{"nodes": []}\n```\n\n## Loops\n\nA loop fans in:\n\n'
        f"(This example: {FULL_GUIDE}.)\n\nAn edge, short:\n\n"
        '```json\n{"source": "a", "target": "b"}\n```\n')


def test_every_leading_frontmatter_block_is_left_out() -> None:
    """A guide written by two generators carries two blocks (seen on the origin editor)."""
    doubled = "---\na: 1\n---\n\n" + GUIDE
    assert compact_guide(doubled) == compact_guide(GUIDE)
    assert compact_guide(doubled).startswith("# Editor\n")


def test_a_tools_section_with_only_this_server_s_tools_leaves_no_empty_heading() -> None:
    text = GUIDE.replace("\nThe app's own MCP server (these do the work):\n"
                         "- `create_workflow`: create an empty workflow\n"
                         "- `generate_image`: generate a still image\n", "")
    compact = compact_guide(text)
    assert "## Tools" not in compact and "search_nodes" not in compact
    assert compact.startswith("# Editor\n\n## Types\n")


def test_the_tool_serves_compact_by_default_and_the_guide_in_full_when_asked() -> None:
    server = build_server(load_store(REPO / "skills"))

    async def main() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool("start_workflow_editor", args)
                    for args in ({}, {"detail": "full"})]

    answers = anyio.run(main)
    assert all(isinstance(a.content[0], TextContent) for a in answers)
    compact, full = (a.content[0].text for a in answers)
    assert full.startswith("---\n") and "AUTO-GEN:START" in full
    assert not compact.startswith("---") and "AUTO-GEN" not in compact
    # Every type of the catalog and every app tool is still there.
    for name in ("`merge-video-audio`", "`note`", "`update_workflow_json`", "`create_workflow`",
                 "tool `generate_image`", "tool `text_to_speech`"):
        assert name in compact
    # A node type's tool is named once, on its catalog line.
    assert "- `generate_image`:" in full and "- `generate_image`:" not in compact
    assert compact.count("```json") == 1 and full.count("```json") == 2
    assert len(compact) < 0.8 * len(full)
