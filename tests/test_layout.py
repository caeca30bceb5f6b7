"""The package layout: stage folders in flow order, no import from a later stage, small units."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pygen"
JS = PACKAGE.parent / "js"
REQUIRE = re.compile(r"""\brequire\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""")
# The flow, in order. `protocol` and `commands` sit beside it; top-level modules serve all.
STAGES = ("extract", "tools", "schema", "skills", "gate", "validation", "server")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 40


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def folder_of(path: Path) -> str | None:
    """The first folder under pygen/ that holds this module, or None for a top-level one."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else None


def imported(path: Path) -> set[str]:
    """Every `pygen.…` module named by an import anywhere in the file, lazy ones included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "pygen":
                names.update(f"pygen.{alias.name}" for alias in node.names)
            elif node.module.startswith("pygen."):
                names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("pygen."))
    return names


def rank(folder: str | None) -> int | None:
    return STAGES.index(folder) if folder in STAGES else None


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_later_stage(path: Path) -> None:
    own = folder_of(path)
    later = []
    for name in imported(path):
        target = name.split(".")[1]
        if own in STAGES and target in ("commands", "cli"):
            later.append(name)
        if own == "protocol" and (target in STAGES or target == "commands"):
            later.append(name)
        mine, theirs = rank(own), rank(target)
        if mine is not None and theirs is not None and theirs > mine:
            later.append(name)
        if own is None and theirs is not None and path.name not in ("cli.py", "clidoc.py"):
            later.append(name)  # top-level modules serve every stage, so depend on none
    assert not later, f"{path.relative_to(PACKAGE)} imports from a later stage: {sorted(later)}"


def test_every_stage_folder_exists_and_says_its_job() -> None:
    for stage in (*STAGES, "protocol", "commands"):
        init = PACKAGE / stage / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), init


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_are_small_and_say_their_job(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{path.name} is over {MAX_MODULE_LINES}"
    tree = ast.parse(text)
    if path.name != "__main__.py":
        assert ast.get_docstring(tree), f"{path.name} has no docstring saying its job"
    long = [f"{n.name} ({n.end_lineno - n.lineno + 1} lines)" for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.end_lineno is not None and n.end_lineno - n.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path.name}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_commands_return_codes_instead_of_exiting() -> None:
    for path in (PACKAGE / "commands").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "sys.exit" not in text and "ctx.exit" not in text, path.name


def js_modules() -> list[Path]:
    return sorted(JS.rglob("*.cjs"))


@pytest.mark.parametrize("path", js_modules(), ids=lambda p: str(p.relative_to(JS)))
def test_js_modules_are_small(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.name} has {lines} lines, over {MAX_MODULE_LINES}"


def module_file(name: str) -> Path | None:
    """The file of a `pygen.…` module (a package's __init__.py), or None."""
    base = PACKAGE.parent.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_files(path: Path) -> set[Path]:
    """The pygen modules the file imports anywhere (lazy and TYPE_CHECKING ones too), as files;
    `from pygen.x import y` names the module `y` when it is one, else the module `pygen.x`."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = module_file(f"{node.module}.{alias.name}")
                names.append(f"{node.module}.{alias.name}" if sub else node.module)
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found.update(f for n in names if n.startswith("pygen") and (f := module_file(n)))
    return found


def js_required(path: Path) -> set[Path]:
    """The project's modules a JS file requires anywhere, lazy requires too."""
    return {(path.parent / m).resolve() for m in REQUIRE.findall(path.read_text("utf-8"))}


def circles(graph: Mapping[Path, Iterable[Path]]) -> list[list[str]]:
    """Every import circle among modules of one folder, each as the path round it."""
    found: list[list[str]] = []
    done: set[Path] = set()

    def visit(node: Path, trail: list[Path]) -> None:
        if node in trail:
            found.append([p.name for p in trail[trail.index(node):]] + [node.name])
            return
        if node in done:
            return
        for target in sorted(graph.get(node, ())):
            if target.parent == node.parent and target != node:
                visit(target, [*trail, node])
        done.add(node)

    for start in sorted(graph):
        visit(start, [])
    return found


def test_no_import_circle_inside_a_python_folder() -> None:
    graph = {path: imported_files(path) for path in modules()}
    assert not circles(graph), f"import circles: {circles(graph)}"


def test_no_require_circle_inside_a_js_folder() -> None:
    graph = {path.resolve(): js_required(path) for path in js_modules()}
    assert not circles(graph), f"require circles: {circles(graph)}"


def test_the_circle_check_sees_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    a, b = tmp_path / "a.cjs", tmp_path / "b.cjs"
    a.write_text('const b = require("./b.cjs");\n', encoding="utf-8")
    b.write_text('function f() { return require("./a.cjs").x; }\n', encoding="utf-8")
    graph = {p: js_required(p) for p in (a, b)}
    assert circles(graph) == [["a.cjs", "b.cjs", "a.cjs"]]


# Modules whose unit tests do not live yet at the mirrored path. The list may only shrink: a new
# module comes with tests/<folder>/test_<module>.py (top-level ones: tests/test_<module>.py).
UNMIRRORED = frozenset({
    "clidoc.py", "commands/common.py", "commands/schema.py", "connections.py",
    "conventions.py", "errors.py", "extract/infer.py", "extract/noderuntime.py",
    "extract/versioned.py", "gate/block_history.py", "gate/gate.py", "gate/report_format.py",
    "gate/vocabulary.py", "init/configfile.py", "init/forms.py", "init/literals.py",
    "init/toplevel.py", "model.py", "proc.py", "protocol/findings.py",
    "protocol/loading.py", "schema/conditional.py", "schema/fields.py", "server/batch.py",
    "server/http.py", "server/listing.py", "server/synonyms.py", "skills/agent_skills.py",
    "skills/catalog_text.py", "skills/conventions_text.py",
    "skills/gitinfo.py", "skills/plan.py", "skills/saved_examples.py", "skills/wired_example.py",
    "tools/capture.py", "tools/json_source.py", "tools/merge.py", "tools/python_source.py",
    "tools/recorded.py", "tools/source_entry.py", "tools/stdio_source.py",
    "validation/autofix.py", "validation/checks.py", "validation/graph.py",
    "validation/profiles.py", "validation/saved.py", "validation/saved_form.py",
    "validation/schema_errors.py", "validation/unknown_fields.py", "validation/wiring.py",
    "validation/workflow_keys.py",
})


def mirrored_test(path: Path) -> Path:
    """Where the unit tests of a pygen module live: the same folders under tests/."""
    rel = path.relative_to(PACKAGE)
    return PACKAGE.parent / "tests" / rel.parent / f"test_{rel.name}"


def test_tests_mirror_the_package() -> None:
    subjects = [p for p in modules() if p.name not in ("__init__.py", "__main__.py")]
    unmirrored = {p.relative_to(PACKAGE).as_posix() for p in subjects
                  if not mirrored_test(p).is_file()}
    assert sorted(unmirrored - UNMIRRORED) == [], "add tests/<folder>/test_<module>.py"
    assert sorted(UNMIRRORED - unmirrored) == [], "mirrored now: drop from UNMIRRORED"
