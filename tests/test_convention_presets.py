"""The conventions a field-list preset brings (pygen/convention_presets.py)."""

from __future__ import annotations

from pygen.config import Settings
from pygen.convention_presets import with_preset_conventions
from pygen.conventions import Conventions


def test_a_field_list_preset_brings_its_editors_conventions_under_declared_ones() -> None:
    base = {"nodes_file": "x.ts", "field_list": {"entry_field": "inputs", "preset": "flowise"}}
    brought = Settings.model_validate(base).conventions
    assert (brought.unset, brought.numeric_strings) == (("", None), True)
    own = Settings.model_validate({**base, "conventions": {"numeric_strings": False}})
    assert own.conventions.numeric_strings is False and own.conventions.unset == ("", None)
    n8n = {**base, "field_list": {"entry_field": "properties", "preset": "n8n"}}
    assert Settings.model_validate(n8n).conventions == Conventions()


def test_a_table_without_a_known_preset_is_returned_as_it_is() -> None:
    for table in ({"nodes_file": "x.ts"}, {"field_list": {"preset": "other"}}, "text",
                  {"field_list": {"preset": "flowise"}, "conventions": "bad"}):
        assert with_preset_conventions(table) is table
