"""The per-file memo of the example checks (`.pygen-cache/examples.json`): a skill file whose
JSON examples were checked against the same catalog entries is not checked again.

What a file's examples are checked against is read from the file itself: every JSON string
in it (all the keys and values of its examples: node types, handle ids, field names, found
without parsing) is looked up in the catalog, and the file's key is the digest of its text
with, for each string, what the catalog says of it: the spec of a node type or variant of
that name (with the variants and `$ref`s it reaches), and the node types whose data has a
field of that name. Beside them the catalog-wide answers a finding may quote: the list of
node types (suggestions for an unknown one) and the document's other keys (conventions,
tools, labels). A change to a node the examples never name keeps the key; a change to one
they name, or a new type one of their strings now names, changes it.

A keyed memo as every memo is (pygen.extract.keyed_memo); only this run's files are kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pygen.config import Config
from pygen.extract import cache
from pygen.extract.keyed_memo import MemoFile, Section
from pygen.schema.document import ref_name
from pygen.validation.catalog import Catalog

FILE = "examples.json"
VERSION = 1
Verdict = tuple[list[str], list[str]]  # (problems, hints)


# A JSON string literal, escapes included.
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def strings(text: str) -> set[str]:
    """Every JSON string literal in the text, decoded: every key and string value of its JSON
    examples, and more (quoted words in prose), which only makes the key stricter."""
    found: set[str] = set()
    for body in _STRING.findall(text):
        if "\\" not in body:
            found.add(body)
            continue
        with contextlib.suppress(ValueError):
            found.add(json.loads(f'"{body}"'))
    return found


def _refs(value: object) -> Iterator[str]:
    """The names of the `$ref`s in a schema, in no set order (a stack, not a generator per
    subschema: every spec of the catalog is walked once a run)."""
    todo = [value]
    while todo:
        current = todo.pop()
        if isinstance(current, dict):
            ref = current.get("$ref")
            if isinstance(ref, str):
                yield ref_name(ref) or ""
            todo += [item for item in current.values() if isinstance(item, dict | list)]
        elif isinstance(current, list):
            todo += [item for item in current if isinstance(item, dict | list)]


@dataclass
class ExampleMemo:
    file: MemoFile
    files: Section[tuple[str, Verdict]]
    catalog: Catalog
    specs: dict[str, str] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    reach: dict[str, list[str]] = field(default_factory=dict)

    def _spec(self, name: str) -> str:
        found = self.specs.get(name)
        if found is None:
            spec = self.catalog.specs[name]
            found = self.specs[name] = cache.digest_json(
                [spec.schema, spec.handles, list(spec.inputs), list(spec.outputs)])
        return found

    def _owners(self, name: str) -> str:
        """The digest of the node types whose data has a field `name` (all of them, for a
        field every node has: digested once)."""
        found = self.owners.get(name)
        if found is None:
            found = self.owners[name] = cache.digest_json(self.catalog.field_owners[name])
        return found

    def _reached(self, name: str) -> list[str]:
        """The specs one spec reaches directly: its variants, its `$ref`s, its type."""
        found = self.reach.get(name)
        if found is None:
            spec, specs = self.catalog.specs[name], self.catalog.specs
            found = self.reach[name] = [n for n in (
                *spec.variants.values(), *_refs(spec.schema),
                self.catalog.variant_of.get(name, "")) if n in specs]
        return found

    def _names(self, said: set[str]) -> list[str]:
        """The specs the strings name, with every spec those reach (variants, `$ref`s)."""
        todo, seen = [s for s in said if s in self.catalog.specs], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo += [n for n in self._reached(name) if n not in seen]
        return sorted(seen)

    def file_key(self, label: str, text: str) -> str:
        said = strings(text)
        names = self._names(said)
        fields = said | {f for n in names if (f := self.catalog.specs[n].variant_field)}
        owners = {f: self._owners(f) for f in sorted(fields) if f in self.catalog.field_owners}
        return cache.digest_json({"label": label, "text": hashlib.sha256(
            text.encode("utf-8")).hexdigest(), "specs": [[n, self._spec(n)] for n in names],
            "owners": owners})

    def verdict(self, label: str, key: str) -> Verdict | None:
        found = self.files.read.get(label)
        return (list(found[1][0]), list(found[1][1])) if found and found[0] == key else None

    def keep(self, label: str, key: str, verdict: Verdict) -> None:
        self.files.kept[label] = (key, verdict)

    def save(self) -> None:
        self.file.save(self.files)


def _texts(value: Any) -> list[str] | None:
    return [str(v) for v in value] if isinstance(value, list) else None


def _entry(stored: Any) -> tuple[str, Verdict] | None:
    if not isinstance(stored, dict) or not isinstance(stored.get("key"), str):
        return None
    problems, hints = _texts(stored.get("problems")), _texts(stored.get("hints"))
    return None if problems is None or hints is None else (stored["key"], (problems, hints))


def _dump(entry: tuple[str, Verdict]) -> dict[str, Any]:
    key, (problems, hints) = entry
    return {"key": key, "problems": problems, "hints": hints}


def load(config: Config, catalog: Catalog) -> ExampleMemo:
    """The memo for this catalog: its entries count under this pygen, with this list of node
    types and these document keys (the memo's own key)."""
    path = cache.cache_dir(config) / FILE
    key = cache.digest_json({"version": VERSION, "code": cache.code_id(),
                             # (the extras hold the conventions)
                             "types": sorted(catalog.specs), "extras": catalog.extras})
    memo = MemoFile.open(path, key)
    return ExampleMemo(memo, memo.section("files", _entry, _dump), catalog)
