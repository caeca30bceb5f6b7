"""What `pygen init` finds in a project: catalogs (confirmed by the real extractor), the
tsconfig the extractor would use, and an existing skills folder."""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pygen.config import Config, EntryFields, FieldList, Settings, Zod
from pygen.errors import MarkerError, PygenError
from pygen.extract import typenames
from pygen.init import scan, typewords
from pygen.init.literals import Candidate, Dialect
from pygen.skills import markers

SAMPLE = 5
# A folder named for skills (`skills`, `agent-skills`), not one merely mentioning them
# (`skills-pane-adapter`, a UI package).
SKILLS_NAME = re.compile(r"(?i)skills?$")
# Confirming a candidate may take long on a big app (and init runs once): the extractor
# gets this long, and the config keeps it when the catalog took a third of the default.
INIT_TIMEOUT = 600.0
# How n8n names the nodes of a package that lists them (`n8n-nodes-base.github`).
N8N_TYPES = "{package}.{type}"


@dataclass(frozen=True)
class Catalog:
    """A candidate and what the extractor made of it."""

    candidate: Candidate
    settings: Settings
    node_types: tuple[str, ...] = ()
    # How each node's data type was found (`name`, `structural`, `none`…) → count.
    via: tuple[tuple[str, int], ...] = ()
    warnings: int = 0
    error: str | None = None
    # How long the extractor took.
    seconds: float = 0.0
    # Nodes with at least one declared handle.
    handles: int = 0
    # The files the nodes are written in.
    files: tuple[Path, ...] = ()
    # The values telling versions of one type apart (`variant_field`).
    variants: frozenset[str] = frozenset()
    # `field_list.type_words` for the descriptor words the field list's map left unknown.
    type_words: tuple[tuple[str, str], ...] = ()

    def resolution(self) -> str:
        """`12 by name, 1 structural, 2 not found` from the extractor's record."""
        words = {"none": "not found", "name": "by name", "config": "by config"}
        return ", ".join(f"{count} {words.get(via, via)}" for via, count in self.via) or "-"


@dataclass(frozen=True)
class SkillsFolder:
    path: Path
    node_files: int
    block_ids: tuple[str, ...]


def relative(path: Path, root: Path) -> str:
    return path.resolve().relative_to(root.resolve()).as_posix()


def spec(candidate: Candidate, nodes_file: Path, root: Path) -> str:
    """The `definitions` item naming `candidate` when `nodes_file` is the nodes file."""
    if candidate.form in ("call", "class", "glob", "registrations") \
            or candidate.path == nodes_file:
        return candidate.name
    return f"{relative(candidate.path, root)}:{candidate.name}"


def combined(found: list[Candidate], root: Path) -> Candidate:
    """Several candidates as one catalog: the list form `definitions = [...]`, anchored in
    the first candidate's file."""
    first = found[0]
    names = ", ".join(spec(c, first.path, root) for c in found)
    return Candidate(names, first.path, first.line, "list", sum(c.entries for c in found),
                     next((c.type_key for c in found if c.type_key), None))


def settings_for(candidate: Candidate, root: Path) -> Settings:
    names: str | list[str] = candidate.name
    if candidate.form == "list":
        names = candidate.name.split(", ")
    keys: dict[str, object] = {"nodes_file": relative(candidate.path, root),
                               "definitions": names, **dialect_keys(candidate)}
    said = candidate.dialect or Dialect()
    if said.preset == "n8n" and typenames.registers_n8n_nodes(candidate.path, root):
        # The package.json lists the nodes n8n loads, which it names `<package>.<name>`.
        keys["type_template"] = N8N_TYPES
    tsconfig = scan.nearest_tsconfig(candidate.path, root)
    if tsconfig is not None and tsconfig.name != "tsconfig.json":
        keys["tsconfig"] = relative(tsconfig, root)  # the extractor finds tsconfig.json only
    return Settings.model_validate(keys)


def dialect_keys(candidate: Candidate) -> dict[str, object]:
    """The config keys the candidate's dialect sets: entry fields, field list, variants."""
    said = candidate.dialect or Dialect()
    fields: dict[str, object] = {"type": candidate.type_key or "type"}
    fields |= {k: v for k, v in (("label", said.label), ("category", said.category),
                                 ("default_data", said.default_data)) if v}
    fields |= {k: False for k, off in (("inputs", said.no_inputs),
                                        ("outputs", said.no_outputs)) if off}
    keys: dict[str, object] = {"entry_fields": EntryFields.model_validate(fields)}
    if said.field_list:
        keys["field_list"] = FieldList.model_validate(
            {"entry_field": said.field_list, "preset": said.preset, **dict(said.field_keys)})
    if said.variant_field:
        keys["variant_field"] = said.variant_field
    if said.zod:
        keys["zod"] = Zod(entry_field=said.zod)
    return keys


def confirm(candidate: Candidate, root: Path, settings: Settings | None = None) -> Catalog:
    """Run the extractor on the candidate: node types, how their data types resolve.

    With the `settings` of the config about to be written, the extraction goes through the
    cache, so the `pygen gen` that follows `init` starts no Node process."""
    from pygen.extract import cache, runner

    extract = cache.extract if settings is not None else runner.extract
    settings = settings or settings_for(candidate, root).model_copy(
        update={"extract_timeout": INIT_TIMEOUT})
    started = time.perf_counter()
    try:
        extraction = extract(Config(settings=settings, source=None, root=root.resolve()))
    except PygenError as exc:
        return Catalog(candidate, settings, error=str(exc),
                       seconds=time.perf_counter() - started)
    via = Counter(node.data_type.via for node in extraction.nodes)
    return Catalog(candidate, settings, tuple(n.type for n in extraction.nodes),
                   tuple(sorted(via.items(), key=lambda item: (-item[1], item[0]))),
                   len(extraction.diagnostics), seconds=time.perf_counter() - started,
                   handles=sum(1 for n in extraction.nodes if n.inputs or n.outputs),
                   files=tuple(sorted({root / n.source.file for n in extraction.nodes})),
                   variants=frozenset(v for n in extraction.nodes
                                      for v in (n.variant, *n.variant_values) if v),
                   type_words=tuple(typewords.propose(extraction.nodes).items()))


def confirm_written(candidate: Candidate, root: Path, settings: Settings,
                    ranked: Catalog | None) -> tuple[Settings, Catalog]:
    """Confirm the chosen candidate with the config about to be written (through the cache,
    for the `gen` that follows); with INIT_TIMEOUT kept in it when the extractor needs more
    than a third of the default (the ranking showed it, or the default ran out)."""
    default = Settings.model_fields["extract_timeout"].default
    if ranked is not None and ranked.seconds > default / 3:
        settings = settings.model_copy(update={"extract_timeout": INIT_TIMEOUT})
    catalog = confirm(candidate, root, settings)
    if catalog.error and "timed out" in catalog.error and settings.extract_timeout < INIT_TIMEOUT:
        settings = settings.model_copy(update={"extract_timeout": INIT_TIMEOUT})
        catalog = confirm(candidate, root, settings)
    if catalog.type_words and settings.field_list is not None:
        # The words the map left unknown, placed by their names (pygen/init/typewords.py).
        words = {**dict(catalog.type_words), **(settings.field_list.type_words or {})}
        settings = settings.model_copy(update={"field_list": settings.field_list.model_copy(
            update={"type_words": words})})
    return settings, catalog


CacheState = dict[Path, bytes] | None


def cache_state(root: Path) -> CacheState:
    """The extraction cache's files and their bytes (None when there is no cache folder)."""
    from pygen.extract import cache

    folder = root / cache.DIR
    if not folder.is_dir():
        return None
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def restore_cache(root: Path, state: CacheState) -> None:
    """Put the extraction cache back as `cache_state` found it."""
    import shutil

    from pygen.extract import cache

    folder = root / cache.DIR
    if state is None:
        shutil.rmtree(folder, ignore_errors=True)
        return
    for path in [p for p in folder.rglob("*") if p.is_file() and p not in state]:
        path.unlink()
    for path, data in state.items():
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)


def skills_folders(root: Path) -> list[SkillsFolder]:
    """Folders that hold skill files: a `nodes/` folder of Markdown, a workflow-editor.md, or
    Markdown in a folder named like skills; the one with the most node files first."""
    found = []
    folders = {p.parent for p in scan.project_files(root) if p.suffix == ".md"}
    # A skills folder whose Markdown is all under nodes/ is still one.
    folders |= {p.parent for p in folders if p.name == "nodes"}
    for folder in sorted(folders):
        if folder.name == "nodes":
            continue
        nodes = sorted((folder / "nodes").glob("*.md")) if (folder / "nodes").is_dir() else []
        markdown = [*folder.glob("*.md"), *nodes]
        ids = sorted({block_id for p in markdown for block_id in _block_ids(p)})
        # A `nodes/` folder of Markdown is a skills folder once pygen wrote in it (its
        # blocks); a project's own docs/nodes/ is not.
        if (nodes and ids) or (folder / "workflow-editor.md").is_file() \
                or SKILLS_NAME.search(folder.name):
            found.append(SkillsFolder(folder, len(nodes), tuple(ids)))
    return sorted(found, key=lambda f: (-f.node_files, -len(f.block_ids), len(f.path.parts),
                                        str(f.path)))


def _block_ids(path: Path) -> set[str]:
    """The file's AUTO-GEN block ids, read as `gen` reads them (anchored, fence-aware)."""
    try:
        return {block.id for block in markers.parse(read_text(path), str(path))}
    except MarkerError:
        return set()


def read_text(path: Path) -> str:
    """The file's text, or nothing when it cannot be read as UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def candidates(root: Path, definitions: str | None, nodes_file: Path | None) -> list[Candidate]:
    """The catalogs to offer, narrowed by what the user said; a named constant the scan
    did not recognise is taken on the user's word (the extractor then has its say)."""
    found = scan.scan(root)
    if nodes_file is not None:
        found = [c for c in found if c.path.resolve() == nodes_file.resolve()]
    if definitions is not None:
        found = [c for c in found if c.name == definitions]
    if not found and definitions is not None and nodes_file is not None:
        found = [Candidate(definitions, nodes_file, 1, "array", 0, None)]
    return found


def survey_skills(root: Path, skills_dir: Path | None
                  ) -> tuple[SkillsFolder | None, list[Path], list[SkillsFolder]]:
    """The skills folder to use (the user's, else the best found that pygen may adopt), the
    other adoptable ones, and the ones left alone. pygen adopts a folder only when its files
    carry AUTO-GEN blocks (pygen's markers, as a generator of its format writes them); one
    without (a hand-written Agent Skill, docs in a folder named like skills) is not pygen's."""
    found = skills_folders(root)
    if skills_dir is not None:
        chosen = next((f for f in found if f.path.resolve() == skills_dir.resolve()), None)
        return chosen or SkillsFolder(skills_dir, 0, ()), [], []
    adoptable = [f for f in found if f.block_ids]
    left = [f for f in found if not f.block_ids]
    # skills/ holding anything but pygen's (an Agent Skill's SKILL.md in a subfolder) is
    # taken: gen must not write into it.
    default = root / "skills"
    if default.is_dir() and default.resolve() not in {f.path.resolve() for f in found} \
            and any(p.is_file() for p in default.rglob("*")):
        left.append(SkillsFolder(default, 0, ()))
    return (adoptable[0] if adoptable else None, [f.path for f in adoptable[1:]], left)


# Where new skills go when a folder left alone already has the default name.
BESIDE = "pygen-skills"


def new_skills_dir(root: Path, left: list[SkillsFolder]) -> str:
    """`skills`, or a folder beside the one left alone when that one is `skills`."""
    taken = {f.path.resolve() for f in left}
    return BESIDE if (root / "skills").resolve() in taken or (root / "skills").is_file() \
        else "skills"
