"""server.standard: the standard detail stays near 1,000 tokens and says what it cut."""

from __future__ import annotations

import re
from pathlib import Path

from pygen import layout
from pygen.server.node_tools import load_node_catalog, node_skill_text
from pygen.server.standard import standard_text
from pygen.server.store import load_store

REPO = Path(__file__).resolve().parents[2]

SKILL = """---
node_type: mixer
---

# Mixer

<!-- AUTO-GEN:START node-data-shape -->
**Required data fields** (from `MixerData`):
- `routes: RouteTable` — Where each input goes.
- `mode: Mode` — one of the 14 values below — How inputs mix.
  - `"a"`
  - `"b"`
  - `"c"`
  - `"d"`
  - `"e"`
  - `"f"`
  - `"g"`
  - `"h"`
  - `"i"`
  - `"j"`
  - `"k"`
  - `"l"`
  - `"m"`
  - `"n"`
- `deep: { inner: { leaf: string; }; }` — Nested twice.
  - `inner: { leaf: string; }` — One level down.
    - `leaf: string` — Two levels down.
<!-- AUTO-GEN:END node-data-shape -->

## Common gotchas

- First sentence of a long gotcha. Second sentence that only the full detail keeps, and it
  goes on for a while to make the text long enough.
"""
SCHEMA = {"properties": {"routes": {"type": "object",
                                    "additionalProperties": {"type": "string"}}}}


def test_long_enums_and_deep_nesting_are_cut_with_a_pointer_to_full() -> None:
    text = standard_text(SKILL, SCHEMA)
    assert "---" not in text and "AUTO-GEN" not in text
    assert '  - `"h"`' in text and '`"i"`' not in text
    assert '  - … 6 more (every value: get_node_skill(detail="full"))' in text
    assert "    - … (deeper fields: get_node_skill(detail=\"full\"))" in text
    assert "`leaf: string` — Two levels down." not in text
    # A bare type name gets its shape from the schema: nested value shapes at standard.
    assert "- `routes: RouteTable` = `Record<string, string>` — Where each input goes." in text


def test_gotchas_are_cut_to_their_first_sentence_only_over_the_budget() -> None:
    assert "Second sentence" in standard_text(SKILL, SCHEMA)
    long = SKILL + "\nFiller paragraph.\n" * 250
    text = standard_text(long, SCHEMA)
    assert "- First sentence of a long gotcha." in text and "Second sentence" not in text
    assert '(Each gotcha in full: get_node_skill(detail="full").)' in text


def test_typical_nodes_of_the_example_stay_near_1000_tokens() -> None:
    store = load_store(REPO / "skills")
    nodes = load_node_catalog(layout.schema_file(store.root), store.root, store.nodes)
    sizes = sorted(len(node_skill_text(store.nodes, nodes, t, "standard") or "") // 4
                   for t in store.node_types)
    assert sizes[len(sizes) // 2] <= 1000, sizes  # the typical (median) node
    assert sizes[-1] <= 1300, sizes
    music = node_skill_text(store.nodes, nodes, "generate-music", "standard") or ""
    assert "\nType: `generate-music` · Category: ai · Credit cost: 10 · " in music


FIVE = ["text-prompt", "generate-image", "image-to-video", "generate-music", "merge-video-audio"]


def _batch() -> tuple[list[str], dict[str, str]]:
    from pygen.server.node_tools import SkillAnswers

    store = load_store(REPO / "skills")
    nodes = load_node_catalog(layout.schema_file(store.root), store.root, store.nodes)
    result = SkillAnswers(store.nodes, nodes).result(None, FIVE, "standard")
    parts = result.content[0].text.split("\n---\n\n")  # type: ignore[union-attr]
    return parts, {t: node_skill_text(store.nodes, nodes, t, "standard") or "" for t in FIVE}


def test_runner_and_result_fields_are_one_line_of_names() -> None:
    _, single = _batch()
    image = single["generate-image"]
    assert ("- `generatedImageUrl`, `currentJobId`, `generatedResults` (types: "
            'get_node_skill(detail="full"))') in image
    assert "- `executionStatus`, `errorMessage` (the runner writes these; types:" in image
    assert "ISO 8601" not in image and '"idle"' not in image
    assert "(from `" not in image and "**Required data fields:**" in image
    assert "MCP tool: `generate_image`" not in image.split("\n\n")[1]  # its own section says it


def test_a_batch_says_each_thing_once_and_loses_no_field_name() -> None:
    parts, single = _batch()
    assert len(parts) == len(FIVE)
    assert "```json\n{\n \"nodes\"" in parts[0]  # the first worked example stays whole
    music = parts[3]
    assert ('As in the worked example above, with data `{"label": "Generate Music", '
            '"fieldMappings": {"in": "prompt"}}`, wired `text-prompt` `text` → `in`; `audio` → '
            '`merge-video-audio` `audio` (in full: "full").') in music
    assert "- `label: string` (as above)" in music
    assert 'get_node_skill(detail="full")' in parts[0]
    assert not any('get_node_skill(detail="full")' in p for p in parts[1:])
    for node_type, part in zip(FIVE, parts, strict=True):
        named = set(re.findall(r"^- `(\w+)", single[node_type], re.MULTILINE))
        assert named <= set(re.findall(r"`(\w+)", part)), node_type
        assert len(part) <= len(single[node_type])
    assert sum(map(len, parts)) < sum(map(len, single.values())) - 3_000


def test_a_block_the_catalog_does_not_write_is_named_not_served() -> None:
    text = ("# N\n\n<!-- AUTO-GEN:START node-data-shape -->\n- **Type:** `n`\n"
            "<!-- AUTO-GEN:END node-data-shape -->\n\n<!-- AUTO-GEN:START provider-prompting -->"
            "\n" + "A long doctrine.\n" * 200 + "<!-- AUTO-GEN:END provider-prompting -->\n\n"
            "## Common gotchas\n\n- One.\n")
    served = standard_text(text)
    assert "doctrine" not in served and "- One." in served
    assert ("(Left out here: the `provider-prompting` block, which this catalog does not "
            "write; get_node_skill(detail=\"full\") has it.)") in served


def test_conditions_are_served_short_and_collections_are_named_with_their_values() -> None:
    text = ("**Required data fields**:\n"
            "- `channelId: string` — shown when `operation` is one of `close`, `get` and "
            "`resource` is `channel` — Channel. The channel to close and `x` is `y`\n"
            "- `operation?` — listed per condition — Operation\n"
            "  - when `resource` is `message`: `\"post\" | \"update\"` — default `\"post\"`\n"
            "  - when (`resource` is `user` and `select` is not `bot`) or `name` is ``: "
            "`\"info\"` — default `\"info\"`\n"
            "- `text: string` — Text. See <a href=\"https://x\">the docs</a>\n\n"
            "**Optional data fields:**\n- `options?: object` — Options\n"
            "  - `format?: \"repeat\" | \"brackets\"` — default `\"brackets\"` — Format\n"
            + "".join(f"  - `o{i}?: boolean` — Option {i}\n" for i in range(5)))
    served = standard_text(text)
    assert ("- `channelId: string` — shown when operation=close|get, resource=channel — "
            "Channel. The channel to close and `x` is `y`\n") in served
    assert '  - when resource=message: `"post" | "update"` — default `"post"`\n' in served
    # An empty value keeps its words: `name=` would read as no condition at all.
    assert "  - when (resource=user, select!=bot) or `name` is ``: `\"info\"`" in served
    assert "Text. See the docs" in served
    assert ('  - optional fields: `format` (`"repeat" | "brackets"`), `o0`, `o1`, `o2`, `o3`, '
            '`o4` (each one: get_node_skill(detail="full"))') in served


def test_a_cut_enum_list_counts_its_own_values_only() -> None:
    """The "… N more" of one list adds up with its heading, not with the lists after it."""
    second = "\n".join(f'  - `"v{i}"`' for i in range(20))
    skill = SKILL.replace("<!-- AUTO-GEN:END node-data-shape -->",
                          f"- `tone: Tone` — one of the 20 values below — The tone.\n{second}\n"
                          "<!-- AUTO-GEN:END node-data-shape -->")
    text = standard_text(skill, SCHEMA)
    assert '  - … 6 more (every value: get_node_skill(detail="full"))' in text
    assert '  - … 12 more (every value: get_node_skill(detail="full"))' in text


def test_a_description_that_only_repeats_the_name_is_left_out() -> None:
    text = ("**Optional data fields:**\n"
            "- `channelVisibility?: \"public\" | \"private\"` — Channel Visibility\n"
            "- `topic?: string` — default `\"\"` — Topic\n"
            "- `purpose?: string` — Purpose. A new purpose\n"
            "- `operation?` — listed per condition — Operation\n")
    served = standard_text(text)
    assert "- `channelVisibility?: \"public\" | \"private\"`\n" in served
    assert "- `topic?: string` — default `\"\"`\n" in served
    assert "- `purpose?: string` — Purpose. A new purpose\n" in served
    assert "- `operation?` — listed per condition\n" in served
