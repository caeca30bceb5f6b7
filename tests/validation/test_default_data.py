"""Data as the editor's default data makes it is valid (conventions `default_data_valid`),
on a hand-written catalog of an upload node whose type marks bookkeeping fields required
that its default data leaves out."""

from __future__ import annotations

from typing import Any

from pygen.schema.document import CONVENTIONS_KEY, DEFAULTS_KEY
from pygen.validation.catalog import Catalog, NodeSpec
from pygen.validation.default_data import same_json
from pygen.validation.profiles import apply_profile
from pygen.validation.workflow import validate_node_data

UPLOAD: dict[str, Any] = {"type": "object", "properties": {
    "label": {"type": "string"}, "assetId": {"type": "string"}, "r2Url": {"type": "string"},
    "provider": {"enum": ["a", "b"]}}, "required": ["label", "assetId", "r2Url", "provider"]}
UPLOAD_DEFAULTS = {"label": "Upload", "assetId": "", "provider": "legacy"}


def catalog(conventions: dict[str, Any]) -> Catalog:
    return Catalog([NodeSpec("upload", UPLOAD, (), (), {"inputs": [], "outputs": []})],
                   {CONVENTIONS_KEY: conventions, DEFAULTS_KEY: {"upload": UPLOAD_DEFAULTS}})


def rules(found: list[Any]) -> list[tuple[str, str, str]]:
    return [(f.level, f.rule, f.path) for f in found]


def test_data_as_the_editor_creates_it_is_valid() -> None:
    conv = {"unset_values": ['""'], "default_data_valid": True}
    # assetId: unset in the default data and left out; provider: the default's own value.
    found = validate_node_data("upload", {"label": "Shot 1", "provider": "legacy"},
                               catalog(conv))
    assert rules(found) == [("info", "required", "$.r2Url")]
    assert "its default data leaves it out" in found[0].message
    # strict wants every field of the type written.
    assert rules(apply_profile(found, "strict")) == [("error", "required", "$.r2Url")]


def test_a_value_other_than_the_defaults_is_still_judged() -> None:
    conv = {"unset_values": ['""'], "default_data_valid": True}
    found = validate_node_data("upload", {"label": "x", "r2Url": "u", "provider": "legacy2"},
                               catalog(conv))
    assert rules(found) == [("error", "enum", "$.provider")]
    # Without the convention the default data answers for nothing.
    assert ("error", "required", "$.r2Url") in rules(
        validate_node_data("upload", {"label": "x"}, catalog({"unset_values": ['""']})))


def test_json_equality_tells_true_from_one_all_the_way_down() -> None:
    assert same_json({"a": [1, {"b": ""}]}, {"a": [1.0, {"b": ""}]})
    assert not same_json({"a": [True]}, {"a": [1]})
    assert not same_json({"a": 1}, {"a": 1, "b": 2}) and not same_json([1], [1, 2])


def test_a_field_the_code_reads_with_a_fallback_is_not_owed_when_left_out() -> None:
    # As if the node's code read `data.provider ?? "a"` and never read `assetId`.
    conv = {"fallback_fields": {"upload": ["provider", "assetId"]}}
    found = validate_node_data("upload", {"label": "x", "r2Url": "u"}, catalog(conv))
    assert rules(found) == [("info", "required", "$.assetId"), ("info", "required", "$.provider")]
    assert all("fallback_fields" in f.message for f in found)
    assert rules(apply_profile(found, "strict")) == [
        ("error", "required", "$.assetId"), ("error", "required", "$.provider")]
    # Written, the value is still judged; a field not listed is still owed.
    found = validate_node_data("upload", {"label": "x", "provider": "c"}, catalog(conv))
    assert sorted(rules(found)) == [("error", "enum", "$.provider"),
                                    ("error", "required", "$.r2Url"),
                                    ("info", "required", "$.assetId")]
    # Listed for another type, it answers for nothing here.
    found = validate_node_data("upload", {"label": "x", "r2Url": "u"},
                               catalog({"fallback_fields": {"other": ["provider"]}}))
    assert ("error", "required", "$.provider") in rules(found)
