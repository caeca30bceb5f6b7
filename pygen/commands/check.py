"""`pygen check`: exit 1 with a diff when the skill files drift from the code; writes nothing."""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from pygen import files, gcpause
from pygen.commands.common import (
    code_findings,
    config_from,
    config_options,
    content_problems,
    diagnostics_json,
    enforce_strict,
    no_tools_option,
    print_contradictions,
    print_diagnostics,
    print_gate,
    print_problems,
    saved_workflow_findings,
    strict_option,
    verbose_option,
)
from pygen.config import Config
from pygen.gate import check_memo
from pygen.model import Diagnostic
from pygen.output import console, err_console, shown
from pygen.tools.cache import tool_inputs

if TYPE_CHECKING:  # a check answered from the memo imports none of the stages
    from pygen.gate.gate import Gate
    from pygen.skills import plan as planning
    from pygen.skills.plan import FileUpdate


@click.command("check")
@config_options
@strict_option
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but the list of stale files.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--no-cache", is_flag=True, help="Run the extraction even if nothing changed.")
@click.option("--verify-memo", is_flag=True,
              help="Answer from the memos and caches, then again without them; exit 2 "
                   "naming what differed when the two disagree.")
@verbose_option
@no_tools_option
def check(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
          strict: bool, quiet: bool, as_json: bool, no_cache: bool, verify_memo: bool,
          verbose: bool, no_tools: bool) -> int:
    """Exit 1 with a diff when the committed skill files drift from the code. Writes nothing.

    Also exit 1 for generated blocks edited by hand, stale names in prose (per
    `stale_prose`) and node files whose type is gone.
    """
    config = config_from(config_path, nodes_file, skills_dir,
                         run_tools=False if no_tools else None)
    if verify_memo:
        return verify(config, strict=strict or config.settings.strict, quiet=quiet,
                      as_json=as_json)
    return run_check(config, strict=strict or config.settings.strict, quiet=quiet,
                     as_json=as_json, use_cache=not no_cache, verbose=verbose)


def run_check(config: Config, *, strict: bool, quiet: bool, as_json: bool,
              use_cache: bool, verbose: bool = False) -> int:
    """One `check` run; returns its exit code. A clean run is remembered (pygen.gate.check_memo)."""
    files.refuse_links_below(config.skills_dir)  # before the memo, which reads through links
    # Before anything is read: what the memo of this run will be keyed by.
    start = check_memo.started(config, strict) if use_cache else None
    known_clean = check_memo.clean_check(config, strict, lambda changed: _early_start(
        config, changed), start) if start is not None else None
    if known_clean is not None:
        print_diagnostics(known_clean.warnings, quiet or as_json, verbose)
        print_contradictions(known_clean.contradictions, strict=False, quiet=quiet or as_json,
                             verbose=verbose)
        print_clean(config, known_clean.files, known_clean.warnings, quiet=quiet,
                    as_json=as_json)
        return 0
    with gcpause.paused():
        return full_check(config, strict=strict, quiet=quiet, as_json=as_json,
                          use_cache=use_cache, verbose=verbose, start=start)


def verify(config: Config, *, strict: bool, quiet: bool, as_json: bool) -> int:
    """`check --verify-memo`: the check memo's answer and a check through the caches, each
    compared with a check that uses neither; exit 2 naming what differed, else the
    check's own exit code. Writes no memo: a verification leaves the caches as it found
    them, or refreshed by the cached run."""
    memo = check_memo.clean_check(config, strict)
    cached_code, cached = _captured(config, strict, use_cache=True)
    fresh_code, fresh = _captured(config, strict, use_cache=False)
    differences = []
    if memo is not None and fresh_code != 0:
        differences.append(f"the check memo says the skills are current; without it the "
                           f"check exits {fresh_code} (stale: {', '.join(fresh['stale']) or '-'})")
    elif memo is not None and diagnostics_json(memo.warnings) != fresh["warnings"]:
        differences.append("the check memo's warnings differ from the check's")
    if cached_code != fresh_code or cached != fresh:
        keys = sorted(k for k in {*cached, *fresh} if cached.get(k) != fresh.get(k))
        differences.append(f"through the caches the check exits {cached_code}, without them "
                           f"{fresh_code}; differing: {', '.join(keys) or 'exit code'}")
    if differences:
        for line in differences:
            err_console.print(f"memo disagrees: {line}", highlight=False, markup=False)
        err_console.print("A memo or cache of pygen gave a wrong answer: run with --no-cache "
                          "until it is fixed, and report it.", highlight=False)
        return 2
    if as_json:
        console.print_json(json.dumps({**fresh, "memo_verified": True}))
    elif not quiet:
        for path in fresh["stale"]:
            err_console.print(f"stale: {path}", highlight=False, markup=False)
        answer = "a clean check" if memo is not None else "nothing"
        console.print(f"Memo verified: the check memo ({answer}), the caches and a check "
                      f"without them agree (exit {fresh_code}).")
    return fresh_code


def _captured(config: Config, strict: bool, *, use_cache: bool) -> tuple[int, dict[str, Any]]:
    """A full check's exit code and JSON document, its output kept from the terminal."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), gcpause.paused():
        code = full_check(config, strict=strict, quiet=True, as_json=True,
                          use_cache=use_cache, verbose=False)
    doc: dict[str, Any] = json.loads(out.getvalue())
    return code, doc


def _early_start(config: Config, changed: list[Path]) -> None:
    """Start Node now when a changed file is the code's (not a skill file, not a tool
    source): the extraction will run, and Node and TypeScript load while Python imports
    the stages and reads the caches."""
    skills = [config.skills_dir, *([config.agent_skills_dir] if config.agent_skills_dir
                                   else [])]
    ours = {config.fallback_file, *(tool_inputs(config) or ())}
    # (the early process is taken only by a run in the folder it started in)
    code = [path for path in changed
            if path not in ours and not any(path.is_relative_to(s) for s in skills)]
    if code and Path.cwd() == config.root:
        from pygen.extract import prestart

        prestart.start()


def full_check(config: Config, *, strict: bool, quiet: bool, as_json: bool,
               use_cache: bool, verbose: bool,
               start: check_memo.Started | None = None) -> int:
    """The check the memo could not answer: extract, render, gate, compare."""
    from pygen.gate import gate as gating
    from pygen.progress import counted, progress
    from pygen.skills import plan as planning
    from pygen.tools import merge

    with progress(verbose=verbose, quiet=quiet) as steps:
        steps.step(f"extracting the catalog ({config.definitions_label})")
        model = merge.load_model(config, use_cache=use_cache, note=steps.step)
        steps.step(f"rendering {counted(len(model.nodes), 'node')}")
        plan = planning.plan(config, model, remember=use_cache)
        print_diagnostics(plan.model.diagnostics, quiet or as_json, verbose)
        enforce_strict(plan.model, strict)
        said = code_findings(plan.model, strict=strict, quiet=quiet or as_json,
                             verbose=verbose)
        code = len(said) if strict else 0
        code += saved_workflow_findings(config, plan.model, strict=strict,
                                        quiet=quiet or as_json)
        steps.step(f"checking {counted(len(plan.updates), 'file')}")
        gate = gating.gate(config, plan.model, plan.updates, plan.remember)
        problems = content_problems(config, plan, quiet or as_json)
    edited = {edit.path for edit in gate.hand_edits}
    stale = tuple(u for u in plan.changed if u.path not in edited)
    if as_json:
        print_json(stale, gate, problems, plan.model.diagnostics)
    else:
        print_text(plan, stale, gate, problems, quiet=quiet)
    if stale or gate.failed or problems or code:
        return 1
    # A run whose only words are the catalog's warnings is remembered with them, to say
    # again; any other finding is worked out afresh on every run.
    if start is not None and not gate.stale_names and not gate.foreign \
            and not config.settings.saved_workflows:
        passed = check_memo.Passed(len(plan.updates), plan.model.diagnostics, said)
        check_memo.record_clean_check(config, strict, passed, start)
    return 0


def unified_diff(update: FileUpdate) -> str:
    """The file's diff, as difflib.unified_diff writes it."""
    name = shown(update.path)
    old = (update.old or "").splitlines(keepends=True)
    new = update.new.splitlines(keepends=True)
    groups = list(_Trimmed(old, new).get_grouped_opcodes(3))
    if not groups:
        return ""
    out = [f"--- a/{name}\n", f"+++ b/{name}\n"]
    for group in groups:
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in old[i1:i2]]
                continue
            out += ["-" + line for line in old[i1:i2]]
            out += ["+" + line for line in new[j1:j2]]
    return "".join(out)


def _range(start: int, stop: int) -> str:
    """A hunk's line range: `first,count`, `first` for one line, `before,0` for none."""
    length = stop - start
    first = start + 1 if length else start
    return str(first) if length == 1 else f"{first},{length}"


Opcode = Literal["replace", "delete", "insert", "equal"]


class _Trimmed(difflib.SequenceMatcher[str]):
    """difflib's matcher with the lines both texts share at the start, then at the end,
    matched before it compares the rest: its matching is quadratic in a long document's
    repeated lines, and a node's change touches a few of them."""

    def __init__(self, old: list[str], new: list[str]) -> None:
        super().__init__(None, [], [])  # compares only the middle (get_opcodes)
        self.old, self.new = old, new
        self.same = _common(old, new)
        below = min(len(old), len(new)) - self.same  # `a}b}` and `a}` share one `}`
        self.tail = min(_common(old[::-1], new[::-1]), below)

    def get_opcodes(self) -> list[tuple[Opcode, int, int, int, int]]:
        old, new, head, tail = self.old, self.new, self.same, self.tail
        inner = difflib.SequenceMatcher(None, old[head:len(old) - tail],
                                        new[head:len(new) - tail]).get_opcodes()
        ops: list[tuple[Opcode, int, int, int, int]] = [("equal", 0, head, 0, head)] if head else []
        ops += [(t, i1 + head, i2 + head, j1 + head, j2 + head) for t, i1, i2, j1, j2 in inner]
        if tail:
            ops.append(("equal", len(old) - tail, len(old), len(new) - tail, len(new)))
        return ops


def _common(a: Sequence[str], b: Sequence[str]) -> int:
    """How many lines `a` and `b` share at their start."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def print_json(stale: tuple[FileUpdate, ...], gate: Gate, problems: list[str],
               diagnostics: tuple[Diagnostic, ...]) -> None:
    from pygen.gate.report_format import gate_json

    console.print_json(json.dumps({"stale": [shown(u.path) for u in stale],
                                   **gate_json(gate), "problems": problems,
                                   "warnings": diagnostics_json(diagnostics),
                                   "ok": not stale and not gate.failed and not problems}))


def print_text(plan: planning.Plan, stale: tuple[FileUpdate, ...], gate: Gate,
               problems: list[str], *, quiet: bool) -> None:
    print_gate(gate, quiet)
    print_problems(problems)
    if not quiet:
        for update in stale:
            sys.stdout.write(unified_diff(update))
    for update in stale:
        err_console.print(f"stale: {shown(update.path)}", highlight=False)
    if stale:
        err_console.print("Skill files drift from the code: run `pygen gen` and commit "
                          "the changes.", highlight=False)
    elif not quiet and not gate.failed and not problems:
        console.print(f"{len(plan.updates)} skill files are current.")


def print_clean(config: Config, files: int, warnings: tuple[Diagnostic, ...], *, quiet: bool,
                as_json: bool) -> None:
    """What a passing check prints after its warnings, for a run answered from the cache."""
    if as_json:
        from pygen.gate.gate import Gate
        from pygen.gate.report_format import gate_json

        empty = Gate((), (), (), config.settings.stale_prose)
        console.print_json(json.dumps({"stale": [], **gate_json(empty), "problems": [],
                                       "warnings": diagnostics_json(warnings), "ok": True}))
    elif not quiet:
        console.print(f"{files} skill files are current.")
