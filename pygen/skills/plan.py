"""Plan the skill files of a run: for every file, its current text and the text it should have.

`plan` reads the files the run owns and returns updates; nothing is written until `apply`,
so a run that fails anywhere leaves every file as it was.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pygen import files, layout
from pygen.config import Config
from pygen.errors import ConfigError, PygenError, located
from pygen.model import Model, NodeDef
from pygen.output import visible_line
from pygen.schema.document import entries_with
from pygen.skills import (
    block_digests,
    frontmatter,
    gitinfo,
    markers,
    render,
    render_memo,
    retired_record,
    saved_examples,
    schema_text,
    sections,
)
from pygen.skills.catalog_text import TOOLS_BLOCK, catalog_lines, tools_block
from pygen.skills.neighbours import build_index
from pygen.skills.render_memo import RenderMemo
from pygen.skills.saved_examples import SavedExample
from pygen.skills.schema_text import SchemaTexts
from pygen.tools.merge import load_model

Status = Literal["created", "updated", "unchanged"]


@dataclass(frozen=True)
class FileUpdate:
    path: Path
    old: str | None
    new: str

    @property
    def status(self) -> Status:
        if self.old is None:
            return "created"
        return "unchanged" if self.old == self.new else "updated"


@dataclass(frozen=True)
class Stamp:
    """Frontmatter values written when a file's generated content changes.

    `sha` is called only when some file changes: an unchanged check never asks git.
    """

    generated_at: str
    sha: Callable[[], str]

    def fields(self, **keys: str) -> dict[str, str]:
        return {**keys, "generated_at": self.generated_at, "generated_from": self.sha()}


def update_text(existing: str | None, template: str, blocks: Mapping[str, str],
                order: tuple[str, ...], stamp: Stamp, label: str,
                keys: Mapping[str, str] | None = None) -> str:
    """The file's new text: blocks replaced; frontmatter restamped only if a block changed.

    The block digests (pygen.skills.block_digests) count as generated content: a file whose
    digests are missing or out of date is restamped once, so hand edits can be told apart
    afterwards.
    """
    base = existing if existing is not None else template
    new = markers.replace_blocks(base, blocks, label, order)
    digest = block_digests.field_for(new, blocks, label)
    if existing is not None and new == existing and (
            frontmatter.read(existing).get(block_digests.FIELD) == digest):
        return existing
    return frontmatter.update(new, {**stamp.fields(**(keys or {})), block_digests.FIELD: digest})


def node_path(skills_dir: Path, node_type: str, model: Model) -> Path:
    layout.slugs([node_type])  # a type with no letter or digit names no file
    return layout.node_file(skills_dir, node_type, model.file_stems)


def check_file_names(nodes: Sequence[NodeDef]) -> None:
    """Every node's type can name a skill file (types whose files would be one file are kept
    apart by pygen.layout.file_stems)."""
    for node in nodes:
        where = located(node.source.file, node.source.line, "")
        name = layout.slug(node.key)
        # A control character (a newline) in a type is a slip, never an id an agent can write.
        if any(ord(c) < 32 or ord(c) == 127 for c in node.key) \
                or not layout.SAFE_STEM.fullmatch(name) or ".." in name:
            raise PygenError(f"{where}node type '{visible_line(node.key)}' cannot be used as "
                             "a file name; use letters, digits, '-', '_' and '.'")


def node_paths(skills_dir: Path, model: Model) -> dict[str, Path]:
    """Each node type's skill file, worked out once per run (the planner reads it thrice)."""
    return {node.key: node_path(skills_dir, node.key, model) for node in model.nodes}


def plan_nodes(model: Model, paths: Mapping[str, Path], existing: Mapping[Path, str | None],
               stamp: Stamp, definitions: str,
               real: Mapping[str, Sequence[SavedExample]] | None = None,
               memo: RenderMemo | None = None) -> list[FileUpdate]:
    updates = []
    index = build_index(model)  # once: each node's worked example looks up its neighbours
    for node in model.nodes:
        path = paths[node.key]
        old, mine = existing.get(path), (real or {}).get(node.key, ())
        key = memo.node_key(node, index, definitions, mine) if memo is not None else ""
        if memo is not None and old is not None and memo.unchanged(node.key, key, old):
            # The same inputs as the run that found this very file current: it still is.
            memo.keep(node.key, key, memo.nodes.read[node.key].blocks, old)
            updates.append(FileUpdate(path, old, old))
            continue
        blocks = memo.blocks(node.key, key) if memo is not None else None
        if blocks is None:
            blocks = render.node_blocks(node, definitions, model, mine, index)
        template = render.node_template(node, with_tool=node.tool is not None)
        new = update_text(old, template, blocks, render.NODE_BLOCKS, stamp,
                          str(path), {"node_type": node.key})
        if memo is not None:
            memo.keep(node.key, key, blocks, new)
        updates.append(FileUpdate(path, old, new))
    return updates


def plan_blocks_file(path: Path, existing: Mapping[Path, str | None], template: str,
                     blocks: Mapping[str, str], stamp: Stamp) -> FileUpdate:
    """A hand-written file with generated blocks (the workflow editor, the protocol doc)."""
    new = update_text(existing.get(path), template, blocks, (), stamp, str(path))
    return FileUpdate(path, existing.get(path), new)


def plan_workflow_editor(model: Model, skills_dir: Path, existing: Mapping[Path, str | None],
                         stamp: Stamp) -> FileUpdate:
    return plan_blocks_file(layout.workflow_editor(skills_dir), existing,
                            render.workflow_editor_template(),
                            {render.CATALOG_BLOCK: catalog_lines(model),
                             TOOLS_BLOCK: tools_block(
                                 model, layout.protocol_registry(skills_dir).is_file())}, stamp)


def plan_copy(path: Path, existing: Mapping[Path, str | None], source: FileUpdate) -> FileUpdate:
    """A byte-for-byte copy of another planned file (the packaged fallback)."""
    return FileUpdate(path, existing.get(path), source.new)


def now_stamp(config: Config) -> Stamp:
    """Now, in UTC; SOURCE_DATE_EPOCH pins it for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    seconds = int(epoch) if epoch and epoch.isdigit() else int(time.time())
    return Stamp(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)),
                 functools.cache(lambda: gitinfo.short_sha(config.root)))


@dataclass(frozen=True)
class Plan:
    model: Model
    updates: tuple[FileUpdate, ...]
    # Whether the run keeps its memos (pygen.skills.render_memo, the example checks').
    remember: bool = False

    @property
    def changed(self) -> tuple[FileUpdate, ...]:
        return tuple(u for u in self.updates if u.status != "unchanged")


def existing_texts(paths: list[Path], within: Path | None = None) -> dict[Path, str | None]:
    return {path: files.read_text(path, within) for path in paths}


def plan(config: Config, model: Model | None = None, stamp: Stamp | None = None,
         remember: bool = False) -> Plan:
    """Every file the run owns, with its current and its new text. Reads, never writes
    but, with `remember`, the render memo (pygen.skills.render_memo) it renders with."""
    model = model if model is not None else load_model(config)
    memo = render_memo.load(config, model) if remember else None
    texts = schema_text.load(config) if remember else None
    planned = _plan(config, model, stamp, memo, texts)
    for kept in (memo, texts):
        if kept is not None:
            kept.save()
    return Plan(planned.model, planned.updates, remember)


def _plan(config: Config, model: Model, stamp: Stamp | None, memo: RenderMemo | None,
          texts: SchemaTexts | None = None) -> Plan:
    stamp = stamp or now_stamp(config)
    skills = config.skills_dir
    # Before anything is read: a link committed into skills/ must not show another file.
    files.refuse_links_below(skills)
    editor = layout.workflow_editor(skills)
    protocol = protocol_blocks(skills)

    check_file_names(model.nodes)
    where = node_paths(skills, model)
    paths = list(where.values())
    paths += [editor, layout.protocol_doc(skills), layout.schema_file(skills),
              layout.schema_index(skills), layout.nodes_index(skills)]
    if config.fallback_file:
        paths.append(config.fallback_file)
    existing = existing_texts(paths, skills)
    real = saved_examples.collect(config.root, config.settings.saved_workflows, model)
    updates = plan_nodes(model, where, existing, stamp, config.definitions_label, real, memo)
    editor_update = plan_workflow_editor(model, skills, existing, stamp)
    updates.append(editor_update)
    if protocol is not None:
        updates.append(plan_blocks_file(layout.protocol_doc(skills), existing,
                                        "# Skill Call Protocol\n", protocol, stamp))
    if config.fallback_file:
        updates.append(plan_copy(config.fallback_file, existing, editor_update))
    if texts is not None and memo is not None:
        # The node entries from the memo, by the record digests the render memo has made.
        entries_with(model, lambda node: texts.pair(node, memo.record(node)))
    schema, doc = plan_schema_file(model, skills, existing, config.settings.forget, texts)
    updates += [schema, plan_schema_index(skills, existing, schema, doc)]
    updates.append(plan_nodes_index(model, skills, where, existing, stamp))
    if config.agent_skills_dir is not None:
        updates += plan_agent_skills(config.agent_skills_dir, skills, updates, model, doc)
    return Plan(model, tuple(updates))


def plan_agent_skills(out: Path, skills_dir: Path, updates: list[FileUpdate],
                      model: Model, doc: Mapping[str, Any]) -> list[FileUpdate]:
    """The Agent Skills package (pygen.skills.agent_skills), from this run's new texts."""
    from pygen.skills.agent_skills import MANIFEST, foreign_files, manifest_text, package_files

    texts = {u.path: u.new for u in updates}
    wanted = package_files(out, skills_dir, texts, [n.key for n in model.nodes], doc)
    wanted[out / MANIFEST] = manifest_text(out, list(wanted))
    existing = existing_texts(list(wanted), out)
    foreign = foreign_files(out, wanted, existing)
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        raise ConfigError(f"{foreign[0]}: agent_skills_dir holds a file pygen did not write "
                          f"(not in its {MANIFEST}){more}, which gen would replace: point "
                          "agent_skills_dir at a folder of its own, or move the file")
    return [FileUpdate(path, existing.get(path), text) for path, text in wanted.items()]


def plan_schema_file(model: Model, skills_dir: Path, existing: Mapping[Path, str | None],
                     forget: Collection[str] = (), texts: SchemaTexts | None = None
                     ) -> tuple[FileUpdate, dict[str, Any]]:
    """The per-node JSON Schemas `pygen serve` validates workflows with, without Node, and
    the names the catalog retired (pygen.skills.retired_record); each entry's text from
    `texts` when it was written before. With the update, the document it writes."""
    from pygen.schema.document import document, dump_document

    path = layout.schema_file(skills_dir)
    old = existing.get(path)
    doc = retired_record.add_record(document(model), old, forget, retired_record.tool_names(model))
    return FileUpdate(path, old, dump_document(doc, texts.entry if texts else None)), doc


def plan_schema_index(skills_dir: Path, existing: Mapping[Path, str | None],
                      schema: FileUpdate, doc: Mapping[str, Any]) -> FileUpdate:
    """The schema document's index (pygen.schema.doc_index), made from its new text."""
    from pygen.schema.doc_index import index_text

    path = layout.schema_index(skills_dir)
    return FileUpdate(path, existing.get(path), index_text(doc, schema.new))


def plan_nodes_index(model: Model, skills_dir: Path, paths: Mapping[str, Path],
                     existing: Mapping[Path, str | None], stamp: Stamp) -> FileUpdate:
    """nodes/_README.md, for people: the index of the node files and whose prose is written."""
    empty = {n.key: sections.empty_sections(existing.get(paths[n.key])) for n in model.nodes}
    return plan_blocks_file(layout.nodes_index(skills_dir), existing,
                            render.nodes_index_template(),
                            {render.INDEX_BLOCK: render.nodes_index(model, empty)}, stamp)


def protocol_blocks(skills_dir: Path) -> dict[str, str] | None:
    """The protocol doc's blocks, when the skills declare a Skill Call registry."""
    registry_path = layout.protocol_registry(skills_dir)
    if not registry_path.is_file():
        return None
    from pygen.protocol import load_registry, render_protocol_blocks

    return render_protocol_blocks(load_registry(registry_path))


def apply(plan_: Plan, within: Path | None = None) -> None:
    """Write the changed files as one set; with `within` (the skills_dir), journaled there,
    so a run killed while renaming is finished or undone by the next (pygen.journal)."""
    journal = within / files.JOURNAL if within is not None else None
    files.write_all(((u.path, u.new) for u in plan_.changed), within, journal)
