"""The gate `check` and `gen` enforce: hand-edited blocks, stale names in prose, orphans.

Pure functions over the config, the planned files and the model; the commands print them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pygen.config import Config
from pygen.gate import orphans, prose_lint
from pygen.gate.orphans import Orphan
from pygen.gate.prose_lint import StaleName
from pygen.model import Model
from pygen.skills import digests
from pygen.skills.digests import HandEdit


@dataclass(frozen=True)
class Gate:
    hand_edits: tuple[HandEdit, ...]
    stale_names: tuple[StaleName, ...]
    orphans: tuple[Orphan, ...]
    stale_prose: Literal["error", "warn", "off"]

    @property
    def failed(self) -> bool:
        """Whether something here needs a person (warn-level prose does not)."""
        prose = bool(self.stale_names) and self.stale_prose == "error"
        return bool(self.hand_edits or self.orphans) or prose


def stale_prose(config: Config, model: Model, planned: Sequence[digests.Planned],
                written: bool) -> tuple[StaleName, ...]:
    if config.settings.stale_prose == "off":
        return ()
    return tuple(prose_lint.lint_skills(config.skills_dir, model, planned, written,
                                        extra=list(config.definitions)))


def gate(config: Config, model: Model, planned: Sequence[digests.Planned]) -> Gate:
    """For `check`: hand edits among the planned files, stale prose, orphaned node files."""
    return Gate(tuple(digests.find(planned)), stale_prose(config, model, planned, False),
                tuple(orphans.find(config.skills_dir, model)), config.settings.stale_prose)


def after_gen(config: Config, model: Model, written: Sequence[digests.Planned],
              refused: Sequence[HandEdit], prune: bool) -> tuple[Gate, tuple[Orphan, ...]]:
    """For `gen`, once it has written: what is left for a person, and the orphans pruned.

    `written` are the files gen wrote (or left); `refused` the hand edits it would not touch.
    """
    found = orphans.find(config.skills_dir, model)
    deleted, kept = orphans.prune(found) if prune else ([], found)
    stale = stale_prose(config, model, written, True)
    return Gate(tuple(refused), stale, tuple(kept), config.settings.stale_prose), tuple(deleted)
