"""The summary of a run's warnings: one line per kind with its count and first places."""

from __future__ import annotations

from collections.abc import Iterable

from pygen.model import Diagnostic

# How many places a summary line names before it says how many more there are.
PLACES = 3

# What a summary line calls each kind the extractor reports.
KIND_TITLES = {
    "computed": "values computed at run time (listed in the skills as computed)",
    "evaluator-limit": "values too deep to evaluate (listed as computed)",
    "no-data-type": "nodes without a data type (map them in data_types)",
    "unresolved-type": "types that cannot be resolved (shown as written)",
    "skipped": "entry properties skipped (not static data)",
    "unused-entry-field": "entry_fields names no entry has",
    "unresolved-import": "imports that do not resolve (the types they bring are unknown)",
    "tsconfig": "tsconfig files that are missing (the aliases they hold are lost)",
    "tsconfig-option": "compiler options the bundled TypeScript does not know (it ignores them)",
    "duplicate": "node types defined twice (the first definition is used)",
    "empty-source": "definitions sources that matched no node",
    "field-list": "field descriptors that cannot be read (left out)",
    "zod": "zod constructs pygen cannot express (read as unknown or unchecked)",
    "fallback-fields": "conventions.fallback_fields entries the catalog does not match",
}


def _place(diagnostic: Diagnostic) -> str:
    if diagnostic.file:
        return f"{diagnostic.file}:{diagnostic.line}" if diagnostic.line else diagnostic.file
    return diagnostic.node_type or "?"


def _group(diagnostics: Iterable[Diagnostic]) -> dict[tuple[str, str], list[Diagnostic]]:
    groups: dict[tuple[str, str], list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        # A diagnostic of no kind is grouped with those of the same message.
        kind = diagnostic.kind or f"message:{diagnostic.message}"
        groups.setdefault((diagnostic.level, kind), []).append(diagnostic)
    return groups


def summarize(diagnostics: Iterable[Diagnostic], verbose: bool = False) -> list[str]:
    """The lines a run prints about its diagnostics, in the order the kinds first appear.

    A kind seen once prints its diagnostic as is; a kind seen more often prints one line
    with the count and the first PLACES places. `verbose` prints every diagnostic.
    """
    if verbose:
        return [f"{d.level}: {d}" for d in diagnostics]
    lines = []
    for (level, kind), group in _group(diagnostics).items():
        if len(group) == 1:
            lines.append(f"{level}: {group[0]}")
            continue
        title = KIND_TITLES.get(kind, kind.removeprefix("message:"))
        places = ", ".join(_place(d) for d in group[:PLACES])
        more = len(group) - PLACES
        tail = f", … (+{more} more; --verbose lists all)" if more > 0 else ""
        lines.append(f"{level}: {title} — {len(group)} times: {places}{tail}")
    return lines


# What `--strict` turns into errors: values the definitions compute at run time, and node
# types defined twice; each with what to do about it.
STRICT_KINDS = {
    "computed": "write the value as static data",
    "evaluator-limit": "write the value as static data",
    "duplicate": "remove or rename one of the definitions",
    "field-list": "fix the descriptors or the field_list keys",
    "zod": "write the schema with zod constructs pygen reads statically",
    "type-template": "give the package.json above it a \"name\"",
}


def strict_failure(diagnostics: Iterable[Diagnostic]) -> str | None:
    """The one-line error of a `--strict` run, naming the first finding, or None."""
    found = [d for d in diagnostics if d.kind in STRICT_KINDS]
    if not found:
        return None
    more = f" (and {len(found) - 1} more; run without --strict to list them)" if found[1:] else ""
    todo = STRICT_KINDS[found[0].kind or ""]
    return f"--strict: {found[0]}{more}; {todo} or drop --strict"
