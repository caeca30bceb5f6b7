"""A node schema read from a document: its local `$ref`s are found and followed, and a schema
that breaks the meta-schema is refused."""

from __future__ import annotations

import pytest

from pygen.validation.schema_refs import check_schema, malformed_errors, refs, resolves

SCHEMA = {"$defs": {"a/b": {"type": "string"}, "list": [{"type": "number"}]},
          "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/list/0"},
                         "z": {"$ref": "other#/x"}}}


def test_every_ref_is_found() -> None:
    assert sorted(refs(SCHEMA)) == ["#/$defs/a~1b", "#/$defs/list/0", "other#/x"]


@pytest.mark.parametrize(("ref", "ok"), [("#/$defs/a~1b", True), ("#/$defs/list/0", True),
                                         ("#/$defs/list/1", False), ("other#/x", False),
                                         ("#/$defs/none", False)])
def test_a_local_pointer_resolves_only_to_a_value(ref: str, ok: bool) -> None:
    assert resolves(SCHEMA, ref) is ok


def test_a_schema_breaking_the_meta_schema_is_refused() -> None:
    check_schema({"type": "string"})
    with pytest.raises(malformed_errors()):
        check_schema({"type": "string", "required": ["a", "a"]})
