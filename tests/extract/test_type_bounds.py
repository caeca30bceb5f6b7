"""Recursive and very large types cost a fixed amount: written as their name with one warning,
and a skill file stays small; through the real CLI and the real extractor."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.model import DataField, DataType, Location, NodeDef, TypeRef
from pygen.skills.field_budget import FIELDS_BUDGET
from pygen.skills.render import node_data_shape

MEMBERS = 3000
SIZES = " | ".join(f'"s{i}"' for i in range(MEMBERS))
NODES_TS = f"""
export type Json = string | number | boolean | null | Json[] | {{ [key: string]: Json }};
export type Nested = Nested[] | string;
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
export type Code = `${{Digit}}${{Digit}}${{Digit}}${{Digit}}`;
export type Size = {SIZES};
export interface BigData {{
  label: string;
  payload: Json;
  nested: Nested;
  code: Code;
  size: Size;
  inline: {SIZES};
}}
export const NODE_DEFINITIONS = [
  {{ type: "big", label: "Big", inputs: [], outputs: ["out"],
    defaultData: {{ label: "Big", payload: null, nested: "x", code: "0000", size: "s1",
                   inline: "s2" }} }},
];
"""


def test_recursive_and_huge_types_are_named_once_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nodes.ts").write_text(NODES_TS, encoding="utf-8")
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["gen", "--verbose"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "members are not listed" in line]
    assert any("type 'Json' (recursive) is written as its name" in w for w in warnings)
    assert any("type 'Nested' (recursive)" in w for w in warnings)
    assert any(f"type 'Size' (a union of {MEMBERS} members)" in w for w in warnings)
    assert any("a type (a union of 10000 members) is written as 'string'" in w for w in warnings)
    assert any(f"nodes.ts:13: BigData: a type (a union of {MEMBERS} members)" in w
               for w in warnings)
    assert len(warnings) == len(set(warnings)) == 5, warnings
    skill = (tmp_path / "skills" / "nodes" / "big.md").read_text(encoding="utf-8")
    assert len(skill) < 5000 and max(len(line) for line in skill.splitlines()) < 400
    assert "- `payload: Json`" in skill and "- `size: Size`" in skill
    check = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    assert check.exit_code == 0, check.output
    # Still validated: a size is a string, any string (its 3,000 values are not listed).
    (tmp_path / "wf.json").write_text(
        '{"nodes": [{"id": "a", "type": "big", "position": {"x": 0, "y": 0},'
        ' "data": {"size": 7}}], "edges": []}', encoding="utf-8")
    bad = CliRunner().invoke(main, ["validate-workflow", "wf.json"], catch_exceptions=False)
    assert bad.exit_code == 1 and "expected string, got number" in bad.output


def test_a_data_type_past_the_budget_says_what_was_cut_and_where_it_is() -> None:
    string = TypeRef(kind="string")
    fields = tuple(DataField(name=f"field{i:04}", type_text="string", type=string,
                             description="x" * 80) for i in range(400))
    node = NodeDef(type="wide", label="Wide", source=Location(file="n.ts", line=1),
                   data_type=DataType(name="WideData", via="name", fields=fields))
    text = node_data_shape(node)
    assert FIELDS_BUDGET < len(text) < FIELDS_BUDGET + 3000
    assert "`field0000" in text and "`field0399" not in text
    cut = next(line for line in text.splitlines() if "are left out" in line)
    assert cut.startswith("- … ") and '`$defs["wide"]` in `schemas/nodes.schema.json`' in cut


def test_a_long_written_type_is_shortened_with_a_pointer_and_reads_as_typescript(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A union of object types written one member per line, longer than the text budget: the
    skill shows its first characters, members separated as TypeScript separates them, and says
    where the whole type is; its warning says the same, not that members are missing."""
    models = " | ".join(f'"model-{i}"' for i in range(30))
    (tmp_path / "nodes.ts").write_text(f"""
export interface VoiceData {{
  engine?:
    | {{
        kind: "first"
        model?: {models}
        speed?: number
      }}
    | {{ kind: "second"; voice: string }}
}}
export const NODE_DEFINITIONS = [{{ type: "voice", label: "Voice", defaultData: {{}} }}];
""", encoding="utf-8")
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["gen", "--verbose"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    skill = (tmp_path / "skills" / "nodes" / "voice.md").read_text(encoding="utf-8")
    line = next(x for x in skill.splitlines() if x.startswith("- `engine?:"))
    assert line.startswith('- `engine?: { kind: "first"; model?: "model-0" | ')
    assert "…` — the type is shortened here; `schemas/nodes.schema.json` holds it whole" in line
    # Each shape the union allows is listed whole under the value of its tag.
    shapes = skill[skill.index(line):].splitlines()[1:]
    assert shapes[0] == '  - when `kind` is `"first"`:' and shapes[1] == '    - `kind: "first"`'
    assert '  - when `kind` is `"second"`:' in shapes and '    - `voice: string`' in shapes
    warnings = [x for x in result.stderr.splitlines() if "shortened to its first 300" in x]
    assert any("nodes.ts:4: VoiceData: a type written in" in x for x in warnings), warnings
    assert all("the schema document holds it whole" in x for x in warnings)
    assert "members are not listed" not in result.stderr
    assert CliRunner().invoke(main, ["check"], catch_exceptions=False).exit_code == 0
