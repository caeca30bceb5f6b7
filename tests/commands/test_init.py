"""`pygen init` with no flags on hand-written apps of each catalog shape (tests/fixtures/init):
it finds the catalog among decoys (function locals shaped like definitions, a catalog's own
parts), writes the config, and `gen` then `check` pass on it.

Each fixture's expected.json names the nodes file, the definitions and the node count, and
whether `gen` and `check` must pass under --strict."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "init"
SHAPES = sorted(p.name for p in FIXTURES.iterdir() if (p / "expected.json").is_file())


def pygen(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "pygen", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


# Each shape is a fresh init, gen and check in subprocesses (10-23 s CPU each, ~200 s in
# all): the quick loop keeps one shape, `make test` runs every one.
QUICK_SHAPE = "registrations-logicflow"


@pytest.mark.parametrize("shape", [
    s if s == QUICK_SHAPE else pytest.param(s, marks=pytest.mark.slow) for s in SHAPES])
def test_init_picks_the_catalog_and_gen_check_pass(shape: str, tmp_path: Path) -> None:
    root = tmp_path / shape
    shutil.copytree(FIXTURES / shape, root, ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / shape / "expected.json").read_text(encoding="utf-8"))
    init = pygen(root, "init")
    assert init.returncode == 0, init.stdout + init.stderr
    assert f"{expected['nodes']} node(s)" in init.stdout.splitlines()[0], init.stdout
    assert "init: reading the TypeScript sources" in init.stderr
    written = tomllib.loads((root / "pygen.toml").read_text(encoding="utf-8"))
    definitions = written.get("definitions", "NODE_DEFINITIONS")
    assert written["nodes_file"] == expected["nodes_file"]
    assert definitions in expected["definitions"], written
    if "zod" in expected:  # the entries' data is a zod schema held in this key
        assert written["zod"] == {"entry_field": expected["zod"]}, written
    for table in ("entry_fields", "field_list"):  # keys told by the entries' values
        if table in expected:
            assert written[table] == expected[table], written
    # strict: a warning (a tsconfig `extends` not found) fails the run.
    strict = ["--strict"] if expected.get("strict") else []
    for command in ("gen", "check"):
        done = pygen(root, command, "-q", *strict)
        assert done.returncode == 0, (command, done.stdout + done.stderr)
    assert len(list((root / "skills" / "nodes").glob("*.md"))) == expected["nodes"] + 1


def test_every_shape_has_a_fixture() -> None:
    assert {"registry-imports", "block-map", "definition-files", "solution-calls",
            "workspace-extends-pnpm", "workspace-extends-rush", "component-classes",
            "node-type-classes", "builder-calls", "solution-exclude", "zod-builder",
            "keyed-by-values", "descriptor-fields", "registrations-litegraph",
            "registrations-logicflow", "registrations-x6",
            "registrations-react-flow", "descriptor-records",
            "registrations-node-red", "registrations-node-red-packages",
            "registrations-node-red-html"} <= set(SHAPES)


@pytest.mark.slow
def test_node_red_packages_give_typed_fields_and_their_defaults_data(tmp_path: Path) -> None:
    # One package per node, the root package.json listing them, the editor's `RED` a global
    # (no import): the listed packages' registrations are the catalog (not the generator's
    # template package beside them), `registerType<XProps>` types the data and `defaults`'
    # `value`s are the default data, in a .ts editor file or a .html file's script block.
    root = tmp_path / "porch"
    shutil.copytree(FIXTURES / "registrations-node-red-packages", root,
                    ignore=shutil.ignore_patterns("expected.json"))
    init = pygen(root, "init")
    assert init.returncode == 0, init.stdout + init.stderr
    assert ("5 node(s): motion-hold, porch-chime, porch-hub, porch-lamp, scene-pick; "
            "data types: 4 cast, 1 inferred") in init.stdout.splitlines()[0], init.stdout
    assert pygen(root, "gen", "-q").returncode == 0
    assert sorted(p.stem for p in (root / "skills" / "nodes").glob("*.md")) == [
        "_README", "motion-hold", "porch-chime", "porch-hub", "porch-lamp", "scene-pick"]
    lamp = (root / "skills" / "nodes" / "porch-lamp.md").read_text(encoding="utf-8")
    assert "**Required data fields** (from `PorchLampProps`):" in lamp
    assert "- `brightness: number`" in lamp and "- `hub: string`" in lamp
    said = "**Default data** (from `registrations:node-red`):"
    assert said in lamp, lamp
    data = lamp.split(said)[1]
    assert json.loads(data.split("```json")[1].split("```")[0]) == {
        "name": "", "brightness": 80, "hub": ""}
    scene = (root / "skills" / "nodes" / "scene-pick.md").read_text(encoding="utf-8")
    assert '- `scene: "evening" | "away" | "party"`' in scene
    assert '"scene": "evening"' in scene
    # porch-chime's editor side is a .html file's script block: its defaults are read there
    # (not the dialog template's or the help's text), and an edit to them is drift.
    chime = (root / "skills" / "nodes" / "porch-chime.md").read_text(encoding="utf-8")
    assert "- **Category:** output" in chime and '- `tune?: string` — default `"ding-dong"`' \
        in chime, chime
    assert pygen(root, "check", "-q").returncode == 0
    html = root / "packages" / "porch-chime" / "src" / "porch-chime.html"
    html.write_text(html.read_text(encoding="utf-8").replace('"ding-dong"', '"westminster"'),
                    encoding="utf-8")
    drift = pygen(root, "check", "-q")
    assert drift.returncode == 1 and "stale: skills/nodes/porch-chime.md" in drift.stderr, \
        drift.stdout + drift.stderr


@pytest.mark.slow
def test_a_plain_javascript_node_red_package_reads_its_html_editor_side(
        tmp_path: Path) -> None:
    # The usual Node-RED package: `module.exports = function (RED) {…}` beside a .html file
    # whose script block registers the editor side; no TypeScript, no tsconfig.
    root = tmp_path / "harbor"
    shutil.copytree(FIXTURES / "registrations-node-red-html", root,
                    ignore=shutil.ignore_patterns("expected.json"))
    init = pygen(root, "init")
    assert init.returncode == 0, init.stdout + init.stderr
    assert "3 node(s): buoy-read, harbor-alert, tide-gauge; data types: 3 inferred" \
        in init.stdout.splitlines()[0], init.stdout
    assert pygen(root, "gen", "-q").returncode == 0
    alert = (root / "skills" / "nodes" / "harbor-alert.md").read_text(encoding="utf-8")
    assert "- **Category:** output" in alert and "- **Outputs (source handles):** none" in alert
    assert "- `silent?: boolean` — default `false`" in alert, alert
    data = alert.split("**Default data** (from `registrations:node-red`):")[1]
    assert json.loads(data.split("```json")[1].split("```")[0]) == {
        "name": "", "level": 3, "silent": False}
    assert pygen(root, "check", "-q").returncode == 0


@pytest.mark.slow
def test_a_record_of_descriptors_types_the_skills_fields(tmp_path: Path) -> None:
    # `settings: {to: {type, label, required}}`: each key names its field, its type word
    # says the JSON type, a `select`'s options become the enum.
    root = tmp_path / "records"
    shutil.copytree(FIXTURES / "descriptor-records", root,
                    ignore=shutil.ignore_patterns("expected.json"))
    assert pygen(root, "init").returncode == 0
    assert pygen(root, "gen", "-q").returncode == 0
    mail = (root / "skills" / "nodes" / "send-mail.md").read_text(encoding="utf-8")
    assert "- `to: string` — To" in mail and "- `body: string` — Body" in mail
    row = (root / "skills" / "nodes" / "pick-row.md").read_text(encoding="utf-8")
    assert '- `order?: "first" | "last"` — default `"first"`' in row
    assert pygen(root, "check", "-q").returncode == 0
