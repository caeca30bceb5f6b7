"""`pygen init` on a copy of every fixture project, without its config: the config it writes
makes `pygen gen` and `pygen check` pass, reproduces the fixture's own config where that
needs no special keys, and an ambiguous catalog is listed with exit 1."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ts"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
PLAIN_KEYS = {"nodes_file", "definitions", "skills_dir", "tsconfig"}


def pygen(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "pygen", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def copy(case: Path, tmp: Path) -> Path:
    """The case without its config, beside the shared tsconfig the corpus uses."""
    shutil.copyfile(FIXTURES / "tsconfig.json", tmp / "tsconfig.json")
    root = tmp / case.name
    shutil.copytree(case, root, ignore=shutil.ignore_patterns("pygen.toml", "expected.*"))
    return root


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str


def in_process(root: Path, *args: str) -> Run:
    """A pygen command run in this process (a subprocess per fixture costs seconds)."""
    with contextlib.chdir(root):
        result = CliRunner().invoke(main, list(args))
    return Run(result.exit_code, result.output)


def adopt(case: Path, tmp: Path) -> tuple[Path, list[Run]]:
    (tmp / case.name).mkdir()
    root = copy(case, tmp / case.name)
    runs = [in_process(root, "init")]
    if case.name in TOGETHER:
        runs.append(in_process(root, "init", "--all"))
    if runs[-1].returncode == 0 and (plain(case) or case.name in GUESSED or case.name in SHAPED):
        runs += [in_process(root, "gen", "-q"), in_process(root, "check", "-q")]
    return root, runs


def active_keys(path: Path) -> dict[str, object]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


# Cases where init finds no catalog and says so, writing nothing: the catalog is empty.
NO_CATALOG = {"error-empty-catalog"}
# Shapes init reads beyond a constant: the source it picks, and the field-list preset the
# descriptors show (classes assigning their members, class properties with versions, builder
# calls, every export of sibling files). Their configs hold keys init cannot guess (labels
# under other names), so the source is compared, and `gen` then `check` must pass.
SHAPED = {"field-list-flowise": ("class:*", "flowise"),
          "class-credentials": ("class:*:Node", "flowise"),
          "field-list-n8n": ("class:description", "n8n"),
          "versioned-class": ("class:description", "n8n"),
          "versions-latest": ("class:description", "n8n"),
          "handle-factories": ("call:defineNode", None), "glob-star": ("nodes/*.ts:*", None)}


def plain(case: Path) -> bool:
    """Whether the case's config (if any) holds only keys init can find by itself."""
    own = case / "pygen.toml"
    return not own.is_file() or set(active_keys(own)) <= PLAIN_KEYS


# Catalogs init lists and leaves to a person: several constants, each a catalog.
AMBIGUOUS = {"source-list", "catalog-built"}
# Several candidates where the extractor shows one is the catalog: a plugin's constant whose
# only node type the core catalog already has adds nothing, so init picks the core one.
PICKED = {"duplicate-sources": "CORE_NODES"}
# Of those, the ones that together are the catalog: `init --all` writes the list form.
TOGETHER = {"source-list", "catalog-built"}
# Configs with keys init cannot guess (label/category names), whose guess still makes
# `gen` and `check` pass: the class form keyed by `name`.
GUESSED = {"source-class"}


def check_case(case: Path, root: Path, runs: list[Run]) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    init = runs[0]
    if case.name in NO_CATALOG:
        assert init.returncode == 1 and "No constant looks like a node catalog" in init.stdout
        return
    if case.name in TOGETHER:
        assert init.returncode == 1 and "pygen picked none" in init.stdout, case.name
        assert [r.returncode for r in runs[1:]] == [0, 0, 0], (case.name, runs)
        assert active_keys(root / "pygen.toml") == active_keys(case / "pygen.toml"), case.name
    elif case.name in PICKED:
        assert init.returncode == 0, (case.name, init.stdout)
        assert "also found, not chosen: " in init.stdout, case.name
        written = active_keys(root / "pygen.toml")
        assert written.get("definitions", "NODE_DEFINITIONS") == PICKED[case.name], case.name
    elif case.name in AMBIGUOUS:
        assert init.returncode == 1 and "pygen picked none" in init.stdout, case.name
        assert not (root / "pygen.toml").exists()
    elif case.name in SHAPED:
        assert [r.returncode for r in runs] == [0, 0, 0], (case.name, [r.stdout for r in runs])
        written = active_keys(root / "pygen.toml")
        source, preset = SHAPED[case.name]
        assert written["definitions"] == source, case.name
        assert written.get("field_list", {}).get("preset") == preset, case.name
        own = active_keys(case / "pygen.toml")
        for name in ("variant_field", "saved_workflows", "conventions"):
            assert written.get(name) == own.get(name), (case.name, name)
    elif case.name in GUESSED:
        assert [r.returncode for r in runs] == [0, 0, 0], (case.name, runs)
        written, own = active_keys(root / "pygen.toml"), active_keys(case / "pygen.toml")
        assert (written["nodes_file"], written["definitions"]) == (
            own["nodes_file"], own["definitions"]), case.name
    elif "error" in expected and plain(case):
        # The config is right; the code has the error the extractor names.
        assert init.returncode == 1, (case.name, init.stdout)
        assert expected["error"] in init.stdout, case.name
        assert (root / "pygen.toml").is_file()
    elif not plain(case):
        # Keys init cannot guess (data_types, entry_fields, …): it still writes a config.
        # The extractor may fail on what only those keys fix; init says so and exits 1.
        assert init.returncode in (0, 1) and (root / "pygen.toml").is_file(), case.name
    else:
        assert "node catalog: " in init.stdout, case.name
        assert [r.returncode for r in runs] == [0, 0, 0], (case.name, [r.stdout for r in runs])
        if (case / "pygen.toml").is_file():
            assert active_keys(root / "pygen.toml") == active_keys(case / "pygen.toml"), case.name


@pytest.mark.slow
def test_init_then_gen_and_check_pass_on_a_copy_of_every_fixture(tmp_path: Path) -> None:
    results = {case: adopt(case, tmp_path) for case in CASES}
    for case, (root, runs) in results.items():
        check_case(case, root, runs)
    reproduced = [c.name for c in CASES if (c / "pygen.toml").is_file() and plain(c)
                  and c.name not in AMBIGUOUS]
    assert {"esm-js-suffix", "source-call", "workspace-pnpm", "source-file-glob"} <= set(
        reproduced)


@pytest.mark.slow
def test_an_ambiguous_catalog_is_listed_and_nothing_is_written(tmp_path: Path) -> None:
    root = copy(FIXTURES / "literal-unions", tmp_path)
    shutil.copyfile(FIXTURES / "array-as-const" / "nodes.ts", root / "legacy-nodes.ts")
    done = pygen(root, "init")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Several constants look like node catalogs; pygen picked none:"
    assert lines[1].startswith("  NODE_DEFINITIONS  legacy-nodes.ts:")
    assert "2 node(s)" in lines[1]
    assert lines[2].startswith("  NODE_DEFINITIONS  nodes.ts:")
    assert "--definitions NAME" in lines[3]
    assert not (root / "pygen.toml").exists()
    chosen = pygen(root, "init", "--definitions", "NODE_DEFINITIONS", "--nodes-file", "nodes.ts")
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    assert active_keys(root / "pygen.toml") == {"nodes_file": "nodes.ts"}


@pytest.mark.parametrize("existing", ["pygen.toml", "pyproject.toml"])
def test_an_existing_config_is_never_overwritten(tmp_path: Path, existing: str) -> None:
    root = copy(FIXTURES / "literal-unions", tmp_path)
    text = '[tool.pygen]\nnodes_file = "x"\n' if existing == "pyproject.toml" else (
        'nodes_file = "x.ts"\n')
    (root / existing).write_text(text, encoding="utf-8")
    done = pygen(root, "init", "--pyproject")
    assert done.returncode == 2
    assert "exists already" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert (root / existing).read_text(encoding="utf-8") == text


def test_init_pyproject_appends_a_table_that_gen_and_check_use(tmp_path: Path) -> None:
    root = copy(FIXTURES / "esm-js-suffix", tmp_path)
    before = '[project]\nname = "editor"\nversion = "1.0.0"\n'
    (root / "pyproject.toml").write_text(before, encoding="utf-8")
    runs = [in_process(root, "init", "--pyproject"), in_process(root, "gen", "-q"),
            in_process(root, "check", "-q")]
    assert [r.returncode for r in runs] == [0, 0, 0], [r.stdout for r in runs]
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(before + "\n[tool.pygen]\n")
    assert active_keys(root / "pyproject.toml")["tool"]["pygen"] == {"nodes_file": "src/nodes.ts"}
    assert not (root / "pygen.toml").exists()


# What the example app's own config declares beside what init finds (pyproject.toml).
EXAMPLE_CONVENTIONS = """
[conventions]
mapping_field = "fieldMappings"
mapping_required = true
label_key = "data.label"
editor_fills_defaults = true
"""


def test_init_on_the_example_app_and_its_existing_skills(tmp_path: Path) -> None:
    """The example's skills were written with tools configured; a config without them must
    not make the tools' names stale (pygen knows nothing of them then)."""
    repo = FIXTURES.parents[2]
    shutil.copytree(repo / "examples" / "studio", tmp_path / "examples" / "studio",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(repo / "skills", tmp_path / "skills")
    init = in_process(tmp_path, "init")
    assert init.returncode == 0, init.stdout
    assert "13 node(s)" in init.stdout and "set `tools`" in init.stdout
    # The example's saved workflows (one valid, three each breaking one graph rule) are found.
    assert active_keys(tmp_path / "pygen.toml") == {
        "nodes_file": "examples/studio/src/types/nodes.ts",
        "saved_workflows": ["examples/studio/workflows/*.json"]}
    # The guide's hand-written workflows leave fields to the editor's defaults and map wired
    # inputs, conventions no code declares: until the config says so, those are true findings.
    first = in_process(tmp_path, "check", "-q")
    assert first.returncode == 1
    assert "skills/workflow-editor.md" in first.stdout and "missing required field" in first.stdout
    with (tmp_path / "pygen.toml").open("a", encoding="utf-8") as config:
        config.write(EXAMPLE_CONVENTIONS)
    runs = [in_process(tmp_path, "gen", "-q"), in_process(tmp_path, "check", "-q")]
    assert [r.returncode for r in runs] == [0, 0], [r.stdout for r in runs]


def test_init_pyproject_writes_the_zod_table_under_tool_pygen(tmp_path: Path) -> None:
    """A catalog whose entries hold zod schemas: `[zod]` becomes `[tool.pygen.zod]`."""
    root = tmp_path / "zod-builder"
    shutil.copytree(FIXTURES.parent / "init" / "zod-builder", root,
                    ignore=shutil.ignore_patterns("expected.json"))
    (root / "pyproject.toml").write_text('[project]\nname = "nodes"\n', encoding="utf-8")
    runs = [in_process(root, "init", "--pyproject"), in_process(root, "gen", "-q"),
            in_process(root, "check", "-q")]
    assert [r.returncode for r in runs] == [0, 0, 0], [r.stdout for r in runs]
    table = active_keys(root / "pyproject.toml")["tool"]["pygen"]
    assert table["zod"] == {"entry_field": "inputSchema"}
    assert table["definitions"] == "call:defineNode"
