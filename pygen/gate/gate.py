"""The gate `check` and `gen` enforce: hand-edited blocks, stale names in prose, orphans.

Pure functions over the config, the planned files and the model; the commands print them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pygen import files, layout
from pygen.config import Config
from pygen.gate import foreign, orphans, prose_lint, text_memo
from pygen.gate.foreign import ForeignBlock
from pygen.gate.orphans import Orphan
from pygen.gate.prose_lint import StaleName
from pygen.model import Model
from pygen.skills import block_digests, retired_record
from pygen.skills.block_digests import HandEdit


@dataclass(frozen=True)
class Gate:
    hand_edits: tuple[HandEdit, ...]
    stale_names: tuple[StaleName, ...]
    orphans: tuple[Orphan, ...]
    stale_prose: Literal["error", "warn", "off"]
    # Words close to a name that never was one: `doctor` lists them, nothing fails on them.
    prose_hints: tuple[StaleName, ...] = ()
    # AUTO-GEN blocks pygen does not write: listed, warned about, never a failure.
    foreign: tuple[ForeignBlock, ...] = ()

    @property
    def failed(self) -> bool:
        """Whether something here needs a person (warn-level prose does not)."""
        prose = bool(self.stale_names) and self.stale_prose == "error"
        return bool(self.hand_edits or self.orphans) or prose

    @property
    def failed_writing(self) -> bool:
        """Whether `gen` fails: as `failed`, but an orphan is a warning there. gen wrote
        everything the catalog has; a node file no node owns (one an adopted folder held
        before pygen, or a type that left the catalog) is reported and kept for a person,
        and `check` still fails on it."""
        prose = bool(self.stale_names) and self.stale_prose == "error"
        return bool(self.hand_edits) or prose


def retired_names(config: Config, planned: Sequence[block_digests.Planned]) -> prose_lint.Retired:
    """The retired names of the schema document as this run leaves it, those let go, and the
    tool names of nodes this run has no tool for (unknown, so never retired)."""
    path = layout.schema_file(config.skills_dir)
    update = next((u for u in planned if u.path == path), None)
    new = retired_record.load(update.new if update else files.read_text(path))
    old = retired_record.load(update.old) if update else new
    now = retired_record.doc_tools(new)
    unknown = {n for t, names in retired_record.doc_tools(old).items() if t not in now
               for n in names}
    return prose_lint.Retired(retired_record.recorded(new), frozenset(config.settings.forget),
                              frozenset(unknown))


def stale_prose(config: Config, model: Model, planned: Sequence[block_digests.Planned],
                written: bool, memo: text_memo.TextMemo | None = None) -> prose_lint.Lint:
    if config.settings.stale_prose == "off":
        return prose_lint.Lint()
    return prose_lint.lint_skills(config.skills_dir, model, planned, written,
                                  extra=list(config.definitions),
                                  retired=retired_names(config, planned), memo=memo)


def gate(config: Config, model: Model, planned: Sequence[block_digests.Planned],
         remember: bool = False) -> Gate:
    """For `check`: hand edits among the planned files, stale prose, orphaned node files.
    With `remember`, what is read per text comes from pygen.gate.text_memo when it can."""
    memo = text_memo.load(config if remember else None)
    prose = stale_prose(config, model, planned, False, memo)
    found = Gate(tuple(block_digests.find(planned)), tuple(prose.stale),
                 tuple(orphans.find(config.skills_dir, model, config.settings.legacy_types)),
                 config.settings.stale_prose,
                 tuple(prose.hints), tuple(foreign.find(config, planned, memo)))
    memo.save()
    return found


def after_gen(config: Config, model: Model, written: Sequence[block_digests.Planned],
              refused: Sequence[HandEdit], prune: bool,
              remember: bool = False) -> tuple[Gate, tuple[Orphan, ...]]:
    """For `gen`, once it has written: what is left for a person, and the orphans pruned.

    `written` are the files gen wrote (or left); `refused` the hand edits it would not touch.
    """
    found = orphans.find(config.skills_dir, model, config.settings.legacy_types)
    deleted, kept = orphans.prune(found) if prune else ([], found)
    memo = text_memo.load(config if remember else None)
    prose = stale_prose(config, model, written, True, memo)
    found_gate = Gate(tuple(refused), tuple(prose.stale), tuple(kept),
                      config.settings.stale_prose, tuple(prose.hints),
                      tuple(foreign.find(config, written, memo)))
    memo.save()
    return found_gate, tuple(deleted)
