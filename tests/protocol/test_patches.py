"""apply_patches(): explicit, ordered, and never touching the caller's scenes."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pygen.protocol import ProtocolError, SceneSpec, SceneSpecPatch, apply_patches, to_wire
from pygen.protocol.loading import load_patches, load_scenes

SCENES = [
    {"id": "s1", "title": "Hook", "narration": "Look up.", "durationSeconds": 6,
     "subjects": [{"id": "host", "tags": ["presenter"]}], "camera": {"moves": ["dolly"]}},
    {"id": "s2", "title": "Why", "subjects": [{"id": "ray"}]},
]


def scenes() -> tuple[SceneSpec, ...]:
    return load_scenes(copy.deepcopy(SCENES), "scenes.json")


def patches(data: list[dict[str, Any]]) -> tuple[SceneSpecPatch, ...]:
    return load_patches(data, "patches.json")


def test_present_keys_replace_null_clears_and_the_rest_stays() -> None:
    out = apply_patches(scenes(), patches([{"id": "s1", "narration": None, "durationSeconds": 4,
                                            "camera": {"moves": []}}]))
    assert [to_wire(s) for s in out] == [
        {"id": "s1", "title": "Hook", "durationSeconds": 4,
         "subjects": [{"id": "host", "tags": ["presenter"]}], "camera": {"moves": []}},
        {"id": "s2", "title": "Why", "subjects": [{"id": "ray"}]},
    ]


def test_subjects_are_replaced_whole() -> None:
    out = apply_patches(scenes(), patches([{"id": "s2", "subjects": [{"id": "prism"}]}]))
    assert [s.id for s in out[1].subjects] == ["prism"]


def test_an_unknown_id_adds_a_scene_at_the_end_and_later_patches_win() -> None:
    out = apply_patches(scenes(), patches([
        {"id": "s3", "title": "Recap"},
        {"id": "s3", "beat": "recap"},
        {"id": "s1", "title": "Hook!"},
    ]))
    assert [(s.id, s.title, s.beat) for s in out] == [
        ("s1", "Hook!", None), ("s2", "Why", None), ("s3", "Recap", "recap")
    ]


def test_no_patches_returns_equal_but_separate_scenes() -> None:
    before = scenes()
    out = apply_patches(before, ())
    assert out == before
    assert all(a is not b for a, b in zip(out, before, strict=True))


def test_a_patch_without_id_is_refused_by_index() -> None:
    with pytest.raises(ProtocolError) as caught:
        apply_patches(scenes(), patches([{"id": "s1"}, {"title": "x"}]))
    assert str(caught.value) == (
        "$[1].id: a sceneSpecPatch entry needs the id of the scene it changes"
    )


def test_a_patch_that_duplicates_subject_ids_is_refused() -> None:
    with pytest.raises(ProtocolError) as caught:
        apply_patches(scenes(), patches([{"id": "s2", "subjects": [{"id": "a"}, {"id": "a"}]}]))
    assert str(caught.value) == "$[0].subjects[1].id: duplicate subject id 'a'"


def test_the_result_shares_no_mutable_state_with_the_input() -> None:
    before = scenes()
    snapshot = copy.deepcopy([s.model_dump() for s in before])
    out = apply_patches(before, patches([{"id": "s2", "title": "Changed"}]))
    # Mutate everything mutable the output exposes; the input must not notice.
    out[0].extras()["camera"]["moves"].append("crane")
    (out[0].model_extra or {})["camera"]["moves"].append("pan")
    (out[0].subjects[0].model_extra or {})["tags"].append("x")
    assert [s.model_dump() for s in before] == snapshot


def test_models_refuse_assignment() -> None:
    with pytest.raises(ValueError, match="frozen"):
        scenes()[0].title = "x"  # type: ignore[misc]


ids = st.sampled_from(["s1", "s2", "s3", "s4"])
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4))
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=8,
)
patch_data = st.fixed_dictionaries(
    {"id": ids},
    optional={
        "title": st.one_of(st.none(), st.text(max_size=5)),
        "narration": st.one_of(st.none(), st.text(max_size=5)),
        "subjects": st.lists(st.sampled_from(["a", "b", "c"]), unique=True, max_size=3).map(
            lambda names: [{"id": n} for n in names]),
        "extraStuff": json_value,
    },
)


@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(patch_data, max_size=6), json_value)
def test_patching_never_mutates_the_input(data: list[dict[str, Any]], extra: Any) -> None:
    base = [{**scene, "blob": copy.deepcopy(extra)} for scene in SCENES]
    before = load_scenes(base, "scenes.json")
    snapshot = copy.deepcopy([s.model_dump() for s in before])
    out = apply_patches(before, patches(data))
    assert [s.model_dump() for s in before] == snapshot
    # Every patched key holds the last value written to it; ids keep first-seen order.
    expected_ids = list(dict.fromkeys([s["id"] for s in SCENES] + [p["id"] for p in data]))
    assert [s.id for s in out] == expected_ids
    for patch in data:
        last = [p for p in data if p["id"] == patch["id"]]
        scene = to_wire(next(s for s in out if s.id == patch["id"]))
        for key in patch:
            value = next(p[key] for p in reversed(last) if key in p)
            assert scene.get(key) == value or (value is None and key not in scene)
