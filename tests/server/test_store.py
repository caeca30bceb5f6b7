from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pygen.errors import UnknownNodeType
from pygen.server.fallback import fallback_text
from pygen.server.store import SkillStoreError, load_store
from pygen.skills.orchestrators import check_orchestrators

REPO = Path(__file__).resolve().parents[2]
FILM = "REQUIRED FIRST STEP for any cinematic video request. Directs a trailer."


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def skill_md(name: str, description: str = "Does one thing.", body: str = "# Body\n") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n{body}"


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    """A skills dir with two node skills, a CRLF file, an orchestrator, and bait outside."""
    root = tmp_path / "skills"
    write(root / "workflow-editor.md", "# Editor\n")
    write(root / "nodes" / "generate-image.md", "# Generate Image\n")
    write(root / "nodes" / "text-prompt.md", "# Text Prompt\r\nline two\r\n")
    write(root / "nodes" / "_README.md", "index for humans\n")
    write(root / "film-director" / "SKILL.md", skill_md("film-director", FILM))
    write(root / "secret.md", "SECRET IN SKILLS\n")
    write(tmp_path / "secret.md", "SECRET OUTSIDE\n")
    return root


def test_load_reads_every_kind_of_skill(skills: Path) -> None:
    store = load_store(skills)
    assert store.root == skills.resolve()
    assert store.workflow_editor == "# Editor\n"
    assert not store.fallback
    assert store.node_types == ("generate-image", "text-prompt")
    assert [(s.name, s.description, s.tool_name) for s in store.orchestrators] == [
        ("film-director", FILM, "start_film_director")
    ]
    assert store.orchestrators[0].text == skill_md("film-director", FILM)
    assert store.skipped == ()


def test_content_is_served_byte_for_byte(skills: Path) -> None:
    assert load_store(skills).get_node_skill("text-prompt") == "# Text Prompt\r\nline two\r\n"


def test_unknown_type_lists_the_valid_ones(skills: Path) -> None:
    with pytest.raises(UnknownNodeType) as info:
        load_store(skills).get_node_skill("generate-video")
    assert str(info.value) == (
        "Unknown node_type 'generate-video'. Valid types: generate-image, text-prompt"
    )


TRAVERSALS = [
    "../secret",
    "../../secret",
    "../secret.md",
    "nodes/../secret",
    "./generate-image",
    "nodes/generate-image",
    "generate-image.md",
    "generate-image/",
    "/etc/passwd",
    "/secret",
    "\x00",
    "generate-image\x00",
    "generate-image\x00.md",
    "..%2fsecret",
    "%2e%2e%2fsecret",
    "%2E%2E%2Fsecret",
    "generate%2dimage",
    "..\\secret",
    "nodes\\generate-image",
    "\uff0e\uff0e\uff0fsecret",  # fullwidth full stops and solidus
    "..\uff0fsecret",
    "\u2025/secret",  # two-dot leader
    "generate\u2010image",  # hyphen, not hyphen-minus
    "\uff47enerate-image",  # fullwidth g
    "generate-imag\u0435",  # Cyrillic e
    "GENERATE-IMAGE",
    " generate-image",
    "generate-image ",
    "_README",
    "..",
    ".",
    "~",
]


@pytest.mark.parametrize("node_type", TRAVERSALS)
def test_every_traversal_attempt_is_refused(skills: Path, node_type: str) -> None:
    store = load_store(skills)
    with pytest.raises(UnknownNodeType) as info:
        store.get_node_skill(node_type)
    assert str(info.value) == (
        f"Unknown node_type '{node_type}'. Valid types: generate-image, text-prompt"
    )


def test_absolute_path_of_a_real_node_file_is_refused(skills: Path) -> None:
    path = str(skills / "nodes" / "generate-image.md")
    with pytest.raises(UnknownNodeType):
        load_store(skills).get_node_skill(path)


def test_no_symlink_in_nodes_is_followed(skills: Path, tmp_path: Path) -> None:
    (skills / "nodes" / "escape.md").symlink_to(tmp_path / "secret.md")
    (skills / "nodes" / "image.md").symlink_to("generate-image.md")
    store = load_store(skills)
    assert "escape" not in store.node_types and "image" not in store.node_types
    with pytest.raises(UnknownNodeType):
        store.get_node_skill("escape")
    nodes = skills.resolve() / "nodes"
    assert store.skipped == (
        f"{nodes / 'escape.md'}: is a symbolic link (to {tmp_path / 'secret.md'}); pygen does "
        "not follow links among the files it owns: replace it with a regular file or folder; "
        "skipped",
        f"{nodes / 'image.md'}: is a symbolic link (to generate-image.md); pygen does not "
        "follow links among the files it owns: replace it with a regular file or folder; "
        "skipped",
    )


def test_a_symlinked_nodes_dir_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "shared-nodes"
    write(elsewhere / "loop.md", "# Loop\n")
    write(tmp_path / "skills" / "workflow-editor.md", "# Editor\n")
    (tmp_path / "skills" / "nodes").symlink_to(elsewhere)
    store = load_store(tmp_path / "skills")
    assert store.node_types == ()
    assert store.skipped == (f"{tmp_path / 'skills' / 'nodes'}: is a symbolic link (to "
                             f"{elsewhere}); pygen does not follow links among the files it "
                             "owns: replace it with a regular file or folder; skipped",)


def test_odd_entries_in_nodes_are_not_node_types(skills: Path) -> None:
    (skills / "nodes" / "folder.md").mkdir()
    write(skills / "nodes" / "sub" / "nested.md", "nested\n")
    write(skills / "nodes" / "bad name.md", "spaces\n")
    write(skills / "nodes" / ".hidden.md", "hidden\n")
    write(skills / "nodes" / "notes.txt", "text\n")
    (skills / "nodes" / "latin1.md").write_bytes(b"caf\xe9\n")
    store = load_store(skills)
    assert store.node_types == ("generate-image", "text-prompt")
    nodes = skills / "nodes"
    assert store.skipped == (
        f"{nodes / 'bad name.md'}: file name is not a valid node type "
        "([A-Za-z0-9._-], 1-64 chars); skipped",
        f"{nodes / 'folder.md'}: not a regular file; skipped",
        f"{nodes / 'latin1.md'}: cannot read: 'utf-8' codec can't decode byte 0xe9 in "
        "position 3: invalid continuation byte; skipped",
    )


def test_missing_skills_dir_serves_the_packaged_fallback(tmp_path: Path) -> None:
    store = load_store(tmp_path / "absent")
    assert store.fallback
    assert store.workflow_editor == fallback_text()
    assert store.node_types == () and store.orchestrators == ()
    with pytest.raises(UnknownNodeType, match=r"^Unknown node_type 'x'\. Valid types: \(none"):
        store.get_node_skill("x")


def test_skills_dir_that_is_a_file_serves_the_fallback(tmp_path: Path) -> None:
    store = load_store(write(tmp_path / "skills", "not a directory\n"))
    assert store.fallback and store.workflow_editor == fallback_text()


def test_unreadable_workflow_editor_falls_back_but_keeps_nodes(skills: Path) -> None:
    (skills / "workflow-editor.md").unlink()
    (skills / "workflow-editor.md").mkdir()  # reading a directory fails like a bad file
    store = load_store(skills)
    assert store.fallback and store.workflow_editor == fallback_text()
    assert store.node_types == ("generate-image", "text-prompt")


NAME_RULE = "must be 1-64 chars of a-z, 0-9 and '-', without a leading, trailing or double hyphen"


@pytest.mark.parametrize(
    ("folder", "frontmatter", "problem"),
    [
        ("Film", "name: Film\ndescription: x", f"name 'Film' {NAME_RULE}"),
        ("-film", "name: -film\ndescription: x", f"name '-film' {NAME_RULE}"),
        ("film-", "name: film-\ndescription: x", f"name 'film-' {NAME_RULE}"),
        ("a--b", "name: a--b\ndescription: x", f"name 'a--b' {NAME_RULE}"),
        ("a_b", "name: a_b\ndescription: x", f"name 'a_b' {NAME_RULE}"),
        ("a" * 65, f"name: {'a' * 65}\ndescription: x", f"name '{'a' * 65}' {NAME_RULE}"),
        ("film", "name: film-director\ndescription: x",
         "name 'film-director' must equal its folder name 'film'"),
        ("workflow-editor", "name: workflow-editor\ndescription: x",
         "name 'workflow-editor' is reserved for the built-in skill; rename the folder"),
        ("film", "name: film\ndescription: " + "d" * 1025,
         "description is 1025 chars; the limit is 1024"),
        ("film", "name: film\ndescription: ''",
         "description is empty; say what the skill does and when to use it"),
        ("film", "name: film", "frontmatter needs both 'name' and 'description'"),
        ("film", "description: x", "frontmatter needs both 'name' and 'description'"),
    ],
)
def test_agent_skills_rules(tmp_path: Path, folder: str, frontmatter: str, problem: str) -> None:
    path = write(tmp_path / folder / "SKILL.md", f"---\n{frontmatter}\n---\nbody\n")
    assert check_orchestrators(tmp_path) == [f"{path}: {problem}"]
    with pytest.raises(SkillStoreError) as info:
        load_store(tmp_path)
    assert str(info.value) == f"{path}: {problem}"


def test_limits_are_inclusive(tmp_path: Path) -> None:
    name = "a" * 64
    write(tmp_path / name / "SKILL.md", skill_md(name, "d" * 1024))
    assert check_orchestrators(tmp_path) == []
    assert load_store(tmp_path).orchestrators[0].tool_name == "start_" + name


def test_several_violations_name_the_first_and_count_the_rest(tmp_path: Path) -> None:
    first = write(tmp_path / "a" / "SKILL.md", skill_md("b"))
    write(tmp_path / "c" / "SKILL.md", skill_md("d"))
    with pytest.raises(SkillStoreError) as info:
        load_store(tmp_path)
    assert str(info.value) == (
        f"{first}: name 'b' must equal its folder name 'a' (and 1 more; run pygen check)"
    )


def test_skill_md_without_frontmatter_is_not_an_orchestrator(tmp_path: Path) -> None:
    write(tmp_path / "notes" / "SKILL.md", "# Just notes\n")
    write(tmp_path / "other" / "README.md", skill_md("other"))
    assert check_orchestrators(tmp_path) == []
    assert load_store(tmp_path).orchestrators == ()


def test_orchestrators_are_loaded_in_name_order(tmp_path: Path) -> None:
    for name in ("zeta", "alpha", "mid-way"):
        write(tmp_path / name / "SKILL.md", skill_md(name))
    assert [s.tool_name for s in load_store(tmp_path).orchestrators] == [
        "start_alpha", "start_mid_way", "start_zeta",
    ]


def test_packaged_fallback_names_no_editor_of_its_own() -> None:
    """Every project's server falls back to it: it says nothing is loaded and names no node
    type, field or handle of any editor (here: none of the example's)."""
    text = fallback_text()
    assert "no skills loaded" in text
    example = (REPO / "skills" / "schemas" / "nodes.schema.json").read_text(encoding="utf-8")
    names = set(json.loads(example)["$defs"])
    assert not [name for name in names if f"`{name}`" in text or f'"{name}"' in text]
    assert "fieldMappings" not in text and "label" not in text


def test_repo_skills_load(tmp_path: Path) -> None:
    copy = shutil.copytree(REPO / "skills", tmp_path / "skills")
    store = load_store(copy)
    assert "start_film_director" in [s.tool_name for s in store.orchestrators]
    assert check_orchestrators(copy) == []


def test_files_and_folders_for_people_are_never_served(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write(root / "nodes" / "note.md", "# Note\n")
    write(root / "nodes" / "_README.md", "# Index, for people\n")
    write(root / "_drafts" / "SKILL.md", skill_md("draft"))
    write(root / "film" / "SKILL.md", skill_md("film"))
    store = load_store(root)
    assert store.node_types == ("note",)
    assert [s.name for s in store.orchestrators] == ["film"]
    assert check_orchestrators(root) == []
