"""The package layout: stage folders in flow order, no import from a later stage, small units."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pygen"
# The flow, in order. `protocol` and `commands` sit beside it; top-level modules serve all.
STAGES = ("extract", "tools", "skills", "gate", "validation", "server")
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
