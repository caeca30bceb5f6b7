"""suggest: the "did you mean" guesses, by convention first, then by edit distance."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pygen.suggest import (
    Guess,
    NameIndex,
    best_match,
    guess,
    ranked,
    words,
)

TYPES = ["text-prompt", "list", "loop", "generate-image", "upscale-image", "image-to-video",
         "generate-music", "text-to-speech", "trim-video", "combine-videos", "merge-video-audio",
         "adjust-volume", "note"]
TOOLS = [("image_to_video", "image-to-video"), ("generate_image", "generate-image")]


def test_words_split_every_convention_alike() -> None:
    assert words("aspectRatio") == words("aspect_ratio") == words(" Aspect-Ratio ") == [
        "aspect", "ratio"]
    assert words("sourceImageURL") == ["source", "image", "url"]


def test_a_guess_that_differs_only_by_convention_is_mechanical() -> None:
    assert guess("aspect_ratio", ["prompt", "aspectRatio"]) == Guess("aspectRatio", True)
    assert guess("promt", ["prompt", "aspectRatio"]) == Guess("prompt", False)
    assert guess("zzz", ["prompt"]) is None


@pytest.mark.parametrize(("word", "first"), [
    ("image_to_video", "image-to-video"),  # a tool's name maps to the node type it fills
    ("Generate-Image", "generate-image"),
    (" generate-image", "generate-image"),
    ("text to speech", "text-to-speech"),
    ("combine", "combine-videos"),
])
def test_ranked_suggestions_put_the_meant_type_first(word: str, first: str) -> None:
    found = ranked(word, TYPES, aliases=TOOLS)
    assert found[0] == first and len(found) <= 3


def test_a_loose_word_still_gets_related_types() -> None:
    assert "image-to-video" in ranked("video-gen", TYPES, aliases=TOOLS)
    assert ranked("qqqq", TYPES) == []


NAME = st.text(alphabet="abcdeABxy_-1", min_size=1, max_size=10)


@given(NAME, st.lists(NAME, max_size=30), st.sampled_from([0.0, 0.6, 0.7, 0.85]))
def test_the_fast_match_picks_what_difflib_picks(word: str, options: list[str],
                                                 cutoff: float) -> None:
    found = difflib.get_close_matches(word, sorted(set(options)), n=1, cutoff=cutoff)
    assert best_match(word, sorted(set(options)), cutoff) == (found[0] if found else None)


def test_an_index_finds_a_close_name_among_names_of_as_many_words() -> None:
    index = NameIndex(["aspectRatio", "prompt", "target", "targetId", "promptSet"])
    assert index.nearest("aspectRation") == "aspectRatio"
    assert index.nearest("aspect_ratio") == "aspectRatio"  # by convention alone
    assert index.nearest("targetIds") == "targetId"  # not `target`: one word fewer
    assert index.one_typo("promtp") == "prompt"  # a swap, which difflib scores low
    assert index.one_typo("promptx") == "prompt"
    assert index.one_typo("prmt") is None  # two keystrokes
    assert index.nearest("target", 0.0, same_words=False) == "target"
