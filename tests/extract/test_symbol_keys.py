"""A property keyed by a symbol (`[Symbol.iterator]`) is named as written. Inside the checker it
is `__@iterator@<n>`, n counted over every symbol the process made: a skill named it by that
count, so an unrelated file added to the program renamed it (a real 336-block editor's data
read `__@toPrimitive@43302`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_run import cli_extract

NODES = """{head}
/** What the list node edits. */
export interface ListData {{
  title: string;
  items: {{ [Symbol.iterator](): Iterator<string>; size: number }};
}}

export const NODE_DEFINITIONS = [
  {{ type: "list", label: "List", inputs: [], outputs: ["out"],
    defaultData: {{ title: "List" }} as ListData }},
];
"""

# Declares symbols of its own, before the nodes file's are made.
OTHER = "".join(f"export interface Extra{i} {{ [Symbol.iterator](): Iterator<number> }}\n"
                for i in range(40))


def members(root: Path, monkeypatch: pytest.MonkeyPatch, head: str) -> list[str]:
    root.mkdir()
    (root / "nodes.ts").write_text(NODES.format(head=head), encoding="utf-8")
    (root / "other.ts").write_text(OTHER, encoding="utf-8")
    (root / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    doc: dict[str, Any] = cli_extract(root, monkeypatch)
    items = next(f for f in doc["nodes"][0]["data_type"]["fields"] if f["name"] == "items")
    return sorted(m["name"] for m in items["type"]["fields"])


def test_a_symbol_keyed_property_is_named_as_written_whatever_else_the_program_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alone = members(tmp_path / "a", monkeypatch, "")
    beside = members(tmp_path / "b", monkeypatch, 'import type { Extra0 } from "./other";\n'
                     "export type Kept = Extra0;\n")
    assert alone == beside == ["[Symbol.iterator]", "size"]
