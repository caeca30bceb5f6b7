"""The load step `pygen init` proposes: constants of the project whose value is a map of the
catalog's names, as the editor's loader would hold them.

By content, not by name: `{legacy: current}` whose values are all node types of the catalog
and whose keys are not (a legacy type map); `{node type: {id: id}}` whose outer keys are node
types and whose inner values, in at least half its entries, are handle ids of that type's
inputs (an input map) or outputs (an output map). A map whose inner *keys* are mostly the
type's handle ids, more often than its values name another of its ids, is no rename (a
rename's key is the old id, which the catalog has dropped): it lists the ids each type draws,
a `drawn_inputs` / `drawn_outputs` map (`{"image": "image", "video-out": "video"}`, a type per
drawn pip), proposed when it covers at least half the catalog's types. Candidates are found
in the text (a constant holding an object literal that quotes at least one node type), then
read exactly by the Node script (syntax only).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pygen import jsonread
from pygen.extract import noderuntime, warm
from pygen.init import scan
from pygen.jsonread import JsonInputError

_CONSTANT = re.compile(r"\b(?:const|let)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;{]+)?=\s*\{")
# Enough candidates to find a loader's maps; a repository full of object literals stays bounded.
MAX_CANDIDATES = 200
_TIMEOUT = 60.0

Handles = Mapping[str, tuple[tuple[str | None, ...], tuple[str | None, ...]]]


@dataclass(frozen=True)
class Proposal:
    node_types: list[str] = field(default_factory=list)
    input_handles: list[str] = field(default_factory=list)
    output_handles: list[str] = field(default_factory=list)
    drawn_inputs: list[str] = field(default_factory=list)
    drawn_outputs: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.node_types or self.input_handles or self.output_handles
                    or self.drawn_inputs or self.drawn_outputs)

    def toml(self) -> str:
        lines = ["[load_step]"]
        for key in ("node_types", "input_handles", "output_handles", "drawn_inputs",
                    "drawn_outputs"):
            refs = getattr(self, key)
            if refs:
                lines.append(f"{key} = {json.dumps(refs)}")
        return "\n".join(lines)


def candidates(texts: Mapping[Path, str], root: Path, types: set[str]) -> list[dict[str, str]]:
    """`{file, name}` of constants whose object literal quotes a node type of the catalog."""
    quoted = re.compile("|".join(re.escape(f'"{t}"') for t in sorted(types)) or "$^")
    found: list[dict[str, str]] = []
    for path, text in sorted(texts.items()):
        if path.name.endswith(".d.ts") or "__tests__" in path.parts or ".test." in path.name:
            continue
        for match in _CONSTANT.finditer(text):
            body = _literal(text, match.end() - 1)
            if body and quoted.search(body):
                found.append({"file": path.relative_to(root).as_posix(),
                              "name": match.group(1)})
                if len(found) >= MAX_CANDIDATES:
                    return found
    return found


def _literal(text: str, start: int) -> str | None:
    """The `{…}` at `start` (braces counted, strings not: a cheap first look)."""
    depth = 0
    for i in range(start, min(len(text), start + 50_000)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return None


def classify(ref: str, value: object, handles: Handles, proposal: Proposal) -> None:
    """Add `ref` to the proposal when its value is one of the map shapes."""
    if not isinstance(value, dict) or not value:
        return
    if all(isinstance(v, str) for v in value.values()):
        if all(v in handles for v in value.values()) and not any(k in handles for k in value):
            proposal.node_types.append(ref)
        return
    if not all(isinstance(v, dict) and all(isinstance(x, str) for x in v.values())
               for v in value.values()):
        return
    known = [k for k in value if k in handles]
    if len(known) * 2 < len(value):
        return
    entries = ins = outs = keys_in = keys_out = moved_in = moved_out = 0
    for node_type in known:
        inputs, outputs = handles[node_type]
        for old, new in value[node_type].items():
            entries += 1
            ins += new in inputs
            outs += new in outputs
            keys_in += old in inputs
            keys_out += old in outputs
            # An entry that names its own id (`{"image": "image"}`) renames nothing.
            moved_in += new in inputs and new != old
            moved_out += new in outputs and new != old
    keys, moved, drawn = ((keys_out, moved_out, proposal.drawn_outputs) if keys_out >= keys_in
                          else (keys_in, moved_in, proposal.drawn_inputs))
    if keys * 2 >= entries and keys > moved:
        # Proposed only as a registry of the catalog at large (the components' own list): a
        # table of a few types' ids (labels for a popover) vouches for no edge elsewhere.
        if len(known) * 2 >= len(handles):
            drawn.append(ref)
        return
    elif ins * 2 < entries and outs * 2 < entries:
        return  # a few ids in common by chance: no map of this catalog's handles
    elif ins > outs:
        proposal.input_handles.append(ref)
    elif outs > ins:
        proposal.output_handles.append(ref)


def propose(root: Path, types: Sequence[str], handles_of: Callable[[], Handles]) -> Proposal:
    """The load step the project's maps show, or an empty proposal. `handles_of` gives each
    node type's input and output ids; asked only when some constant quotes a node type."""
    texts = scan.read_sources(root)
    wanted = candidates(texts, root, set(types))
    proposal = Proposal()
    if not wanted:
        return proposal
    handles = handles_of()
    script = noderuntime.extractor()
    done = warm.run(script, json.dumps({"mode": "load-maps", "root": str(root), "maps": wanted}),
                    _TIMEOUT, root)
    try:
        reply = jsonread.loads_own(done.stdout, "the load-map reply")
    except JsonInputError:
        return proposal
    for want, got in zip(wanted, reply.get("maps") or [], strict=False):
        if "value" in got:
            classify(f"{want['file']}:{want['name']}", got["value"], handles, proposal)
    return proposal


def proposal_lines(proposal: Proposal, seen: Sequence[str] = ()) -> list[str]:
    """What init says about a proposal (nothing when empty)."""
    if proposal.empty:
        return []
    drawn = (" and maps of the handle ids its components draw (drawn_*)"
             if proposal.drawn_inputs or proposal.drawn_outputs else "")
    return [f"maps the editor may rewrite saved workflows with on load{drawn} (check they are "
            "its load step, then add to the config):", *proposal.toml().splitlines(), *seen]
