"""Config keys of the catalog shapes: definitions lists, variant_field, entry_fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen.config import load_config
from pygen.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pygen.toml"
    path.write_text('nodes_file = "nodes.ts"\n' + text, encoding="utf-8")
    return path


def test_an_unknown_key_inside_entry_fields_names_that_tables_keys(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, '[entry_fields]\ncreditCost = "cost"\n'))
    message = str(raised.value)
    assert "unknown key 'entry_fields.creditCost' in [entry_fields]" in message
    assert "valid keys: type, label, category, credit_cost," in message
    assert "nodes_file" not in message.split("valid keys:")[1]


def test_an_unknown_top_level_key_names_the_top_level_keys(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown key 'skill_dir'; valid keys: nodes_file,"):
        load_config(write(tmp_path, 'skill_dir = "x"\n'))


def test_definitions_may_be_a_list_and_handles_may_be_undeclared(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'definitions = ["CORE", "plugins/*.ts:NODES"]\n'
                                         'variant_field = "toolType"\n'
                                         "[entry_fields]\ninputs = false\noutputs = false\n"
                                         'handle_type = "dataType"\n'))
    assert config.definitions == ("CORE", "plugins/*.ts:NODES")
    assert config.definitions_label == "CORE, plugins/*.ts:NODES"
    assert config.settings.entry_fields.inputs is False
    assert config.settings.entry_fields.model_fields_set == {"inputs", "outputs", "handle_type"}


def test_inputs_true_is_refused_with_the_key_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"key 'entry_fields\.inputs'"):
        load_config(write(tmp_path, "[entry_fields]\ninputs = true\n"))
