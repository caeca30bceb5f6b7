"""Stale prose: names in backticks, in hand-written text, that the code no longer has.

Only inline code in prose is read: text outside the frontmatter, AUTO-GEN blocks, fenced
code and HTML comments. A code span is a *candidate* when, after dropping surrounding quotes
and a trailing `?`, it is one identifier (letters, digits, `_`, `$`, inner `-`): so shell
commands, JSON snippets, calls like `get_node_skill(x)`, paths, dotted names and anything
with a space are never candidates.

A name is *known* in any case style (`aspect_ratio` is `aspectRatio`, `generate_image` is
`generate-image`): node types, handle ids, data fields at any depth, enum values, type
names, default data keys, tool names and tool parameters. A candidate is *stale* when it
*was* a name and no longer is:

- it is retired for the file's node (recorded in the schema document's `x-retired`, so every
  later run still sees it; pygen.skills.retired), or left this file's generated blocks in
  this run, and the node does not have it *literally*: `referenceImageUrl` is not kept alive
  by a tool's `reference_image_url`. In a file that is not a node's, a name retired from any
  node is stale unless some node still has it literally.

A name a person let go (`forget`) is never stale. A *hint* (for `doctor`, never a failure)
is a word the model knows nowhere that is close to a known name with as many words: difflib
ratio ≥ CUTOFF (at least MIN_LENGTH characters), or one keystroke away (longer than
MIN_LENGTH), looking first among the names of the file's own node (`aspectRation`, `promtp`;
not `targetId`, `promptSet`). Only Markdown inside skills_dir is read, `_` files aside.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pygen import files, layout
from pygen.errors import MarkerError, located
from pygen.model import DataField, Model, NodeDef, ToolSchema, TypeRef
from pygen.skills import frontmatter, markers
from pygen.skills.digests import Planned
from pygen.skills.retired import schema_names
from pygen.suggest import NameIndex, hint, normalised

CUTOFF = 0.85
MIN_LENGTH = 4
IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:-[A-Za-z0-9_$]+)*")
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
FIELD_DECL = re.compile(r"^\s*([A-Za-z_$][A-Za-z0-9_$-]*)\??\s*:")
QUOTED = re.compile(r"\"([^\"\n]+)\"")
JSON_KEY = re.compile(r"\"([A-Za-z_$][A-Za-z0-9_$-]*)\"\s*:")


@dataclass(frozen=True)
class StaleName:
    path: Path
    line: int
    name: str
    suggestion: str | None

    def message(self, shown_path: str) -> str:
        shown = f"'`{self.suggestion}`'" if self.suggestion else None
        return located(shown_path, self.line, f"stale name '`{self.name}`'{hint(shown)}")


@dataclass(frozen=True)
class Vocabulary:
    """Every name the model knows, and the names of each node (for closest matches)."""

    names: frozenset[str]
    by_node: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @cached_property
    def _norms(self) -> dict[str | None, frozenset[str]]:
        norms: dict[str | None, frozenset[str]] = {None: frozenset(map(normalised, self.names))}
        norms.update((key, frozenset(map(normalised, names)))
                     for key, names in self.by_node.items())
        return norms

    @cached_property
    def _indexes(self) -> dict[str | None, NameIndex]:
        return {}

    def index(self, node_type: str | None) -> NameIndex:
        """The names of the node (or of the model), indexed once for close matches."""
        if node_type not in self._indexes:
            names = self.names if node_type is None else self.by_node.get(node_type, ())
            self._indexes[node_type] = NameIndex(names)
        return self._indexes[node_type]

    def has(self, token: str, node_type: str | None = None) -> bool:
        """Whether `token`, exactly as written, is a name of the node (or of the model)."""
        return token in (self.by_node.get(node_type, self.names) if node_type else self.names)

    def knows(self, token: str, node_type: str | None = None) -> bool:
        """Whether `token`, in any case style, names something of the node (or the model)."""
        norms = self._norms.get(node_type, self._norms[None])
        return normalised(token) in norms


# --- names the model knows ------------------------------------------------------------------

def type_names(ref: TypeRef) -> Iterator[str]:
    if ref.name:
        yield ref.name
    if isinstance(ref.value, str):
        yield ref.value
    for member in (*ref.types, *((ref.items,) if ref.items else ())):
        yield from type_names(member)
    for sub in ref.fields:
        yield from field_names(sub)


def field_names(data_field: DataField) -> Iterator[str]:
    yield data_field.name
    yield from type_names(data_field.type)


def data_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, sub in value.items():
            yield str(key)
            yield from data_keys(sub)
    elif isinstance(value, list):
        for item in value:
            yield from data_keys(item)


def tool_names(tool: ToolSchema) -> Iterator[str]:
    yield tool.name
    yield from schema_names(tool.input_schema)


def node_names(node: NodeDef) -> frozenset[str]:
    names: set[str] = {node.type, *(h.id for h in (*node.inputs, *node.outputs) if h.id)}
    data_type = node.data_type
    if data_type.name:
        names.add(data_type.name)
    for data_field in data_type.fields:
        names.update(field_names(data_field))
    for variant in data_type.variants:
        names.update(n for n in (variant.name, variant.discriminant) if n)
        if isinstance(variant.value, str):
            names.add(variant.value)
        for data_field in variant.fields:
            names.update(field_names(data_field))
    names.update(data_keys(node.default_data))
    if node.tool is not None:
        names.update(tool_names(node.tool))
    return frozenset(names)


def vocabulary(model: Model, extra: Iterable[str] = ()) -> Vocabulary:
    by_node = {node.type: node_names(node) for node in model.nodes}
    names = set(extra).union(*by_node.values())
    for tool in model.tools:
        names.update(tool_names(tool))
    return Vocabulary(frozenset(names), by_node)


# --- code spans in prose --------------------------------------------------------------------

def prose_only(text: str, path: str) -> str:
    """`text` with everything but prose blanked out; line numbers stay where they were."""
    lines = [line.rstrip("\r\n") for line in markers.lines_of(text)]
    head, _ = frontmatter.split(text)
    hidden = set(range(head.count("\n")))
    try:
        for block in markers.parse(text, path):
            hidden.update(range(block.start_line - 1, block.end_line))
    except MarkerError:
        pass  # the planner reports it; lint what can be read
    hidden.update(_fenced_lines(lines))
    kept = "\n".join("" if i in hidden else line for i, line in enumerate(lines))
    return COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), kept)


def _fenced_lines(lines: list[str]) -> set[int]:
    hidden: set[int] = set()
    fence: str | None = None
    for index, line in enumerate(lines):
        was, fence = fence, markers.fence_state(line, fence)
        if was is not None or fence is not None:
            hidden.add(index)
    return hidden


def code_spans(prose: str) -> Iterator[tuple[int, str]]:
    """(line, content) of each inline code span; spans never cross a blank line."""
    for match in CODE_SPAN.finditer(prose):
        content = match.group(2)
        if "\n\n" in content or not content.strip():
            continue
        yield prose.count("\n", 0, match.start()) + 1, content


def candidate(span: str) -> str | None:
    token = span.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
        token = token[1:-1]
    token = token.removesuffix("?")
    return token if IDENT.fullmatch(token) else None


# --- names pygen wrote before this run ------------------------------------------------------

def block_names(body: str) -> set[str]:
    """Names in a generated block: identifier spans, `name: type` spans, quoted values, keys."""
    names = set(JSON_KEY.findall(body))
    for _, content in code_spans(body):
        token = candidate(content)
        if token:
            names.add(token)
        declared = FIELD_DECL.match(content)
        if declared:
            names.add(declared.group(1))
        names.update(v for v in QUOTED.findall(content) if IDENT.fullmatch(v))
    return names


@dataclass(frozen=True)
class History:
    """What this run changes in a file's blocks: names that left them, names that came."""

    retired: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()


NO_CHANGES = History()


def history(old: str | None, new: str, path: str) -> History:
    if old is None:
        return NO_CHANGES
    try:
        before = {b.id: b.body for b in markers.parse(old, path)}
        after = {b.id: b.body for b in markers.parse(new, path)}
    except MarkerError:
        return NO_CHANGES
    gone: set[str] = set()
    came: set[str] = set()
    for block_id, body in before.items():
        if block_id in after:
            old_names, new_names = block_names(body), block_names(after[block_id])
            gone |= old_names - new_names
            came |= new_names - old_names
    return History(frozenset(gone), frozenset(came))


# --- the lint -------------------------------------------------------------------------------

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


def lint_text(text: str, path: Path, vocab: Vocabulary, node_type: str | None = None,
              changes: History = NO_CHANGES, retired: Retired = Retired()) -> Lint:
    found = Lint()
    was = retired.names(node_type, changes)
    for line, span in code_spans(prose_only(text, str(path))):
        token = candidate(span)
        if token is None:
            continue
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
    return sorted(p for p in skills_dir.rglob("*.md") if not layout.for_people(p, skills_dir))


def linted(path: Path, skills_dir: Path) -> bool:
    return (path.suffix == ".md" and path.is_relative_to(skills_dir)
            and not layout.for_people(path, skills_dir))


def lint_skills(skills_dir: Path, model: Model, planned: Iterable[Planned],
                written: bool = False, extra: Iterable[str] = (),
                retired: Retired = Retired()) -> Lint:
    """Stale names (and hints) in every skill file, reading planned files as they are (or,
    when `written`, as this run writes them). Orphaned node files are left to
    pygen.gate.orphans; the schema document and files outside skills_dir are not prose."""
    vocab = vocabulary(model, extra)
    by_path = {u.path: u for u in planned if linted(u.path, skills_dir)}
    found = Lint()
    types = {layout.slug(n.key): n.key for n in model.nodes}
    for path in sorted(set(skill_files(skills_dir)) | set(by_path)):
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
        result = lint_text(text, path, vocab, node_type, changes, retired)
        found.stale += result.stale
        found.hints += result.hints
    return found
