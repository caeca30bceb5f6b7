"""The `x-retired` record of the schema document: carried forward, grown, let go."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pygen.skills import retired_record


def doc(fields: dict[str, list[str]], handles: dict[str, list[str]] | None = None,
        **extra: Any) -> dict[str, Any]:
    defs = {t: {"type": "object", "properties": {f: {"enum": ["a-value"]} if f == "mode" else
                                                  {"type": "string"} for f in names}}
            for t, names in fields.items()}
    ports = {t: {"inputs": ids, "outputs": [], "inputTypes": {}} for t, ids in
             (handles or {}).items()}
    return {"$defs": defs, "x-handles": ports, **extra}


def with_record(text: str, old_text: str | None,
                tools: Mapping[str, list[str]] | None = None) -> str:
    """`add_record` on a document's text, written as gen writes it; the text when it adds
    nothing."""
    document = json.loads(text)
    out = retired_record.add_record(document, old_text, (), tools)
    return text if out == document else json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def test_names_of_a_node_are_its_type_fields_enum_values_and_handles() -> None:
    gone = retired_record.retire(doc({"img": ["prompt", "mode"]}, {"img": ["reference"]}),
                                 doc({}))
    assert gone == {"img": sorted({"img", "prompt", "mode", "a-value", "reference"})}


def test_a_rename_is_recorded_with_its_node_and_carried_by_every_later_run() -> None:
    before = doc({"img": ["referenceImageUrl"], "txt": ["text"]})
    after = doc({"img": ["referenceImage"], "txt": ["text"]})
    record = retired_record.retire(before, after)
    assert record == {"img": ["referenceImageUrl"]}
    later = retired_record.retire({**after, "x-retired": record}, after)
    assert later == record


def test_a_name_that_comes_back_or_is_forgotten_leaves_the_record() -> None:
    current = doc({"img": ["referenceImageUrl"]})
    assert retired_record.retire({**current, "x-retired": {"img": ["referenceImageUrl"]}},
                                 current) == {}
    renamed = doc({"img": ["ref"]})
    assert retired_record.retire(current, renamed, forget=["referenceImageUrl"]) == {}


def test_a_removed_node_retires_its_type_and_names() -> None:
    record = retired_record.retire(doc({"img": ["prompt"], "old": ["seed"]}),
                                   doc({"img": ["prompt"]}))
    assert record == {"old": ["old", "seed"]}


def test_the_document_is_unchanged_without_retired_names_and_gains_the_key_with_them() -> None:
    text = json.dumps(doc({"img": ["prompt"]}), indent=2) + "\n"
    assert with_record(text, text) == text
    assert with_record(text, None) == text
    old = json.dumps(doc({"img": ["promptText"]}))
    new = json.loads(with_record(text, old))
    assert new["x-retired"] == {"img": ["promptText"]}
    assert list(new)[:2] == ["$defs", "x-handles"]
    assert with_record(text, "{not json") == text


def test_a_renamed_tool_parameter_is_retired_through_the_tools_record() -> None:
    base = doc({"img": ["prompt"]})
    before = json.dumps(base)
    text = json.dumps(base, indent=2) + "\n"
    first = json.loads(with_record(text, None,
                                                  tools={"img": ["gen_image", "ref_url"]}))
    assert first["x-tool-names"] == {"img": ["gen_image", "ref_url"]} and "x-retired" not in first
    second = json.loads(with_record(text, json.dumps(first),
                                            tools={"img": ["gen_image", "reference_url"]}))
    assert second["x-retired"] == {"img": ["ref_url"]}
    assert with_record(text, before) == text


def test_a_run_without_tools_retires_no_tool_names() -> None:
    with_tools = {**doc({"img": ["prompt"]}), "x-tool-names": {"img": ["gen_image", "ref_url"]}}
    assert retired_record.retire(with_tools, doc({"img": ["prompt"]})) == {}
    renamed = {**doc({"img": ["prompt"]}), "x-tool-names": {"img": ["gen_image"]}}
    assert retired_record.retire(with_tools, renamed) == {"img": ["ref_url"]}
