"""Stale prose: backticked names that were the catalog's and are gone; look-alike words as
hints; and everything that is neither."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run

from pygen.config import load_config
from pygen.gate import prose_lint
from pygen.gate.prose import candidate
from pygen.gate.prose_lint import (
    NO_CHANGES,
    History,
    Lint,
    Retired,
    StaleName,
    Vocabulary,
    lint_names,
    vocabulary,
)
from pygen.gate.text_memo import read_names
from pygen.model import (
    DataField,
    DataType,
    Handle,
    Location,
    Model,
    NodeDef,
    ToolSchema,
    TypeRef,
)
from pygen.schema.document import schema_document
from pygen.skills import retired_record
from pygen.tools import merge

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"

STRING = TypeRef(kind="string")
MODE = TypeRef(kind="union", types=(TypeRef(kind="literal", value="fast"),
                                    TypeRef(kind="literal", value="slow")))


def field(name: str, ref: TypeRef = STRING) -> DataField:
    return DataField(name=name, type_text="string", type=ref)


def node(node_type: str, *fields: DataField, tool: ToolSchema | None = None) -> NodeDef:
    return NodeDef(type=node_type, label=node_type.title(), source=Location(file="n.ts", line=1),
                   inputs=(Handle(id="in"),), outputs=(Handle(id="image"),),
                   data_type=DataType(name=f"{node_type.title()}Data", via="name",
                                      fields=fields),
                   default_data={f.name: "" for f in fields}, tool=tool)


TOOL = ToolSchema(name="render_image", input_schema={
    "type": "object", "properties": {"aspect_ratio": {"type": "string"},
                                     "quality": {"enum": ["draft", "final"]}}})
def lint_text(text: str, path: Path, vocab: Vocabulary, node_type: str | None = None,
              changes: History = NO_CHANGES, retired: Retired | None = None) -> Lint:
    """The lint of one file's text, as `lint_skills` reads each file."""
    return lint_names(read_names(text, str(path)), path, vocab, node_type, changes,
                      retired or Retired())


MODEL = Model(nodes=(
    node("render-image", field("prompt"), field("aspectRatio"), field("mode", MODE),
         field("negativePrompt"), tool=TOOL),
    node("image-to-video", field("prompt"), field("sourceImageUrl"),
         field("generatedVideoUrl")),
), tools=(TOOL,))
VOCAB = vocabulary(MODEL, ["NODE_DEFINITIONS"])
PATH = Path("skills/nodes/render-image.md")


def stale(text: str, node_type: str | None = "render-image", changes: History = NO_CHANGES,
          retired: Retired | None = None) -> list[tuple[int, str, str | None]]:
    return [(s.line, s.name, s.suggestion)
            for s in lint_text(text, PATH, VOCAB, node_type, changes, retired or Retired()).stale]


def hints(text: str, node_type: str | None = "render-image") -> list[tuple[int, str, str | None]]:
    """Look-alikes of names that never were names: for `doctor`, never a failure."""
    found = lint_text(text, PATH, VOCAB, node_type)
    assert found.stale == []
    return [(s.line, s.name, s.suggestion) for s in found.hints]


# --- what is a candidate ------------------------------------------------------------------

@pytest.mark.parametrize("span", [
    "npm ci", "pygen gen --force", '{ "in": "prompt" }', "get_node_skill(node_type)",
    "get_node_skill()", "skills/nodes/x.md", "data.prompt", "./run", "--force", "a b",
    '"16:9"', "1k", "x = 1", "<type>",
])
def test_commands_json_calls_paths_and_phrases_are_never_candidates(span: str) -> None:
    assert candidate(span) is None


@pytest.mark.parametrize(("span", "token"), [
    ("prompt", "prompt"), ('"fast"', "fast"), ("seed?", "seed"), (" aspectRatio ", "aspectRatio"),
    ("render-image", "render-image"), ("aspect_ratio", "aspect_ratio"), ("'slow'", "slow"),
])
def test_identifiers_quoted_values_and_optional_marks_are(span: str, token: str) -> None:
    assert candidate(span) == token


def test_only_prose_is_read_and_lines_keep_their_numbers() -> None:
    text = ("---\nnote: `promptt`\n---\n# T\n"
            "<!-- AUTO-GEN:START a -->\n`promptt`\n<!-- AUTO-GEN:END a -->\n"
            "```json\n`promptt`\n```\n"
            "<!-- a comment with `promptt`\n spanning lines -->\n"
            "Use `promptt` here.\n")
    assert hints(text) == [(13, "promptt", "prompt")]


def test_double_backtick_spans_and_spans_over_a_line_break() -> None:
    text = ("Set ``aspectRatoi`` first,\nthen `negative\nPrompt` and `prompt`.\n\n"
            "A `stray\n\ntick`\n")
    assert hints(text) == [(1, "aspectRatoi", "aspectRatio")]


# --- both directions ----------------------------------------------------------------------

def test_known_names_in_any_case_style_are_not_stale() -> None:
    text = ("Wire `in` to `image`; set `aspectRatio` (the tool's `aspect_ratio`) via "
            "`render_image` or `render-image`; `mode` is `\"fast\"` or `slow`; `quality` is "
            "`draft`; see `RenderImageData`, `NODE_DEFINITIONS` and `image-to-video`'s "
            "`sourceImageUrl`.\n")
    assert hints(text) == []


def test_a_typo_of_a_field_is_a_hint_with_the_closest_name() -> None:
    assert hints("Keep `negativePromt` empty.\n") == [(1, "negativePromt", "negativePrompt")]
    assert hints("Keep `aspect_ration` wide.\n") == [(1, "aspect_ration", "aspectRatio")]


def test_a_swapped_letter_is_one_keystroke() -> None:
    assert hints("Write the `promtp`.\n") == [(1, "promtp", "prompt")]


def test_the_files_own_node_is_preferred_for_the_suggestion() -> None:
    assert hints("`generatedVideoUrls`\n", node_type="image-to-video") == [
        (1, "generatedVideoUrls", "generatedVideoUrl")]


@pytest.mark.parametrize("word", [
    "nodes", "edges", "sourceHandle", "update_workflow_json", "targetId", "promptSet",
    "imageUrls", "data", "id", "file", "mdoe",
])
def test_words_the_model_does_not_have_and_names_built_on_known_ones_are_not_stale(
        word: str) -> None:
    assert hints(f"See `{word}`.\n") == []


def test_a_renamed_field_is_caught_by_the_run_that_renames_it() -> None:
    changes = prose_lint.history(
        "<!-- AUTO-GEN:START s -->\n- `mode: Mode`\n<!-- AUTO-GEN:END s -->\n",
        "<!-- AUTO-GEN:START s -->\n- `speed: Mode`\n<!-- AUTO-GEN:END s -->\n", "x.md")
    assert changes == History(frozenset({"mode"}), frozenset({"speed"}))
    model = Model(nodes=(node("render-image", field("speed", MODE)),))
    found = lint_text("Set `mode` first.\n", PATH, vocabulary(model), "render-image",
                      changes).stale
    assert found == [StaleName(PATH, 1, "mode", "speed")]
    assert found[0].message("skills/nodes/render-image.md") == (
        "skills/nodes/render-image.md:1: stale name '`mode`' (did you mean '`speed`'?)")


def test_a_name_that_left_this_node_is_stale_here_even_if_another_node_has_it() -> None:
    changes = History(frozenset({"sourceImageUrl"}), frozenset())
    assert stale("Set `sourceImageUrl`.\n", changes=changes) == [(1, "sourceImageUrl", None)]
    assert stale("Set `sourceImageUrl`.\n") == []


def test_a_retired_name_stays_stale_on_every_later_run_until_forgotten() -> None:
    record = Retired({"render-image": frozenset({"promptText", "aspectRatio"})})
    text = "Set `promptText`, then `aspectRatio`.\n"
    # `aspectRatio` came back: the node has it again, literally.
    assert stale(text, retired=record) == [(1, "promptText", "prompt")]
    assert stale(text, node_type="image-to-video", retired=record) == []
    # In a file that is no node's, any node's retired name counts.
    assert stale(text, node_type=None, retired=record) == [(1, "promptText", "prompt")]
    let_go = Retired(record.by_node, frozenset({"promptText"}))
    assert stale(text, retired=let_go) == []


def test_a_tool_parameter_in_another_case_style_does_not_keep_a_field_alive() -> None:
    record = Retired({"render-image": frozenset({"aspect_ratio_value", "aspectRatio2"})})
    # The tool's `aspect_ratio` is a name literally; the retired field is not.
    text = "Pass `aspect_ratio`; the old `aspectRatio2` is gone.\n"
    assert stale(text, retired=record) == [(1, "aspectRatio2", "aspectRatio")]


def test_message_without_a_suggestion() -> None:
    assert StaleName(PATH, 3, "x", None).message("a.md") == "a.md:3: stale name '`x`'"


def test_lint_skills_skips_orphans_and_reads_planned_text(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "nodes").mkdir(parents=True)
    (skills / "nodes" / "gone.md").write_text("Use `promptt`.\n")
    (skills / "guide.md").write_text("Use `promptt`.\n")
    (skills / ".hidden").mkdir()
    (skills / ".hidden" / "x.md").write_text("Use `promptt`.\n")
    (skills / "nodes" / "_README.md").write_text("Use `promptt`.\n")
    (skills / "_drafts").mkdir()
    (skills / "_drafts" / "x.md").write_text("Use `promptt`.\n")
    found = prose_lint.lint_skills(skills, MODEL, [])
    assert [(s.path.name, s.line, s.name) for s in found.hints] == [("guide.md", 1, "promptt")]


# --- zero false positives on real prose, and a real rename caught --------------------------

@pytest.fixture(scope="module")
def example_model() -> Model:
    return merge.load_model(load_config(REPO / "pyproject.toml"))


def test_the_examples_skills_have_no_stale_names(example_model: Model) -> None:
    files = prose_lint.skill_files(REPO / "skills")
    assert {"workflow-editor.md", "SKILL.md", "generate-image.md"} <= {p.name for p in files}
    found = prose_lint.lint_skills(REPO / "skills", example_model, [],
                                   extra=["NODE_DEFINITIONS"])
    assert found.stale == [] and found.hints == []


def test_fixture_prose_has_no_stale_names(example_model: Model) -> None:
    checked = 0
    for path in sorted(FIXTURES.rglob("*.md")):
        model = example_model
        expected = path.parent / "expected.json"
        if expected.is_file():
            data = json.loads(expected.read_text())
            if "nodes" not in data:
                continue
            model = Model(nodes=tuple(NodeDef.model_validate(n) for n in data["nodes"]))
        found = lint_text(path.read_text(), path, vocabulary(model, ["NODE_DEFINITIONS"]))
        assert found.stale == [] and found.hints == [], path
        checked += 1
    assert checked >= 2


def test_renaming_a_field_the_examples_prose_names_is_caught(example_model: Model) -> None:
    def rename(n: NodeDef) -> NodeDef:
        fields = tuple(f.model_copy(update={"name": "sourceImageUri"})
                       if f.name == "sourceImageUrl" else f for f in n.data_type.fields)
        return n.model_copy(update={"data_type": n.data_type.model_copy(
            update={"fields": fields})})

    renamed = example_model.model_copy(update={
        "nodes": tuple(map(rename, example_model.nodes)), "tools": ()})
    renamed = renamed.model_copy(update={"nodes": tuple(
        n.model_copy(update={"tool": None}) for n in renamed.nodes)})
    record = retired_record.retire(json.loads(schema_document(example_model)),
                            json.loads(schema_document(renamed)))
    found = prose_lint.lint_skills(REPO / "skills", renamed, [],
                                   retired=Retired({t: frozenset(n) for t, n in record.items()}))
    assert found.stale and {(s.name, s.suggestion) for s in found.stale} == {
        ("sourceImageUrl", "sourceImageUri")}
    assert any(s.path.name == "workflow-editor.md" for s in found.stale)


# --- `check` and `gen` with stale_prose = error | warn | off ------------------------------

NODES_TS = """\
export interface PromptData {
  text: string;
  mode: "fast" | "slow";
}
export const NODE_DEFINITIONS = [
  { type: "prompt", label: "Prompt", inputs: [], outputs: ["text"],
    defaultData: { text: "", mode: "fast" } },
];
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    skill = tmp_path / "skills" / "nodes" / "prompt.md"
    skill.write_text(skill.read_text().replace(
        "## When to use\n\n", "## When to use\n\nPick `mode` `\"fast\"` for drafts.\n"))
    # Prose written: the nodes index (nodes/_README.md) says so once gen runs.
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return tmp_path


def prose_line(skill: Path) -> int:
    return next(number for number, line in enumerate(skill.read_text().splitlines(), start=1)
                if line.startswith("Pick `"))


@pytest.mark.slow
def test_check_fails_on_a_rename_and_keeps_failing_after_gen_until_the_prose_changes(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    nodes_ts = project / "src" / "nodes.ts"
    nodes_ts.write_text(NODES_TS.replace("  mode:", "  speed:").replace("mode: \"fast\" }",
                                                                         "speed: \"fast\" }"))
    skill = project / "skills" / "nodes" / "prompt.md"
    message = "skills/nodes/prompt.md:{}: stale name '`mode`' (did you mean '`speed`'?)"
    check = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert check.exit_code == 1
    assert message.format(prose_line(skill)) in check.stderr.splitlines()
    gen = run(project, "gen", "-q", monkeypatch=monkeypatch)
    assert gen.exit_code == 1
    assert message.format(prose_line(skill)) in gen.stderr.splitlines()
    later = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert later.exit_code == 1
    assert message.format(prose_line(skill)).split(" (did")[0] in later.stderr
    skill.write_text(skill.read_text().replace("Pick `mode`", "Pick `speed`"))
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0


def test_a_typo_is_a_doctor_hint_never_a_failure(project: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    skill = project / "skills" / "nodes" / "prompt.md"
    skill.write_text(skill.read_text().replace("Pick `mode`", "Pick `modes`"))
    check = run(project, "check", monkeypatch=monkeypatch)
    assert check.exit_code == 0 and "modes" not in check.stderr
    doctor = json.loads(run(project, "doctor", "--json", monkeypatch=monkeypatch).stdout)
    assert [(h["name"], h["suggestion"]) for h in doctor["prose_hints"]] == [("modes", "mode")]


@pytest.mark.slow
def test_a_stale_name_fails_check_per_level(project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    nodes_ts = project / "src" / "nodes.ts"
    nodes_ts.write_text(NODES_TS.replace("  mode:", "  speed:").replace("mode: \"fast\" }",
                                                                         "speed: \"fast\" }"))
    assert run(project, "gen", "-q", monkeypatch=monkeypatch).exit_code == 1
    skill = project / "skills" / "nodes" / "prompt.md"
    line = f"skills/nodes/prompt.md:{prose_line(skill)}: stale name '`mode`'"
    error = run(project, "check", monkeypatch=monkeypatch)
    assert error.exit_code == 1 and line in error.stderr.splitlines()
    config = project / "pygen.toml"
    config.write_text(config.read_text() + 'stale_prose = "warn"\n')
    warn = run(project, "check", monkeypatch=monkeypatch)
    assert warn.exit_code == 0 and line in warn.stderr.splitlines()
    assert 'warning: 1 stale name(s) in hand-written prose (stale_prose = "warn")' in warn.stderr
    config.write_text(config.read_text().replace('"warn"', '"off"'))
    off = run(project, "check", monkeypatch=monkeypatch)
    assert off.exit_code == 0 and "stale name" not in off.stderr


def test_a_name_that_left_only_the_example_but_is_another_nodes_field_is_not_stale() -> None:
    # Conventions changed after a first gen: the worked example no longer shows the next
    # node's `sourceImageUrl`, nor the retired `oldName`; prose naming that field is right.
    def page(example: str) -> str:
        return ("<!-- AUTO-GEN:START examples -->\n" + example
                + "\n<!-- AUTO-GEN:END examples -->\n")

    old = page('```json\n{"data": {"sourceImageUrl": "", "oldName": ""}}\n```')
    new = page('```json\n{"config": {}}\n```')
    changes = prose_lint.history(old, new, str(PATH))
    assert changes.example_only == {"sourceImageUrl", "oldName", "data"}
    text = "Feed `sourceImageUrl` of the next node; `oldName` is gone.\n"
    assert stale(text, changes=changes) == [(1, "oldName", None)]
