"""Plan the skill files of a run: for every file, its current text and the text it should have.

Pure: takes the model and the files' current contents, returns updates. Nothing is written
here, so a run that fails anywhere leaves every file as it was.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pygen.errors import PygenError
from pygen.model import DataField, Model, NodeDef, ToolSchema
from pygen.skills import digests, frontmatter, markers, render

Status = Literal["created", "updated", "unchanged"]
SAFE_TYPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


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

    The block digests (pygen.skills.digests) count as generated content: a file whose digests are
    missing or out of date is restamped once, so hand edits can be told apart afterwards.
    """
    base = existing if existing is not None else template
    new = markers.replace_blocks(base, blocks, label, order)
    digest = digests.field_for(new, blocks, label)
    if existing is not None and new == existing and (
            frontmatter.read(existing).get(digests.FIELD) == digest):
        return existing
    return frontmatter.update(new, {**stamp.fields(**(keys or {})), digests.FIELD: digest})


def node_path(skills_dir: Path, node_type: str) -> Path:
    if not SAFE_TYPE.match(node_type) or ".." in node_type:
        raise PygenError(f"node type '{node_type}' cannot be used as a file name; "
                         "use letters, digits, '-', '_' and '.'")
    return skills_dir / "nodes" / f"{node_type}.md"


def mark_results(model: Model, patterns: list[str]) -> Model:
    """Flag fields matching the `result_fields` globs as result fields."""
    if not patterns:
        return model

    def flag(field: DataField) -> DataField:
        hit = any(fnmatch.fnmatchcase(field.name, p) for p in patterns)
        return field.model_copy(update={"result": True}) if hit and not field.result else field

    def node(n: NodeDef) -> NodeDef:
        dt = n.data_type
        variants = tuple(v.model_copy(update={"fields": tuple(map(flag, v.fields))})
                         for v in dt.variants)
        new_dt = dt.model_copy(update={"fields": tuple(map(flag, dt.fields)), "variants": variants})
        return n.model_copy(update={"data_type": new_dt})

    return model.model_copy(update={"nodes": tuple(map(node, model.nodes))})


def plan_nodes(model: Model, skills_dir: Path, existing: Mapping[Path, str | None],
               stamp: Stamp, definitions: str,
               render_tool: Callable[[ToolSchema], str] | None) -> list[FileUpdate]:
    updates = []
    for node in model.nodes:
        path = node_path(skills_dir, node.key)
        template = render.node_template(node, with_tool=node.tool is not None)
        blocks = render.node_blocks(node, definitions, render_tool)
        new = update_text(existing.get(path), template, blocks, render.NODE_BLOCKS, stamp,
                          str(path), {"node_type": node.key})
        updates.append(FileUpdate(path, existing.get(path), new))
    return updates


def plan_blocks_file(path: Path, existing: Mapping[Path, str | None], template: str,
                     blocks: Mapping[str, str], stamp: Stamp) -> FileUpdate:
    """A hand-written file with generated blocks (the workflow editor, the protocol doc)."""
    new = update_text(existing.get(path), template, blocks, (), stamp, str(path))
    return FileUpdate(path, existing.get(path), new)


def plan_workflow_editor(model: Model, skills_dir: Path, existing: Mapping[Path, str | None],
                         stamp: Stamp) -> FileUpdate:
    return plan_blocks_file(skills_dir / "workflow-editor.md", existing,
                            render.workflow_editor_template(),
                            {render.CATALOG_BLOCK: render.catalog(model)}, stamp)


def plan_copy(path: Path, existing: Mapping[Path, str | None], source: FileUpdate) -> FileUpdate:
    """A byte-for-byte copy of another planned file (the packaged fallback)."""
    return FileUpdate(path, existing.get(path), source.new)
