"""The skill registry: the shipped file loads, and every bad entry is named by file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen.protocol import ProtocolError, load_registry

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "skills" / "protocol" / "registry.toml"
KINDS = "sceneSpecPatch, sceneAssets, promptSet, musicBrief, editPlan, publishBrief, postmortem"

GOOD = '''
[[skills]]
name = "prompt-master"
asks = "cross-tool prompts"
outputs = ["promptSet"]
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "registry.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_registry_holds_the_seeds_table() -> None:
    registry = load_registry(SHIPPED)
    assert [(s.name, s.outputs, s.optional_outputs) for s in registry.skills] == [
        ("ai-short-film-breakdown", ("sceneSpecPatch",), ()),
        ("aigc-prompt-optimizer", ("promptSet",), ("sceneAssets",)),
        ("prompt-master", ("promptSet",), ()),
        ("blind-editing-workflow", ("editPlan",), ()),
        ("suno-music-brief", ("musicBrief",), ()),
        ("character-consistency-mj", ("promptSet",), ()),
        ("content-publish-sop", ("publishBrief",), ()),
        ("aigc-postmortem", ("postmortem",), ()),
    ]
    assert registry.source == str(SHIPPED)


def test_defaults_and_lookup(tmp_path: Path) -> None:
    registry = load_registry(write(tmp_path, GOOD))
    skill = registry.get("prompt-master")
    assert skill is not None
    assert (skill.ready, skill.optional_outputs, skill.also_returns) == (False, (), ())
    assert registry.get("nope") is None
    assert registry.names() == ("prompt-master",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace('["promptSet"]', '["promptSet", "script"]'),
         f"skills[0].outputs[1] (skill 'prompt-master'): unknown output kind 'script'; "
         f"valid kinds: {KINDS}"),
        (GOOD + 'optional_outputs = ["prompts"]\n',
         f"skills[0].optional_outputs[0] (skill 'prompt-master'): unknown output kind 'prompts'; "
         f"valid kinds: {KINDS}"),
        (GOOD.replace('asks = "cross-tool prompts"\n', ""),
         "skills[0].asks (skill 'prompt-master'): missing required field 'asks'"),
        (GOOD + "redy = true\n", "skills[0].redy (skill 'prompt-master'): unknown field 'redy'"),
        (GOOD.replace('"prompt-master"', '"Prompt Master"'),
         "skills[0].name (skill 'Prompt Master'): 'Prompt Master' is not a kebab-case skill name"),
        (GOOD.replace('outputs = ["promptSet"]', "outputs = []"),
         "skills[0].outputs (skill 'prompt-master'): Tuple should have at least 1 item after "
         "validation, not 0"),
        (GOOD + 'optional_outputs = ["promptSet"]\n',
         "skills[0] (skill 'prompt-master'): 'promptSet' is listed in both outputs and "
         "optional_outputs"),
        (GOOD + "ready = \"yes\"\n",
         "skills[0].ready (skill 'prompt-master'): Input should be a valid boolean"),
        (GOOD + GOOD, "skills[1].name: duplicate skill 'prompt-master'"),
        ('version = 2\n' + GOOD, "version: unknown field 'version'"),
        ("", "skills: missing required field 'skills'"),
    ],
)
def test_bad_entries_name_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProtocolError) as caught:
        load_registry(path)
    assert str(caught.value) == f"{path}: {message}"


def test_invalid_toml_and_missing_files(tmp_path: Path) -> None:
    path = write(tmp_path, "[[skills]\n")
    with pytest.raises(ProtocolError, match=r"registry\.toml: invalid TOML: "):
        load_registry(path)
    missing = tmp_path / "none.toml"
    with pytest.raises(ProtocolError) as caught:
        load_registry(missing)
    assert str(caught.value) == (
        f"{missing}: cannot read the skill registry: No such file or directory"
    )
