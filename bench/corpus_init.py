"""`python -m bench.corpus --init`: what a newcomer gets from `pygen init` with no flags.

Per editor, in a throwaway hard-linked copy of the checkout with no config: `pygen init`,
then `extract --json`, `gen` and `check` on the config init wrote. Printed: nodes found /
counted by hand, the exit codes of init, gen and check, wall seconds of all four, and the
source init chose (`definitions`). The manifest's `init_expected` per entry holds the last
result (`--update` rewrites it); a difference exits 1.
"""

from __future__ import annotations

import re
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.corpus import Entry, Run, _last_line, aligned, copy_checkout, run_pygen, unusable

INIT_EXPECTED = ("nodes", "init", "gen", "check")


@dataclass
class InitResult:
    entry: Entry
    skipped: str | None = None
    nodes: int | None = None
    init: int | None = None
    gen: int | None = None
    check: int | None = None
    source: str = "-"
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    # Nodes whose data type was found (not `none`, not `inferred`): typed fields in the skills.
    typed: int = 0

    def actual(self) -> dict[str, int | str]:
        counts: dict[str, int | str] = {
            k: -1 if v is None else v for k, v in (("nodes", self.nodes), ("init", self.init),
                                                   ("gen", self.gen), ("check", self.check))}
        return {**counts, "source": self.source}

    def drifted(self) -> bool:
        return self.skipped is None and self.actual() != dict(self.entry.init_expected or {})


def chosen_source(config: Path) -> str:
    """The `definitions` init wrote (its default when it wrote none), or `-` without a config."""
    if not config.is_file():
        return "-"
    definitions = tomllib.loads(config.read_text()).get("definitions", "NODE_DEFINITIONS")
    return ", ".join(definitions) if isinstance(definitions, list) else str(definitions)


def _nodes(run: Run) -> tuple[int | None, int]:
    """Nodes found and, of them, the ones with a data type (as bench.corpus counts them)."""
    import json

    if run.code != 0:
        return None, 0
    nodes = json.loads(run.stdout)["nodes"]
    typed = sum(1 for n in nodes
                if (n.get("data_type") or {}).get("via") not in (None, "none", "inferred"))
    return len(nodes), typed


def measure(entry: Entry, checkout: Path) -> InitResult:
    """init, then extract, gen and check, in a throwaway copy of the checkout."""
    result = InitResult(entry)
    with tempfile.TemporaryDirectory(dir=checkout.parent, prefix=".corpus-init-") as tmp:
        project = Path(tmp) / entry.folder
        copy_checkout(checkout, project)
        (project / "pygen.toml").unlink(missing_ok=True)
        init = run_pygen(["init"], project)
        result.init, result.seconds = init.code, init.seconds
        result.source = chosen_source(project / "pygen.toml")
        if init.code != 0:
            result.errors.append(f"init exit {init.code}: {_last_line(init.stdout + init.stderr)}")
        if not (project / "pygen.toml").is_file():
            return result
        for command in (["extract", "--json"], ["gen"], ["check"]):
            run = run_pygen(command, project)
            result.seconds += run.seconds
            if command[0] == "extract":
                result.nodes, result.typed = _nodes(run)
            else:
                setattr(result, command[0], run.code)
            if run.code != 0:
                result.errors.append(f"{command[0]} exit {run.code}: {_last_line(run.stderr)}")
    return result


def run_entry(entry: Entry, checkouts: Path) -> InitResult:
    checkout = checkouts / entry.folder
    skipped = unusable(entry, checkout)
    return InitResult(entry, skipped=skipped) if skipped else measure(entry, checkout)


HEADER = ("repo", "nodes/true", "share", "typed", "init", "gen", "check", "secs", "source")


def row(result: InitResult) -> tuple[str, ...]:
    entry = result.entry
    if result.skipped is not None:
        return (entry.repo, "skipped", "", "", "", "", "", "", "")
    found = "-" if result.nodes is None else str(result.nodes)
    share = f"{100 * (result.nodes or 0) // entry.true_nodes}%" if entry.true_nodes else "-"
    typed = f"{100 * result.typed // result.nodes}%" if result.nodes else "-"
    codes = [str(-1 if c is None else c) for c in (result.init, result.gen, result.check)]
    return (entry.repo, f"{found}/{entry.true_nodes}", share, typed, *codes,
            f"{result.seconds:.1f}", result.source)


# A shape's family, by how the manifest's `shape` starts or what it names (its header says
# the family comes first; the entries before the rule name the form instead).
FAMILIES = (("no catalog", "no catalog in code"), ("component registry", "component registry"),
            ("positional registration", "positional registration"), ("classes", "classes"),
            ("per-file", "per-file definitions"))
CALLS = re.compile(r"register|\bcalls?\b|defineNode")
# A catalog is right with this share of the true nodes; under half with exit 0 it is false.
RIGHT_SHARE = 0.9
TYPED_SHARE = 0.5


def family(shape: str) -> str:
    found = next((name for start, name in FAMILIES if shape.startswith(start)), None)
    return found or ("registration or builder calls" if CALLS.search(shape)
                     else "registry literal")


def right(result: InitResult) -> bool:
    """init's catalog is right: ≥ RIGHT_SHARE of the true nodes and init, gen, check exit 0;
    for an editor with no catalog in code, init saying so (exit 1, no config)."""
    true = result.entry.true_nodes
    if not true:
        return result.init == 1 and result.source == "-"
    return (result.nodes or 0) >= RIGHT_SHARE * true and (result.init, result.gen,
                                                           result.check) == (0, 0, 0)


def false_catalog(result: InitResult) -> bool:
    """A config written with exit 0 whose catalog is not the editor's (under half its nodes,
    or any catalog where the code has none)."""
    true = result.entry.true_nodes
    return result.init == 0 and (not true or 2 * (result.nodes or 0) < true)


def typed(result: InitResult) -> bool:
    return right(result) and bool(result.nodes) and \
        result.typed >= TYPED_SHARE * (result.nodes or 0)


def summary(results: Sequence[InitResult]) -> list[str]:
    """False catalogs, the share init gets right and typed, and per shape family."""
    measured = [r for r in results if r.skipped is None]
    if not measured:
        return []
    with_nodes = [r for r in measured if r.entry.true_nodes]
    ok = sum(map(right, measured))
    lines = [f"false catalogs (exit 0): {sum(map(false_catalog, measured))}",
             f"right (>= 90% of true nodes, init/gen/check 0; none found where none): "
             f"{ok}/{len(measured)} ({100 * ok // len(measured)}%)",
             f"typed (right, >= half the nodes with a data type): "
             f"{sum(map(typed, with_nodes))}/{len(with_nodes)}"]
    families: dict[str, list[InitResult]] = {}
    for r in measured:
        families.setdefault(family(r.entry.shape), []).append(r)
    for name, group in sorted(families.items()):
        lines.append(f"  {name}: right {sum(map(right, group))}/{len(group)}, typed "
                     f"{sum(map(typed, group))}, false {sum(map(false_catalog, group))}")
    return lines


def table(results: Sequence[InitResult]) -> str:
    lines = aligned(HEADER, [row(r) for r in results])
    for result in results:
        name = result.entry.repo
        if result.skipped is not None:
            lines.append(f"{name}: skipped: {result.skipped}")
        lines.extend(f"{name}: {error}" for error in result.errors)
        if result.drifted():
            lines.append(f"{name}: init_expected {result.entry.init_expected}, "
                         f"got {result.actual()}")
    return "\n".join(lines + summary(results))


def _line(values: dict[str, int | str]) -> str:
    import json

    inner = ", ".join(f"{k} = {json.dumps(v)}" for k, v in values.items())
    return f"init_expected = {{ {inner} }}\n"


def update_text(text: str, results: Sequence[InitResult]) -> str:
    """The manifest with each measured entry's `init_expected` set (added after `expected`
    when the entry has none yet)."""
    fresh = {r.entry.repo: r.actual() for r in results if r.skipped is None}
    out: list[str] = []
    repo = None
    for line in text.splitlines(keepends=True):
        found = re.match(r'\s*repo\s*=\s*"([^"]+)"', line)
        repo = found.group(1) if found else repo
        if re.match(r"\s*init_expected\s*=", line) and repo in fresh:
            continue  # written again below, after `expected`
        out.append(line)
        if re.match(r"\s*expected\s*=", line) and repo in fresh:
            out.append(_line(fresh[repo]))
    return "".join(out)
