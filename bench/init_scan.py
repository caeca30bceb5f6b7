"""`pygen init` on a large generated app: how long it takes and where the time goes.

`python -m bench.init_scan [--files N] [--nodes K]`

The app: N ordinary TypeScript files (components and services whose functions hold locals
shaped like definitions: never candidates), K node definitions in one file each, a registry
array importing them all, and a second, smaller registry of a few of them (a part, not a
rival). Prints the wall time of `init`, of its text scan alone, the candidates and the pick.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pygen.init import scan

SERVICE = """import {{ helper{j} }} from "./helper{j}";

export interface Row{i} {{ id: string; value: number }}

export function load{i}(rows: Row{i}[]): Row{i}[] {{
  const returnData = [{{ type: "row", inputs: [], defaultData: {{}} }}];
  const updatedConfig = {{ type: "cfg", outputs: [], data: {{ rows }} }};
  for (const row of rows) {{
    const newItem = {{ type: "item", inputs: [row.id], data: row }};
    returnData.push(newItem as never);
  }}
  return rows.filter((row) => row.value > {i} && helper{j}(updatedConfig));
}}
"""
HELPER = "export function helper{j}(value: unknown): boolean {{ return value != null; }}\n"
NODE = """export interface Node{k}Data {{
  /** Setting {k}. */
  level: number;
}}

export const Node{k}Registry = {{
  type: "node-{k}",
  inputs: ["in"],
  outputs: ["out"],
  defaultData: {{ level: {k} }} as Node{k}Data,
}};
"""


def write_app(root: Path, files: int, nodes: int) -> None:
    (root / "src" / "services").mkdir(parents=True)
    (root / "src" / "nodes").mkdir()
    for i in range(files):
        j = i % 50
        (root / "src" / "services" / f"service{i}.ts").write_text(SERVICE.format(i=i, j=j))
    for j in range(50):
        (root / "src" / "services" / f"helper{j}.ts").write_text(HELPER.format(j=j))
    names = [f"Node{k}Registry" for k in range(nodes)]
    for k in range(nodes):
        (root / "src" / "nodes" / f"node{k}.ts").write_text(NODE.format(k=k))
    imports = "".join(f'import {{ {n} }} from "./nodes/node{k}";\n' for k, n in enumerate(names))
    (root / "src" / "registry.ts").write_text(
        imports + f"export const nodeRegistries = [{', '.join(names)}];\n"
        f"export const FEATURED = [{', '.join(names[:3])}];\n")
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "target": "ES2022", "module": "ESNext", '
        '"moduleResolution": "bundler", "noEmit": true}, "include": ["src"]}\n')


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.init_scan")
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--nodes", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_app(root, args.files, args.nodes)
        start = time.perf_counter()
        found = scan.scan(root)
        scanned = time.perf_counter() - start
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pygen", "init"], cwd=root, text=True,
                              capture_output=True, check=False,
                              env={**os.environ, "PYTHONPATH": str(Path.cwd())})
        total = time.perf_counter() - start
    print(f"{args.files + 50 + args.nodes + 1} files, {args.nodes} nodes: text scan "
          f"{scanned:.2f} s ({len(found)} candidate(s): "
          f"{', '.join(f'{c.name} ({c.entries})' for c in found)}); init {total:.2f} s, "
          f"exit {done.returncode}")
    print(done.stdout.splitlines()[0] if done.stdout else done.stderr)


if __name__ == "__main__":
    main()
