"""Node types as saved workflows name them (config `type_template`).

n8n registers a node under its package's name and the node's own (`n8n-nodes-base.github`),
while the class declares `name: 'github'`. With `type_template = "{package}.{type}"` every
node's type becomes that: `{type}` is the type the code declares, `{package}` the `name` in
the nearest package.json above the file that declares the node (the package it ships in).
Everything after extraction (skills, the schema document, validation) sees the full type.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from pygen import jsonread
from pygen.config import Config
from pygen.jsonread import JsonInputError
from pygen.model import Diagnostic, Handle, NodeDef, NodeSources


def full_type(template: str, node_type: str, package: str | None) -> str:
    """The type a workflow names: `template` with the declared type and the package name."""
    return template.format(type=node_type, package=package or "")


Located = dict[str, NodeSources]


def with_full_types(nodes: tuple[NodeDef, ...], diagnostics: tuple[Diagnostic, ...],
                    locations: Located, config: Config,
                    ) -> tuple[tuple[NodeDef, ...], tuple[Diagnostic, ...], Located]:
    """The nodes, their diagnostics and places with every type written by `type_template`
    (unchanged when the key is not set). A node whose package has no name keeps its declared
    type, with one warning."""
    template = config.settings.type_template
    if not template:
        return nodes, diagnostics, locations
    names: dict[str, str] = {}
    notes: list[Diagnostic] = []
    packages = _Packages(config.root)
    for node in nodes:
        if node.type in names:
            continue  # variants of one type keep one name, the first entry's
        package = packages.name_above(config.root / node.source.file)
        if package is None and "{package}" in template:
            notes.append(_no_package(node))
            names[node.type] = node.type
            continue
        names[node.type] = full_type(template, node.type, package)
    return (tuple(_renamed(node, names) for node in nodes),
            (*(d.model_copy(update={"node_type": names.get(d.node_type, d.node_type)})
               if d.node_type else d for d in diagnostics), *notes),
            {names.get(t, t): places for t, places in locations.items()})


def _no_package(node: NodeDef) -> Diagnostic:
    return Diagnostic(
        level="warning", kind="type-template", node_type=node.type, file=node.source.file,
        line=node.source.line, message=f"node '{node.type}': no package.json with a 'name' "
        "above its file, so type_template's {package} is unknown; the node keeps the type "
        "its code declares")


def _renamed(node: NodeDef, names: dict[str, str]) -> NodeDef:
    """The node under its full type; connection rules naming a node type follow it."""
    def rule(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(names.get(v, v) for v in values)

    def handles(items: tuple[Handle, ...]) -> tuple[Handle, ...]:
        return tuple(h.model_copy(update={"accepts": rule(h.accepts),
                                          "connects_to": rule(h.connects_to)}) for h in items)

    return node.model_copy(update={
        "type": names.get(node.type, node.type), "connects_to": rule(node.connects_to),
        "inputs": handles(node.inputs), "outputs": handles(node.outputs)})


class _Packages:
    """The `name` of the nearest package.json above a file, up to the project's folder
    (a manifest above the project is another project's); each folder looked at once."""

    def __init__(self, root: Path) -> None:
        self._root = root.resolve()
        self._seen: dict[Path, str | None] = {}
        # Every package.json looked for, there or not: a change in any renames nodes.
        self.consulted: set[Path] = set()

    def name_above(self, file: Path) -> str | None:
        folder = file.resolve().parent
        passed: list[Path] = []
        name: str | None = None
        while True:
            if folder in self._seen:
                name = self._seen[folder]
                break
            passed.append(folder)
            self.consulted.add(folder / "package.json")
            name = _package_name(folder / "package.json")
            if name is not None or self._root.is_relative_to(folder):
                break
            folder = folder.parent
        for seen in passed:
            self._seen[seen] = name
        return name


def manifest_files(files: list[Path], root: Path) -> list[Path]:
    """The package.json files (there or not) that name the packages of `files`: inputs of
    the types, so a renamed package is a change `check` sees."""
    packages = _Packages(root)
    for file in files:
        packages.name_above(file)
    return sorted(packages.consulted)


def _package_name(path: Path) -> str | None:
    """The manifest's string `name`; a missing or unreadable manifest names nothing."""
    name = (manifest(path) or {}).get("name")
    return name if isinstance(name, str) and name else None


def manifest(path: Path) -> dict[str, object] | None:
    """A package.json as an object, or None when missing or unreadable (however it is broken:
    a manifest is read from the user's tree)."""
    if not path.is_file():
        return None
    try:
        data = jsonread.load_file(path)
    except JsonInputError:
        return None
    return data if isinstance(data, dict) else None


def registers_n8n_nodes(file: Path, root: Path) -> bool:
    """Whether the nearest package.json above `file` (inside `root`) lists the nodes n8n
    loads (`"n8n": {"nodes": [...]}`), `file` not being one of its credentials (listed
    beside them): n8n then registers each node as `<package>.<name>`."""
    top = root.resolve()
    for folder in file.resolve().parents:
        found = manifest(folder / "package.json")
        if found is not None:
            n8n = found.get("n8n")
            n8n = n8n if isinstance(n8n, dict) else {}
            return bool(_stems(n8n.get("nodes"))) and isinstance(found.get("name"), str) \
                and file.stem not in _stems(n8n.get("credentials"))
        if top.is_relative_to(folder):
            return False
    return False


def _stems(listed: object) -> set[str]:
    """`A.node` for `dist/nodes/A/A.node.js`: the module a listed build output comes from."""
    items = listed if isinstance(listed, list) else []
    return {PurePosixPath(p).stem for p in items if isinstance(p, str)}
