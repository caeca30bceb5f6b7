"""Cold `pygen extract` on an app shaped like a large block editor: a registry of N blocks, one
file per block, among thousands of files the catalog never reaches.

`python -m bench.blocks_app [--blocks 336] [--unrelated 4000] [--mode name|call]`

The app (written under a temporary folder): `src/blocks/<block>.ts` each exports one block
definition and its data type; `src/registry.ts` imports them all into `BLOCKS` (mode `name`),
or each block file calls `registerBlock({...})` (mode `call`, which searches the project).
Beside them: `src/pages/`, `src/components/`, `src/lib/` with thousands of unrelated files,
and `tests/` with deeply nested literals that the tsconfig excludes, one included generated
file nested as deep and one with a syntax error, none of them reached by the catalog. Prints
wall and CPU seconds (this process's children) and how many files the run read. Target: 20 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.synth import TSCONFIG

TARGET = 20.0
KINDS = ("text", "image", "video", "audio", "code", "table")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def block(i: int, mode: str) -> str:
    kind = KINDS[i % len(KINDS)]
    body = f"""{{
  type: "block-{i}",
  label: "Block {i}",
  category: "{kind}",
  inputs: ["{kind}"],
  outputs: ["{KINDS[(i + 1) % len(KINDS)]}"],
  defaultData: {{ title: "Block {i}", size: "md", weight: {i % 9}, tags: [] }},
}}"""
    head = f"""import type {{ BlockBase }} from "../types";

/** Data of block {i}. */
export interface Block{i}Data extends BlockBase {{
  /** Size on the canvas. */
  size: "sm" | "md" | "lg";
  /** Relative weight, 0-9. */
  weight: number;
  tags: string[];
  extra{i}?: {{ enabled: boolean; note?: string }};
}}
"""
    if mode == "call":
        return head + f'import {{ registerBlock }} from "../register";\n\nregisterBlock({body});\n'
    return head + f"\nexport const block{i} = {body};\n"


def unrelated(i: int) -> str:
    return f"""import {{ helper{(i + 1) % 50} }} from "../lib/helper{(i + 1) % 50}";

export interface Props{i} {{ id: string; values: number[]; onChange: (v: number) => void }}

export function Component{i}(props: Props{i}): string {{
  const total = props.values.reduce((a, b) => a + b, 0);
  return `${{props.id}}:${{total}}:${{helper{(i + 1) % 50}(total)}}`;
}}
"""


def deep_literal(depth: int) -> str:
    return "export const fixture = " + "[" * depth + "1" + "]" * depth + ";\n"


def write_app(root: Path, blocks: int, others: int, mode: str) -> Path:
    """The app; returns its pygen.toml."""
    src = root / "src"
    _write(src / "types.ts", "export interface BlockBase {\n  /** Heading. */\n"
           "  title: string;\n}\n")
    _write(src / "register.ts", "export function registerBlock(block: object): void {\n"
           "  void block;\n}\n")
    for i in range(blocks):
        _write(src / "blocks" / f"block{i}.ts", block(i, mode))
    imports = "".join(f'import {{ block{i} }} from "./blocks/block{i}";\n' for i in range(blocks))
    listed = ",\n".join(f"  block{i}" for i in range(blocks))
    _write(src / "registry.ts", f"{imports}\nexport const BLOCKS = [\n{listed},\n];\n")
    for i in range(50):
        _write(src / "lib" / f"helper{i}.ts",
               f"export function helper{i}(n: number): number {{\n  return n * {i};\n}}\n")
    for i in range(others):
        folder = ("pages", "components", "hooks")[i % 3]
        _write(src / folder / f"file{i}.ts", unrelated(i))
    for i in range(20):
        _write(root / "tests" / f"deep{i}.test.ts", deep_literal(3000))
    # Included but never reached by the catalog: a generated file nested past the parser's
    # stack, and a file being edited (a syntax error). Neither may stop the run.
    _write(src / "generated" / "fixture.ts", deep_literal(3000))
    _write(src / "pages" / "draft.ts", "export const draft = {\n")
    tsconfig = json.loads(json.dumps(TSCONFIG))
    tsconfig["include"] = ["src", "tests"]
    tsconfig["exclude"] = ["tests"]
    _write(root / "tsconfig.json", json.dumps(tsconfig, indent=2))
    definitions = "BLOCKS" if mode == "name" else "call:registerBlock"
    _write(root / "pygen.toml", f'nodes_file = "src/registry.ts"\n'
           f'definitions = "{definitions}"\nskills_dir = "skills"\n')
    return root / "pygen.toml"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.blocks_app")
    parser.add_argument("--blocks", type=int, default=336)
    parser.add_argument("--unrelated", type=int, default=4000)
    parser.add_argument("--mode", choices=("name", "call"), default="name")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pygen-blocks-") as tmp:
        config = write_app(Path(tmp), args.blocks, args.unrelated, args.mode)
        cpu, start = _children_cpu(), time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pygen", "extract"], cwd=config.parent,
                              capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"pygen extract failed:\n{done.stderr[-2000:]}")
        model = json.loads(done.stdout)
    files = 3 + args.blocks + 50 + args.unrelated + 22
    verdict = "met" if wall <= TARGET else "not met"
    print(f"{args.blocks} blocks ({args.mode}) among {files} files: {len(model['nodes'])} "
          f"nodes, {len(model['sources'])} sources read")
    print(f"pygen extract: {wall:.2f} s wall, {cpu:.2f} s CPU; target {TARGET:g} s — {verdict}")


if __name__ == "__main__":
    main()
