"""Every distribution the package imports is declared in pyproject.toml, so a fresh install
has it: a module that arrives only as another package's dependency can vanish when that
package changes its own."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pygen"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
    return roots


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
    return {canonical(m.group(1)) for spec in project["dependencies"]
            if (m := names.match(spec))}


def test_every_third_party_import_is_a_declared_dependency() -> None:
    owners = importlib.metadata.packages_distributions()
    wanted = declared()
    missing: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for root in imported_roots(path):
            if root in sys.stdlib_module_names or root in ("pygen", "__future__"):
                continue
            dists = {canonical(d) for d in owners.get(root, [])}
            if not dists & wanted:
                missing.setdefault(root, str(path.relative_to(ROOT)))
    assert missing == {}, f"imported but not declared in pyproject.toml: {missing}"
