"""Load-step functions that reassign edge handle ids by code (config
`load_step.handle_functions`): each is checked against the project's text before it is kept.

The evidence, read as text (nothing runs): the function `NAME` is defined in the file
(`function NAME(`, `NAME = (…) =>`, a method or property `NAME(…) {` / `NAME: (…) =>`), its
body assigns the handle of the side it is listed for (`targetHandle:` in an object it builds,
or `.targetHandle =`; `sourceHandle` for outputs), and it names each listed node type as a
string literal. A function not found, or one that assigns no handle of that side, is left out
with a warning; a type its body never names is left out with a warning: pygen keeps judging
what the code gives it no reason to stop judging.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from pygen.load_renames import CodeRewrite
from pygen.load_step_config import HandleFunctionStep
from pygen.model import Diagnostic

_SIDES = (("inputs", "targetHandle"), ("outputs", "sourceHandle"))


def read_functions(root: Path, wanted: Mapping[str, HandleFunctionStep]
                   ) -> tuple[dict[str, CodeRewrite], list[Diagnostic]]:
    """The listed functions the code backs, each with the node types it backs."""
    kept: dict[str, CodeRewrite] = {}
    notes: list[Diagnostic] = []
    for ref, step in wanted.items():
        path, _, name = ref.rpartition(":")
        file = root / path
        text = file.read_text(errors="replace") if path and name and file.is_file() else None
        body = _body(text, name) if text is not None else None
        if body is None:
            notes.append(_note(f"load_step.handle_functions: no function {name!r} in "
                               f"{path or ref}; it is left out", path or None))
            continue
        sides: dict[str, tuple[str, ...]] = {}
        for side, key in _SIDES:
            types: list[str] = getattr(step, side)
            if not types:
                continue
            if not re.search(rf"\b{key}\s*:|\.{key}\s*=(?!=)", body):
                notes.append(_note(f"load_step.handle_functions: {ref} assigns no {key}; "
                                   f"its {side} are left out", path))
                continue
            named = [t for t in types if re.search(rf"""["'`]{re.escape(t)}["'`]""", body)]
            for missing in (t for t in types if t not in named):
                notes.append(_note(f"load_step.handle_functions: {ref} never names "
                                   f"{missing!r}; its {side} are still judged", path))
            sides[side] = tuple(named)
        if any(sides.values()):
            kept[ref] = CodeRewrite(**sides)
    return kept, notes


def _body(text: str, name: str) -> str | None:
    """The body of the first definition of `name` (a declaration whose parameters are
    followed by its block; a type's `name: (…) => void` is passed over), braces counted."""
    n = re.escape(name)
    head = re.compile(rf"\bfunction\s+{n}\s*(?=[(<])|\b{n}\s*[:=]\s*(?:async\s*)?(?:function\b\s*)?"
                      rf"(?=\()|^\s*(?:async\s+)?{n}\s*(?=\()", re.M)
    for match in head.finditer(text):
        close = _params_end(text, match.end())
        opened = _OPENS.match(text, close) if close is not None else None
        if opened is not None:
            return _block(text, opened.end() - 1)
    return None


# After the parameters: an optional return type, an optional arrow, then the body's `{`.
_OPENS = re.compile(r"\s*(?::[^={;()]*)?(?:=>\s*)?\{")


def _params_end(text: str, at: int) -> int | None:
    """Just past the `)` closing the parameter list that opens at `at` (type parameters
    `<…>` first, when there are any)."""
    depth = 0
    for i in range(at, min(len(text), at + 5_000)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _block(text: str, start: int) -> str | None:
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c in "\"'`":
            end = _string_end(text, i)
            i = end
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return None
        elif text.startswith("/*", i):
            i = text.find("*/", i)
            if i < 0:
                return None
            i += 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    return None


def _string_end(text: str, start: int) -> int:
    quote = text[start]
    i = start + 1
    while i < len(text) and text[i] != quote:
        if text[i] == "\\" or (quote != "`" and text[i] == "\n"):
            if text[i] == "\n":
                return i
            i += 1
        i += 1
    return i


def _note(message: str, file: str | None) -> Diagnostic:
    return Diagnostic(level="warning", kind="load-step", message=message, file=file)
