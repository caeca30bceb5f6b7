"""js/lib/registries.json as Python reads it (init proposes from it, the cache lists what it
may read), and the packages a library's package.json map declares: Node-RED's
`"node-red": {"nodes": {"planner": "packages/planner/build/planner.js"}}` is the editor's own
list of the files that hold its nodes, so the packages holding those files are the ones whose
registrations are read, whatever tsconfig each package has. The extractor reads the same map
the same way (js/lib/packagemap.cjs `declaredFolders`)."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from pygen.extract.noderuntime import CHECKOUT_DIR, PACKAGE_DIR

# The checkout's data, else the copy the wheel carries beside its bundled extractor.
_DATA = ("js/lib/registries.json", "_js/lib/registries.json")
# Folders never walked for package.json files: installed packages declare their own nodes.
_SKIPPED = frozenset({"node_modules", ".git"})
# A package.json larger than this is no hand-written manifest.
_MAX_MANIFEST = 1 << 20


def data_file() -> Path:
    for base, name in ((CHECKOUT_DIR, _DATA[0]), (PACKAGE_DIR, _DATA[1])):
        if (base / name).is_file():
            return base / name
    return CHECKOUT_DIR / _DATA[0]


@functools.cache
def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(data_file().read_text(encoding="utf-8"))
    return data


def package_map(library: str) -> str | None:
    """The dotted package.json key whose object maps names to a library's node files."""
    for lib in raw()["libraries"]:
        if lib["library"] == library:
            key = lib.get("package_map")
            return key if isinstance(key, str) else None
    return None


def declared_folders(root: Path, key: str) -> tuple[Path, ...]:
    """The package folders holding the files that the project's package.json files list
    under `key` (a dotted path to an object of relative paths): for each listed file, the
    nearest folder above it (not above the manifest's) that has a package.json. A listed file
    need not exist (`build/planner.js` is built from the package's sources)."""
    found: set[Path] = set()
    root = root.resolve()
    for manifest in _manifests(root):
        listed = _at(_read(manifest), key)
        if not isinstance(listed, dict):
            continue
        for value in listed.values():
            if isinstance(value, str) and value:
                found.add(_package_of(manifest.parent / value, manifest.parent))
    return tuple(sorted(found))


def _manifests(root: Path) -> list[Path]:
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED and not d.startswith("."))
        if "package.json" in files:
            out.append(Path(folder) / "package.json")
    return out


def _read(manifest: Path) -> Any:
    try:
        if manifest.stat().st_size > _MAX_MANIFEST:
            return None
        return json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None  # not a manifest anyone's tool reads: it declares nothing


def _at(data: Any, key: str) -> Any:
    for part in key.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def _package_of(listed: Path, top: Path) -> Path:
    folder = Path(os.path.normpath(listed)).parent
    # A path leaving its manifest's folder declares no package of this project.
    if not folder.is_relative_to(top):
        return top
    while folder != top and not (folder / "package.json").is_file():
        folder = folder.parent
    return folder
