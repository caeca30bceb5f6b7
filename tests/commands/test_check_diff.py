"""The diff `pygen check` prints: difflib's unified diff, computed on what lies between the
lines both texts share at their start and end."""

from __future__ import annotations

import difflib
import json
import random
from pathlib import Path

import pytest

from pygen.commands.check import unified_diff
from pygen.skills.plan import FileUpdate


def document(fields: dict[str, list[str]]) -> str:
    """A schema document shaped like the one pygen writes: many look-alike entries."""
    defs = {name: {"type": "object", "properties": {f: {"type": "string", "description": f}
                                                    for f in props}}
            for name, props in fields.items()}
    return json.dumps({"$defs": defs}, indent=2) + "\n"


def difflib_text(old: str | None, new: str, name: str) -> str:
    return "".join(difflib.unified_diff((old or "").splitlines(keepends=True),
                                        new.splitlines(keepends=True), f"a/{name}",
                                        f"b/{name}"))


BASE = {f"node-{i}": ["title", "size", "weight", "tags"] for i in range(60)}


def edited(change: str) -> dict[str, list[str]]:
    out = {k: list(v) for k, v in BASE.items()}
    if change == "field added":  # the added entry ends like the one above it: two alignments
        out["node-30"].insert(2, "touched")
    elif change == "field removed":
        out["node-0"].remove("title")
    elif change == "node added last":
        out["node-99"] = ["title"]
    elif change == "two apart":
        out["node-1"].append("more")
        out["node-58"].remove("tags")
    elif change == "every node":
        out = {k: [*v, "all"] for k, v in out.items()}
    return out


@pytest.mark.parametrize("change", ["field added", "field removed", "node added last",
                                    "two apart", "every node", "none"])
def test_the_diff_is_difflibs(change: str) -> None:
    old, new = document(BASE), document(edited(change))
    got = unified_diff(FileUpdate(Path("skills/schemas/nodes.schema.json"), old, new))
    assert got == difflib_text(old, new, "skills/schemas/nodes.schema.json")
    assert bool(got) == (change != "none")


def test_a_created_file_and_short_texts_diff_as_difflib_diffs_them() -> None:
    rng = random.Random(7)
    for _ in range(300):
        old = "".join(rng.choice("ab}\n") for _ in range(rng.randrange(12)))
        new = "".join(rng.choice("ab}\n") for _ in range(rng.randrange(12)))
        for before in (old, None):
            got = unified_diff(FileUpdate(Path("f.md"), before, new))
            assert got == difflib_text(before, new, "f.md"), (before, new)
