"""schema.fastcheck: JSON equality as JSON Schema has it, and keywords it leaves to jsonschema.

Agreement with jsonschema on generated schemas is a property in tests/schema/test_node_schema.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from pygen.schema.fastcheck import compile_check


@pytest.mark.parametrize(("schema", "value", "valid"), [
    ({"type": "integer"}, 2.0, True),
    ({"type": "integer"}, True, False),
    ({"enum": [1]}, 1.0, True),
    ({"enum": [1]}, True, False),
    ({"const": False}, 0, False),
])
def test_fast_check_json_equality(schema: dict[str, Any], value: Any, valid: bool) -> None:
    check = compile_check(schema)
    assert check is not None
    assert check(value) is valid is Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize("schema", [
    {"pattern": "^a"}, {"enum": [[1]]}, {"type": "banana"}, {"properties": {"a": {"minimum": 1}}},
])
def test_fast_check_declines_keywords_it_does_not_know(schema: dict[str, Any]) -> None:
    assert compile_check(schema) is None
