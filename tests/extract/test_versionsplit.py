"""One entry serving several versions (`version: [1, 1.1, 2]`): its field list is read per
version; versions reading the same share a variant named by their latest, and an entry whose
versions all read the same stays one node, read at its latest version."""

from __future__ import annotations

from typing import Any

from pygen.config import FieldList
from pygen.extract import versionsplit
from pygen.model import Location, NodeDef

N8N = FieldList(entry_field="properties", preset="n8n")
PLAIN = FieldList(entry_field="properties")


def entry(**extra: Any) -> NodeDef:
    return NodeDef(type="sheet", label="Sheet", source=Location(file="sheet.ts", line=3),
                   **extra)


def prop(name: str, show: Any = None, hide: Any = None, **extra: Any) -> dict[str, Any]:
    options = {k: {"@version": v} for k, v in (("show", show), ("hide", hide)) if v}
    return {"displayName": name.title(), "name": name, "type": "string", "default": "",
            **({"displayOptions": options} if options else {}), **extra}


SHEET = [
    prop("operation"),
    prop("range", show=[1, 1.1]),
    prop("sheetId", show=[{"_cnd": {"gte": 2}}], required=True),
    prop("rawData", hide=[{"_cnd": {"gte": 2.1}}]),
    {"displayName": "Broken", "type": "string"},
]


def names(node: NodeDef) -> list[str]:
    return [f.name for f in node.data_type.fields]


def test_versions_with_different_fields_become_variants_named_by_their_latest() -> None:
    nodes, problems = versionsplit.read(entry(versions=("1", "1.1", "2", "2.1")), SHEET, N8N,
                                        "version")
    assert [(n.key, n.variant_values, n.variant_field, n.versions) for n in nodes] == [
        ("sheet.1.1", ("1", "1.1"), "version", ()),
        ("sheet.2", ("2",), "version", ()),
        ("sheet.2.1", ("2.1",), "version", ())]
    assert [names(n) for n in nodes] == [["operation", "range", "rawData"],
                                        ["operation", "sheetId", "rawData"],
                                        ["operation", "sheetId"]]
    # The same unreadable descriptor in every version is one problem.
    assert problems == ["'properties'[4] has no string 'name'"]


def test_the_split_follows_the_versions_not_the_order_they_are_listed_in() -> None:
    listed = versionsplit.read(entry(versions=("2.1", "1", "2", "1.1")), SHEET, N8N, None)[0]
    assert [(n.variant, n.variant_values, n.variant_field) for n in listed] == [
        ("1.1", ("1", "1.1"), None), ("2", ("2",), None), ("2.1", ("2.1",), None)]


def test_versions_reading_the_same_keep_one_node_read_at_the_latest() -> None:
    node = entry(versions=("1", "2"))
    descriptors = [prop("text"), prop("color", show=[1, 2]), prop("legacy", show=[0.5])]
    (kept,), problems = versionsplit.read(node, descriptors, N8N, "version")
    assert (kept.variant, kept.versions, names(kept), problems) == (
        None, ("1", "2"), ["text", "color"], [])


def test_a_variant_serving_several_versions_splits_and_keeps_its_own_field() -> None:
    """A class of a versioned type that serves 2 and 2.1 (`version: [2, 2.1]`)."""
    node = entry(variant="2.1", variant_values=("2", "2.1"), variant_field="v",
                 default_variant="2")
    nodes, _ = versionsplit.read(node, SHEET, N8N, "version")
    assert [(n.key, n.variant_values, n.variant_field, n.default_variant) for n in nodes] == [
        ("sheet.2", ("2",), "v", "2"), ("sheet.2.1", ("2.1",), "v", "2")]


def test_one_version_is_read_at_that_version() -> None:
    (one,), _ = versionsplit.read(entry(versions=("1",)), SHEET, N8N, "version")
    assert (one.variant, one.versions, names(one)) == (None, ("1",), ["operation", "range",
                                                                      "rawData"])


def test_without_a_version_key_or_number_the_list_is_read_whole() -> None:
    (plain,), _ = versionsplit.read(entry(versions=("1", "2")), SHEET, PLAIN, "version")
    assert names(plain) == ["operation", "range", "sheetId", "rawData"]
    (named,), _ = versionsplit.read(entry(versions=("1", "beta")), SHEET, N8N, "version")
    assert names(named) == ["operation", "range", "sheetId", "rawData"]
