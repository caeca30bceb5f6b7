"""server.search: ranked, typo-tolerant node search, one line per hit, fast on 2,000 nodes."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from corpus_models import expected_model

from pygen.schema.document import schema_document
from pygen.server.search import SearchEntry, SearchIndex, entries_from_doc, search_text

REPO = Path(__file__).resolve().parents[2]
DOC = json.loads((REPO / "skills" / "schemas" / "nodes.schema.json").read_text(encoding="utf-8"))
INDEX = SearchIndex.build(entries_from_doc(DOC))


@pytest.mark.parametrize(("query", "first"), [
    ("animate image", "image-to-video"),
    ("imgae", "generate-image"),  # a typo
    ("upscale", "upscale-image"),
    ("voice", "text-to-speech"),  # a field name
    ("kling", "image-to-video"),  # an enum value
    ("combine clips", "combine-videos"),
    ("video_gen", "image-to-video"),  # snake case, a prefix
    ("videos", "combine-videos"),  # a handle id
])
def test_the_meant_node_ranks_first(query: str, first: str) -> None:
    assert INDEX.search(query, 3)[0].type == first


def test_each_hit_is_one_line_with_type_label_and_purpose() -> None:
    entry = SearchEntry("image-to-video", "Image to Video", "ai",
                        "Animates a still image into a short video clip. Costs 20 credits.")
    assert entry.line() == ("image-to-video — Image to Video (ai): Animates a still image into a "
                            "short video clip.")
    assert search_text(INDEX, "zzzzqqq").startswith("No node type matches 'zzzzqqq'.")
    assert len(search_text(INDEX, "video", 2).splitlines()) == 2


def synthetic(count: int) -> list[SearchEntry]:
    rng = random.Random(7)
    vocab = ["image", "video", "audio", "text", "prompt", "merge", "split", "filter", "resize",
             "crop", "blur", "sharpen", "translate", "summarize", "classify", "embed", "upscale",
             "trim", "combine", "loop", "list", "speech", "music", "voice", "color", "webhook",
             "email", "sheet", "row", "column"]
    out = []
    for i in range(count):
        a, b, c = rng.sample(vocab, 3)
        out.append(SearchEntry(f"{a}-{b}-{i}", f"{a.title()} {b.title()} {i}", c,
                               " ".join(rng.sample(vocab, 9)) + ".", "",
                               tuple(f"{w}Value" for w in rng.sample(vocab, 6)),
                               tuple(rng.sample(vocab, 2)), tuple(rng.sample(vocab, 4))))
    return out


def test_a_query_takes_under_5_ms_on_2000_nodes() -> None:
    index = SearchIndex.build(synthetic(2000))
    queries = ["video gen", "imgae", "resize crop", "trnslate text", "webhook", "sp"]
    rounds = []
    for _ in range(5):  # the best round: the machine is shared, a slow round is noise
        start = time.perf_counter()
        for query in queries:
            assert index.search(query)
        rounds.append((time.perf_counter() - start) / len(queries))
    assert min(rounds) < 0.005, f"{min(rounds) * 1000:.2f} ms per query"


def test_variants_are_found_by_their_own_names_and_labels() -> None:
    doc = json.loads(schema_document(expected_model("variant-catalog")))
    entries = entries_from_doc(doc)
    # The type's own entry is only the choice among its variants: no skill answers to it.
    assert [e.type for e in entries] == ["agent", "tool.search", "tool.calculator"]
    assert SearchIndex.build(entries).search("calculator", 1)[0].type == "tool.calculator"


def test_a_node_without_description_shows_its_tool_or_prose_purpose() -> None:
    doc = {"$defs": {"a": {"properties": {}}, "b": {"properties": {}}},
           "x-nodes": {"a": {"label": "A", "toolDescription": "Does a thing. More."},
                       "b": {"label": "B"}}}
    entries = entries_from_doc(doc, {"b": "Use `b` to join\nclips. Then more."})
    assert [e.line() for e in entries] == ["a — A: Does a thing.", "b — B: Use `b` to join clips."]


def test_search_says_when_no_type_fits_the_query_s_main_words() -> None:
    answer = search_text(INDEX, "captions subtitles text overlay on video", 10).splitlines()
    assert answer[0] == ("No node type fits 'captions', 'subtitles', 'overlay': no type's name, "
                         "description or fields has them. The nearest 3, by 'text', 'video' "
                         "only:")
    # Not a ranking of the catalog on the words left: the few nearest, said as such.
    assert len(answer) == 4
    # A typo and a sentence whose words the catalog has are fits, said as before.
    for query in ("vidoe", "add sound to a video", "animate image"):
        assert not search_text(INDEX, query, 3).startswith("No node type"), query
