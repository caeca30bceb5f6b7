"""The strict JSON reader: every hostile input is one line naming the source and where."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen import jsonread
from pygen.jsonread import JsonInputError


@pytest.mark.parametrize(("text", "message"), [
    ('{"a": [1, {"b": NaN}]}', "f.json: invalid JSON at $.a[1].b: NaN is not JSON"),
    ('{"x": -Infinity}', "f.json: invalid JSON at $.x: -Infinity is not JSON"),
    ('[1e999]', "f.json: invalid JSON at $[0]: 1e999 overflows a number"),
    ('{"n": {"id": 1, "id": 2}}', 'f.json: invalid JSON at $.n: duplicate key "id"'),
    ('{"x": ' + "7" * 5000 + "}", "f.json: invalid JSON at $.x: an integer of 5000 digits"),
    ('{"x": "\\ud800"}', "f.json: invalid JSON at $.x: a lone surrogate"),
    ('{"\\udc00 k": 1}', 'f.json: invalid JSON at $["\\udc00 k"]: a lone surrogate'),
    ("[" * 100_000 + "]" * 100_000, "f.json:1:513: invalid JSON: nested deeper than 512"),
    ("[" * 600 + "]" * 600, "f.json: invalid JSON at $[0][0]"),
    ('{"a": ', "f.json:1:7: invalid JSON: Expecting value"),
])
def test_rejects_what_is_not_strict_json_in_one_line(text: str, message: str) -> None:
    with pytest.raises(JsonInputError) as info:
        jsonread.loads(text, "f.json")
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_invalid_utf8_names_the_line_and_byte() -> None:
    with pytest.raises(JsonInputError) as info:
        jsonread.loads(b'{\n"x": "\xff"}', "<stdin>")
    assert str(info.value) == "<stdin>:2: not UTF-8 text (byte 0xff); save the file as UTF-8"


def test_accepts_json_with_bom_pairs_and_deep_but_allowed_nesting(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_bytes(b'\xef\xbb\xbf{"s": "\\ud83d\\ude00", "n": [' + b"[" * 500 + b"]" * 500
                     + b"], \"big\": " + b"9" * 1000 + b"}")
    value = jsonread.load_file(path)
    assert value["s"] == "\U0001f600" and value["big"] == int("9" * 1000)


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(JsonInputError, match=r"missing.json: cannot read \(No such file"):
        jsonread.load_file(tmp_path / "missing.json")


def test_pygens_own_json_fails_in_one_line_too() -> None:
    assert jsonread.loads_own('{"a": [1, 2]}', "cache.json") == {"a": [1, 2]}
    with pytest.raises(jsonread.JsonInputError, match=r"^cache\.json"):
        jsonread.loads_own('{"a": ', "cache.json")
    with pytest.raises(jsonread.JsonInputError, match="nested deeper"):
        jsonread.loads_own("[" * 100_000 + "]" * 100_000, "cache.json")
    with pytest.raises(jsonread.JsonInputError, match=r"^cache\.json"):
        jsonread.loads_own(b"\xff{}", "cache.json")
