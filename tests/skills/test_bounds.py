"""The one rule of where `gen` writes, walked over every output key of the config: pointed
outside the project directly or through a link, at the project's root or above it, each is
refused in one line naming the key, unless (for a folder) external_skills_dir opts out."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen.config import Settings, load_config
from pygen.errors import ConfigError
from pygen.skills import bounds

# Every Settings key that names a path or glob is an input or an output: a new one must be
# placed here, so no output can slip past the rule.
INPUT_KEYS = {"nodes_file", "tsconfig", "saved_workflows", "definitions", "tools"}
PATH_WORDS = ("_dir", "_file", "tsconfig", "workflows", "definitions", "tools")


def test_every_path_key_is_an_input_or_a_checked_output() -> None:
    paths = {key for key, field in Settings.model_fields.items()
             if key.endswith(PATH_WORDS) and field.annotation is not bool}
    assert paths - INPUT_KEYS == set(bounds.OUTPUT_KEYS)


def _config(root: Path, key: str, value: str, opt_out: bool = False) -> None:
    lines = ['nodes_file = "src/nodes.ts"', f'{key} = "{value}"']
    lines += ["external_skills_dir = true"] if opt_out else []
    (root / "pygen.toml").write_text("\n".join(lines) + "\n")


def _decide(root: Path) -> None:
    bounds.check_targets(load_config(root / "pygen.toml"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (root / "out-link").symlink_to(tmp_path / "outside")
    return root


def _value(key: str, where: str) -> str:
    return where if bounds.OUTPUT_KEYS[key] else f"{where}/copy.md"


@pytest.mark.parametrize("key", sorted(bounds.OUTPUT_KEYS))
@pytest.mark.parametrize("where", ["../outside", "out-link", "out-link/sub"])
@pytest.mark.parametrize("opt_out", [False, True])
def test_an_output_outside_the_project_is_refused_unless_opted_out(
        project: Path, key: str, where: str, opt_out: bool) -> None:
    _config(project, key, _value(key, where), opt_out)
    if opt_out and bounds.OUTPUT_KEYS[key]:
        _decide(project)  # a folder may lie outside when the config says so
        return
    with pytest.raises(ConfigError) as refused:
        _decide(project)
    message = str(refused.value)
    assert key in message and "\n" not in message
    assert "outside the project" in message or "symbolic link" in message


@pytest.mark.parametrize("key", sorted(k for k, folder in bounds.OUTPUT_KEYS.items() if folder))
@pytest.mark.parametrize("where", [".", "./", "src/..", ".."])
@pytest.mark.parametrize("opt_out", [False, True])
def test_an_output_folder_at_or_above_the_project_root_is_refused(
        project: Path, key: str, where: str, opt_out: bool) -> None:
    _config(project, key, where, opt_out)
    with pytest.raises(ConfigError) as refused:
        _decide(project)
    message = str(refused.value)
    assert key in message and "\n" not in message


def test_a_link_to_the_project_root_is_the_root(project: Path) -> None:
    (project / "here").symlink_to(project)
    _config(project, "agent_skills_dir", "here", opt_out=True)
    with pytest.raises(ConfigError, match=r"agent_skills_dir is the project's root \(through"):
        _decide(project)


def test_overlapping_output_folders_are_refused(project: Path) -> None:
    _config(project, "agent_skills_dir", "skills/agents")
    with pytest.raises(ConfigError, match="agent_skills_dir overlaps skills_dir"):
        _decide(project)


def test_inside_outputs_pass_and_may_write_names_their_files(project: Path) -> None:
    (project / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n'
                                        'agent_skills_dir = ".agents/skills"\n'
                                        'fallback_file = "pkg/guide.md"\n')
    config = load_config(project / "pygen.toml")
    bounds.check_targets(config)
    assert bounds.may_write(config, project / "skills" / "nodes" / "a.md")
    assert bounds.may_write(config, project / ".agents" / "skills" / "x" / "SKILL.md")
    assert bounds.may_write(config, project / "pkg" / "guide.md")
    assert not bounds.may_write(config, project / "pkg" / "other.md")
    assert not bounds.may_write(config, project / "src" / "nodes.ts")
    assert not bounds.may_write(config, project / "out-link" / "x.md")
