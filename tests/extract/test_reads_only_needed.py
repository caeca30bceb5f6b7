"""A search of the project (`call:` / `class:` definitions) parses only the files that name
what it searches for: an unrelated file the tsconfig includes never stops the run, and the
cache still notices a call added to any project file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main

BLOCK = """import {{ registerBlock }} from "../register";
export interface Block{i}Data {{ title: string }}
registerBlock({{ type: "block-{i}", label: "Block {i}", inputs: [], outputs: ["out"],
  defaultData: {{ title: "" }} }});
"""


def project(root: Path) -> None:
    files = {
        "src/register.ts": "export function registerBlock(block: object): void { void block; }\n",
        "src/index.ts": 'import "./blocks/a";\nimport "./blocks/b";\n',
        "src/blocks/a.ts": BLOCK.format(i=1),
        "src/blocks/b.ts": BLOCK.format(i=2),
        # Included by the tsconfig, reached by nothing: a file mid-edit, a generated file
        # nested past the parser's stack.
        "src/pages/draft.ts": "export const draft = {\n",
        "src/generated/fixture.ts": "export const f = " + "[" * 3000 + "]" * 3000 + ";\n",
        "tsconfig.json": json.dumps({"compilerOptions": {"strict": True, "noEmit": True},
                                     "include": ["src"]}),
        "pygen.toml": 'nodes_file = "src/index.ts"\ndefinitions = "call:registerBlock"\n',
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_unrelated_broken_files_do_not_stop_a_project_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert sorted(p.stem for p in (tmp_path / "skills" / "nodes").glob("block-*.md")) == [
        "block-1", "block-2"]
    assert CliRunner().invoke(main, ["check"], catch_exceptions=False).exit_code == 0
    # A call written into a file that named nothing before: the cached run must see it.
    (tmp_path / "src" / "pages" / "draft.ts").write_text(BLOCK.format(i=3), encoding="utf-8")
    stale = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    assert stale.exit_code == 1 and "block-3" in stale.output + stale.stderr
