"""Stale prose: names in backticks, in hand-written text, that the code no longer has.

Candidates are the inline code of the prose (pygen.gate.prose); the names the model knows,
in any case style, are its vocabulary (pygen.gate.vocabulary). A candidate is *stale* when it
*was* a name and no longer is:

- it is retired for the file's node (recorded in the schema document's `x-retired`, so every
  later run still sees it; pygen.skills.retired_record), or it left this file's generated blocks in
  this run (pygen.gate.block_history; when it left only the worked example, which shows
  the neighbours, only if no node has it literally); and the file's node does not have it
  *literally*:
  `referenceImageUrl` is not kept alive by a tool's `reference_image_url`. In a file that is
  not a node's, a name retired from any node is stale unless some node still has it
  literally.

A name a person let go (`forget`) is never stale. A *hint* (for `doctor`, never a failure)
is a word the model knows nowhere that is close to a known name with as many words: difflib
ratio ≥ CUTOFF (at least MIN_LENGTH characters), or one keystroke away (longer than
MIN_LENGTH), looking first among the names of the file's own node (`aspectRation`, `promtp`;
not `targetId`, `promptSet`); pygen.suggest finds them. Only Markdown inside skills_dir is
read, `_` files aside.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pygen import files, layout
from pygen.errors import located
from pygen.gate.block_history import NO_CHANGES, History, history
from pygen.gate.text_memo import Names, TextMemo, empty
from pygen.gate.vocabulary import Vocabulary, vocabulary
from pygen.model import Model
from pygen.skills.block_digests import Planned
from pygen.suggest import NameIndex, hint

CUTOFF = 0.85
MIN_LENGTH = 4


@dataclass(frozen=True)
class StaleName:
    path: Path
    line: int
    name: str
    suggestion: str | None

    def message(self, shown_path: str) -> str:
        shown = f"'`{self.suggestion}`'" if self.suggestion else None
        return located(shown_path, self.line, f"stale name '`{self.name}`'{hint(shown)}")


def closest(token: str, vocab: Vocabulary, node_type: str | None) -> str | None:
    scopes = [vocab.index(node_type)] if node_type in vocab.by_node else []
    for scope in (*scopes, vocab.index(None)):
        match = scope.nearest(token, CUTOFF)
        # Four-letter words sit one keystroke from too much (`data`/`date`): five and up.
        if match is None and len(token) > MIN_LENGTH:
            match = scope.one_typo(token)
        if match:
            return match
    return None


def suggest(token: str, vocab: Vocabulary, node_type: str | None,
            added: frozenset[str]) -> str | None:
    """A name to offer instead of a retired one: the most similar of the names the same run
    brought into the file (a rename's new name), else the closest known one."""
    came = [name for name in added if vocab.knows(name, node_type)]
    if came:
        return NameIndex(came).nearest(token, 0.0, same_words=False)
    scope = vocab.index(node_type if node_type in vocab.by_node else None)
    return scope.nearest(token, 0.7, same_words=False)


@dataclass(frozen=True)
class Retired:
    """Names that were the catalog's: per node (the schema document's record, plus what left
    the file's blocks in this run), and the ones a person let go."""

    by_node: Mapping[str, frozenset[str]] = field(default_factory=dict)
    forget: frozenset[str] = frozenset()
    # Tool names this run knows nothing of (no tool for their node now): leaving the blocks
    # does not retire them.
    unknown: frozenset[str] = frozenset()

    def names(self, node_type: str | None, changes: History) -> frozenset[str]:
        if node_type is not None:
            mine = self.by_node.get(node_type, frozenset())
        else:
            mine = frozenset().union(*self.by_node.values())
        return (mine | (changes.retired - self.unknown)) - self.forget


@dataclass
class Lint:
    stale: list[StaleName] = field(default_factory=list)
    hints: list[StaleName] = field(default_factory=list)


def lint_names(names: Names, path: Path, vocab: Vocabulary, node_type: str | None = None,
               changes: History = NO_CHANGES, retired: Retired = Retired()) -> Lint:
    """The stale names (and hints) among the names a file's prose quotes."""
    found = Lint()
    # A name that left only the worked example but is still some node's (a neighbour's field
    # the example no longer shows) was not retired.
    kept = changes.example_only & vocab.of_nodes
    was = retired.names(node_type, History(changes.retired - kept, changes.added))
    for line, token in names:
        if token in was:
            if not vocab.has(token, node_type):
                instead = suggest(token, vocab, node_type, changes.added)
                found.stale.append(StaleName(path, line, token, instead))
            continue
        if vocab.knows(token, node_type) or vocab.knows(token) or token in retired.forget:
            continue
        near = closest(token, vocab, node_type) if len(token) >= MIN_LENGTH else None
        if near is not None:
            found.hints.append(StaleName(path, line, token, near))
    return found


def skill_files(skills_dir: Path) -> list[Path]:
    """Every Markdown skill file under skills_dir, sorted; `_` and hidden ones are not."""
    if not skills_dir.is_dir():
        return []
    # As `rglob("*.md")` finds them (no folder linked in is entered), a few times faster.
    found = [Path(folder, name) for folder, dirs, names in os.walk(skills_dir)
             for name in (*dirs, *names) if name.endswith(".md")]
    return layout.sorted_paths(p for p in found if not layout.for_people(p, skills_dir))


def linted(path: Path, skills_dir: Path) -> bool:
    if path.suffix != ".md":
        return False
    inside = str(path).startswith(str(skills_dir) + os.sep) or path.is_relative_to(skills_dir)
    return inside and not layout.for_people(path, skills_dir)


def lint_skills(skills_dir: Path, model: Model, planned: Iterable[Planned],
                written: bool = False, extra: Iterable[str] = (),
                retired: Retired = Retired(), memo: TextMemo | None = None) -> Lint:
    """Stale names (and hints) in every skill file, reading planned files as they are (or,
    when `written`, as this run writes them). Orphaned node files are left to
    pygen.gate.orphans; the schema document and files outside skills_dir are not prose.
    Each text's names come from `memo` when it read them before."""
    vocab = vocabulary(model, extra)
    memo = memo or empty()
    by_path = {u.path: u for u in planned if linted(u.path, skills_dir)}
    found = Lint()
    types = {stem: key for key, stem in model.file_stems.items()}
    for path in layout.sorted_paths(set(skill_files(skills_dir)) | set(by_path)):
        node_type = types.get(path.stem, path.stem) if layout.is_node_file(skills_dir, path) \
            else None
        if node_type is not None and model.node(node_type) is None:
            continue
        update = by_path.get(path)
        if update is None:
            text = files.read(path)
            changes = NO_CHANGES
        else:
            text = update.new if written or update.old is None else update.old
            changes = history(update.old, update.new, str(path))
        result = lint_names(memo.names(text, str(path)), path, vocab, node_type, changes,
                            retired)
        found.stale += result.stale
        found.hints += result.hints
    return found
