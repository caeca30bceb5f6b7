"""Hostile inputs through the real CLI: each is refused in one line, nothing is changed.

For every item: exit code 1 or 2, one line on stderr naming the file (and its line or JSON
path), no traceback, never "internal error", and no file under the project changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from studio_project import studio_config

REPO = Path(__file__).resolve().parents[1]
PROTOCOL = REPO / "tests" / "fixtures" / "protocol"
WORKFLOW = b'{"nodes": [{"id": "a", "type": "text-prompt", "data": {}}], "edges": []}'

# One JSON body per way a JSON input can be hostile.
BODIES: dict[str, bytes] = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "nan": b'{"nodes": [], "edges": [], "x": NaN}',
    "infinity": b'{"nodes": [], "edges": [], "x": [Infinity]}',
    "duplicate-key": b'{"nodes": [], "nodes": [], "edges": []}',
    "long-integer": b'{"nodes": [], "edges": [], "x": ' + b"7" * 5000 + b"}",
    "lone-surrogate": b'{"nodes": [{"id": "\\ud800"}], "edges": []}',
    "not-utf8": b'{"nodes": [], "edges": [], "x": "caf\xe9"}',
}
WHERE = {"deep": "nested deeper than 512", "nan": "$.x: NaN", "infinity": "$.x[0]: Infinity",
         "duplicate-key": 'duplicate key "nodes"', "long-integer": "$.x: an integer of 5000",
         "lone-surrogate": "$.nodes[0].id: a lone surrogate", "not-utf8": ":1: not UTF-8"}


@dataclass(frozen=True)
class Case:
    argv: list[str]
    names: str  # the file the one line must name, with its line or path when it has one
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes = b""
    setup: Callable[[Path], None] | None = None


def _snapshot(root: Path) -> dict[str, object]:
    """Every file, link and folder under root; pygen's own local cache may change."""
    state: dict[str, object] = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".pygen-cache"]
        for name in dirs + names:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                state[rel] = ("link", os.readlink(path))
            elif path.is_file():
                state[rel] = (path.read_bytes(), path.stat().st_mode)
            else:
                state[rel] = "dir"
    return state


def run_pygen(project: Path, argv: list[str], stdin: bytes = b"",
              timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "400"}
    return subprocess.run([sys.executable, "-m", "pygen", *argv], cwd=project, input=stdin,
                          capture_output=True, env=env, timeout=timeout, check=False)


def assert_refused(project: Path, case: Case) -> str:
    """Run the case and check the promise; returns the one line for further checks."""
    for name, data in case.files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes(data)
    if case.setup:
        case.setup(project)
    before = _snapshot(project)
    done = run_pygen(project, case.argv, case.stdin)
    err = done.stderr.decode("utf-8", errors="replace")
    lines = [line for line in err.splitlines() if line.strip()]
    assert done.returncode in (1, 2), (done.returncode, err, done.stdout[:500])
    assert "Traceback" not in err and "internal error" not in err.lower(), err
    assert "internal error" not in done.stdout.decode("utf-8", errors="replace").lower()
    assert len(lines) == 1, err
    assert case.names in lines[0], (case.names, lines[0])
    assert _snapshot(project) == before
    return lines[0]


@pytest.fixture
def project(studio: Path) -> Path:
    shutil.copyfile(REPO / "skills" / "schemas" / "nodes.schema.json",
                    studio / "nodes.schema.json")
    shutil.copyfile(REPO / "skills" / "protocol" / "registry.toml", studio / "registry.toml")
    shutil.copyfile(PROTOCOL / "scenes.json", studio / "scenes.json")
    shutil.copyfile(PROTOCOL / "patches.json", studio / "patches.json")
    for name in ("request.json", "result.json"):
        shutil.copyfile(PROTOCOL / "ai-short-film-breakdown" / name, studio / name)
    return studio


def _json_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for kind, body in BODIES.items():
        cases[f"validate-workflow-file-{kind}"] = Case(
            ["validate-workflow", "in.json"], "in.json",
            {"in.json": body})
        cases[f"validate-workflow-stdin-{kind}"] = Case(
            ["validate-workflow", "-"], "<stdin>", stdin=body)
        cases[f"schemas-file-{kind}"] = Case(
            ["validate-workflow", "--schemas", "bad.schema.json", "w.json"], "bad.schema.json",
            {"bad.schema.json": body, "w.json": WORKFLOW})
        protocol = ["protocol", "--registry", "registry.toml"]
        cases[f"protocol-plan-{kind}"] = Case([*protocol, "plan", "in.json"], "in.json",
                                              {"in.json": body})
        cases[f"protocol-plan-stdin-{kind}"] = Case([*protocol, "plan", "-"], "<stdin>",
                                                    stdin=body)
        cases[f"protocol-validate-{kind}"] = Case(
            [*protocol, "validate", "result.json", "--request", "request.json", "--scenes",
             "in.json"], "in.json", {"in.json": body})
        cases[f"protocol-apply-{kind}"] = Case(
            ["protocol", "apply", "in.json", "patches.json"], "in.json", {"in.json": body})
    return cases


JSON_CASES = _json_cases()


@pytest.mark.matrix
@pytest.mark.parametrize("name", sorted(JSON_CASES))
def test_every_json_input_refuses_hostile_json_in_one_line(project: Path, name: str) -> None:
    case = JSON_CASES[name]
    line = assert_refused(project, case)
    kind = next(k for k in BODIES if name.endswith(k))
    assert WHERE[kind] in line


def _config(body: bytes, name: str = "pygen.toml") -> Callable[[Path], None]:
    def write(project: Path) -> None:
        (project / "pygen.toml").unlink()
        (project / name).write_bytes(b'nodes_file = "examples/studio/src/types/nodes.ts"\n'
                                     + body if name == "pygen.toml" else body)
    return write


CONFIG_CASES = {
    "tool-not-a-table": Case(["check"], "pyproject.toml", setup=_config(
        b'tool = 5\n[tool2]\n', "pyproject.toml")),
    "tools-not-a-list": Case(["check"], "pygen.toml: key 'tools'", setup=_config(b"tools = 5\n")),
    "timeout-nan": Case(["check"], "pygen.toml: key 'extract_timeout'",
                        setup=_config(b"extract_timeout = nan\n")),
    "timeout-negative": Case(["gen"], "pygen.toml: key 'extract_timeout'",
                             setup=_config(b"extract_timeout = -1\n")),
    "not-utf8": Case(["check"], "pygen.toml:2: not UTF-8", setup=_config(b"# caf\xe9\n")),
    "deep-toml": Case(["check"], "pygen.toml: invalid TOML: nested too deeply",
                      setup=_config(b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n")),
    "registry-deep-toml": Case(["protocol", "--registry", "reg.toml", "plan", "request.json"],
                               "reg.toml: invalid TOML: nested too deeply",
                               {"reg.toml": b"x = " + b"{a=" * 3000 + b"1" + b"}" * 3000}),
    "registry-not-utf8": Case(["protocol", "--registry", "reg.toml", "plan", "request.json"],
                              "reg.toml:1: not UTF-8", {"reg.toml": b"# \xff\n"}),
}


def _linked_skills_dir(project: Path) -> None:
    (project.parent / "elsewhere").mkdir(exist_ok=True)
    (project / "skills2").symlink_to(project.parent / "elsewhere")


CONFIG_CASES["skills-dir-linked-outside"] = Case(
    ["gen", "--skills-dir", "skills2"], "skills2: skills_dir is a symbolic link to",
    setup=_linked_skills_dir)


@pytest.mark.matrix
@pytest.mark.parametrize("name", sorted(CONFIG_CASES))
def test_config_and_registry_mistakes_are_one_line(project: Path, name: str) -> None:
    assert_refused(project, CONFIG_CASES[name])


def test_a_dangling_ref_in_the_schema_file_is_one_line(project: Path) -> None:
    schema = json.loads((project / "nodes.schema.json").read_text())
    first = next(iter(schema["$defs"]))
    schema["$defs"][first] = {"$ref": "#/$defs/nowhere"}
    case = Case(["validate-workflow", "--schemas", "s.json", "w.json"], "s.json",
                {"s.json": json.dumps(schema).encode(),
                 "w.json": WORKFLOW.replace(b"text-prompt", first.encode())})
    assert "nowhere" in assert_refused(project, case)


def test_echoed_input_cannot_drive_the_terminal(project: Path) -> None:
    request = json.loads((project / "request.json").read_text())
    request["requestId"] = "\x1b]0;owned\x07\x1b[2J"
    result = json.loads((project / "result.json").read_text())
    (project / "req.json").write_text(json.dumps(request))
    done = run_pygen(project, ["protocol", "--registry", "registry.toml", "validate",
                               "result.json", "--request", "req.json", "--scenes",
                               "scenes.json"])
    assert result["requestId"] != request["requestId"]
    assert done.returncode == 1
    assert b"\x1b" not in done.stdout + done.stderr and b"\x07" not in done.stdout
    assert b"\\x1b]0;owned\\x07" in done.stdout


SECRET = b"CI_TOKEN=s3cr3t-value\n"


def _link(name: str, folder: bool = False) -> Callable[[Path], None]:
    """skills/<name> becomes a link to a secret outside the project (a folder holding it)."""
    def plant(project: Path) -> None:
        outside = project.parent / "outside"
        outside.mkdir(exist_ok=True)
        (outside / "environ").write_bytes(SECRET)
        (outside / "list.md").write_bytes(SECRET)
        link = project / "skills" / name
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_dir() and not link.is_symlink():
            shutil.rmtree(link)
        else:
            link.unlink(missing_ok=True)
        link.symlink_to(outside if folder else outside / "environ")
    return plant


LINKS = {"node-file": ("nodes/list.md", False), "workflow-editor": ("workflow-editor.md", False),
         "nodes-folder": ("nodes", True), "schema-file": ("schemas/nodes.schema.json", False)}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The studio example with its skills generated once; each test copies it."""
    root = tmp_path_factory.mktemp("generated") / "studio"
    shutil.copytree(REPO / "examples" / "studio", root / "examples" / "studio",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "skills").mkdir()
    shutil.copyfile(REPO / "skills" / "workflow-editor.md", root / "skills" / "workflow-editor.md")
    (root / "pygen.toml").write_text(studio_config())
    done = run_pygen(root, ["gen", "-q"])
    assert done.returncode == 0, done.stderr
    return root


@pytest.mark.matrix
@pytest.mark.parametrize("command", ["check", "gen", "doctor"])
@pytest.mark.parametrize("where", sorted(LINKS))
def test_no_command_follows_a_link_in_skills_dir(generated: Path, tmp_path: Path,
                                                 command: str, where: str) -> None:
    project = tmp_path / "studio"
    shutil.copytree(generated, project, symlinks=True)
    name, folder = LINKS[where]
    line = assert_refused(project, Case([command], f"skills/{name}: is a symbolic link",
                                        setup=_link(name, folder)))
    assert "s3cr3t" not in line
    assert (tmp_path / "outside" / "environ").read_bytes() == SECRET


DEEP_ARRAY = "[" * 900 + "1" + "]" * 900


@pytest.mark.matrix
@pytest.mark.parametrize(("name", "where"), [("nodes.ts", 4), ("deep.ts", 3)])
def test_an_array_nested_900_deep_is_one_line_at_its_file_and_line(
        tmp_path: Path, name: str, where: int) -> None:
    """TypeScript's parser runs out of stack on it; the error names the nesting."""
    project = tmp_path / "app"
    (project / "src").mkdir(parents=True)
    nested = f"// levels\n\nexport const NESTED = {DEEP_ARRAY};\n"
    (project / "src" / "deep.ts").write_text(nested)
    nodes = ('import { NESTED } from "./deep";\n\n'
             'export const NODE_DEFINITIONS = [\n'
             f'  {{ type: "note", label: "Note", inputs: [], outputs: [], defaultData: '
             f'{{ text: "", rows: {DEEP_ARRAY if name == "nodes.ts" else "NESTED"} }} }},\n'
             '];\n\nexport interface NoteData { text: string; rows: unknown }\n')
    (project / "src" / "nodes.ts").write_text(nodes)
    (project / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    for command in (["extract"], ["gen"]):
        line = assert_refused(project, Case(command, f"src/{name}:{where}: "))
        assert "nested too deeply" in line


@pytest.mark.matrix
@pytest.mark.parametrize("kind", ["deep", "nan", "duplicate-key", "long-integer", "not-utf8"])
def test_a_json_tool_source_refuses_hostile_json_in_one_line(generated: Path, tmp_path: Path,
                                                             kind: str) -> None:
    project = tmp_path / "studio"
    shutil.copytree(generated, project, symlinks=True)
    config = studio_config().replace("python:examples.studio.tools.studio_tools:build_server",
                                     "json:tools.json")
    (project / "pygen.toml").write_text(config)
    line = assert_refused(project, Case(["extract"], "tools.json",
                                        {"tools.json": BODIES[kind]}))
    assert WHERE[kind] in line
