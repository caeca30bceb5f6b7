"""Config keys: the catalog shapes (definitions lists, variant_field, entry_fields), and every
value type-checked, each mistake one line naming the file and key."""

from __future__ import annotations

import subprocess
import sys
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


@pytest.mark.parametrize(("line", "message"), [
    ("extract_timeout = nan", "key 'extract_timeout': Input should be a finite number"),
    ("tool_timeout = inf", "key 'tool_timeout': Input should be a finite number"),
    ("extract_timeout = -1", "key 'extract_timeout': Input should be greater than 0"),
    ("tools = 5", "key 'tools': Input should be a valid list"),
    ('tools = ["json:a.json", 5]', "key 'tools.1': Input should be a valid string"),
    ('strict = "yes"', "key 'strict': Input should be a valid boolean"),
    ("lock_timeout = -0.5", "key 'lock_timeout': Input should be greater than or equal to 0"),
])
def test_a_wrong_type_or_range_is_one_line(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "pygen.toml").write_text(f'nodes_file = "n.ts"\n{line}\n')
    with pytest.raises(ConfigError) as info:
        load_config(cwd=tmp_path)
    assert str(info.value) == f"{tmp_path / 'pygen.toml'}: {message}"


def test_a_config_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "pygen.toml").write_bytes(b'nodes_file = "n.ts"\n# caf\xe9\n')
    with pytest.raises(ConfigError, match=r"pygen.toml:2: not UTF-8 text \(byte 0xe9\)"):
        load_config(cwd=tmp_path)


@pytest.mark.parametrize("text", ["tool = 5\n", "[tool]\npygen = 5\n"])
def test_a_pyproject_whose_tool_is_not_a_table_is_not_a_config(tmp_path: Path,
                                                                 text: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ConfigError, match=r"no pygen configuration found|no .tool.pygen. table"):
        load_config(cwd=tmp_path)


def test_a_skills_dir_linked_outside_the_project_needs_the_key(tmp_path: Path) -> None:
    project, outside = tmp_path / "p", tmp_path / "elsewhere"
    project.mkdir()
    outside.mkdir()
    (project / "skills").symlink_to(outside)
    (project / "pygen.toml").write_text('nodes_file = "n.ts"\n')
    with pytest.raises(ConfigError, match=r"p/skills: skills_dir is a symbolic link to .*"
                                          "elsewhere, outside the project"):
        load_config(cwd=project)
    (project / "pygen.toml").write_text('nodes_file = "n.ts"\nexternal_skills_dir = true\n')
    assert load_config(cwd=project).skills_dir == outside.resolve()


@pytest.mark.parametrize(("line", "message"), [
    ('saved_workflows = ["/usr/**/*.json"]',
     "key 'saved_workflows': '/usr/**/*.json': is absolute"),
    ('saved_workflows = ["/dev/zero"]', "key 'saved_workflows': '/dev/zero': is absolute"),
    ('saved_workflows = ["C:/flows/*.json"]', "'C:/flows/*.json': is absolute"),
    ('saved_workflows = ["../other/*.json"]', "'../other/*.json': climbs out of the config's"),
    ('saved_workflows = ["flows/../../x.json"]', "climbs out of the config's folder"),
    ('saved_workflows = [""]', "key 'saved_workflows': '': an empty glob names no file"),
    ('definitions = ["/abs/nodes/*.ts:NODES"]', "key 'definitions': '/abs/nodes/*.ts:NODES': is "
                                                "absolute"),
])
def test_an_absolute_or_outside_glob_is_one_line_naming_the_key(
        tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, line + "\n"))
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_relative_globs_and_outside_definitions_are_kept(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'saved_workflows = ["flows/**/*.json", "a.json"]\n'
                                         'definitions = ["CORE", "../shared/*.ts:NODES", '
                                         '"call:build", "class:nodes"]\n'))
    assert config.settings.saved_workflows == ["flows/**/*.json", "a.json"]
    assert config.definitions[1] == "../shared/*.ts:NODES"


@pytest.mark.parametrize("glob", ["/usr/**/*.json", "/dev/zero"])
def test_an_absolute_saved_workflows_glob_is_no_internal_error(tmp_path: Path, glob: str) -> None:
    (tmp_path / "nodes.ts").write_text("export const NODE_DEFINITIONS = [];\n")
    write(tmp_path, f'saved_workflows = ["{glob}"]\n')
    done = subprocess_pygen(tmp_path, "check")
    assert done.returncode == 2
    assert "internal error" not in done.stderr and done.stderr.count("\n") == 1
    assert "key 'saved_workflows'" in done.stderr


def subprocess_pygen(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pygen", *argv], cwd=root, text=True,
                          capture_output=True, timeout=120, check=False)
