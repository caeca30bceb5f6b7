"""A synthetic npm-workspaces monorepo shaped like a large real editor: one ~9,000-line nodes
file of ~190 node types whose data types build on ~200 files of two workspace packages.

Neither package is built: `@bench/core` points `types` at dist/index.d.ts and `@bench/media`
points its `exports` there, and no dist/ exists, as in a fresh checkout or a CI job. The types
are what real catalogs hold: unions of 10-60 model names, `Omit` chains over settings with an
index signature, intersections, JSDoc on every field.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench import origin_shape
from bench.synth import TSCONFIG, pascal

FILES_PER_PACKAGE = 100
VENDORS = ("flux", "sdxl", "kling", "runway", "veo", "luma", "pika", "ideogram", "imagen",
           "recraft")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _models(k: int) -> list[str]:
    count = 10 + (k * 7) % 51  # 10 to 60 members
    return [f"{VENDORS[(k + j) % len(VENDORS)]}-v{j}.{k % 10}" for j in range(count)]


def core_file(k: int) -> str:
    models = "\n  | ".join(json.dumps(m) for m in _models(k))
    return f"""// Models and shared settings of family {k}.

/** A model of family {k}, as the backend names it. */
export type Model{k} =
  | {models};

/** Settings every node of family {k} carries. */
export interface Base{k} {{
  /** Title shown on the node header. */
  label: string;
  /** Set by the runner; never by hand. */
  internalId: string;
  /** Credits the last run used. */
  creditsUsed?: number;
  /** ISO time of the last run. */
  lastRunAt?: string;
  executionStatus?: "idle" | "queued" | "running" | "done" | "failed";
}}
"""


def media_file(k: int) -> str:
    formats = " | ".join(json.dumps(f"fmt{k}-{j}") for j in range(12))
    return f"""// Media settings of kind {k}.

export type Format{k} = {formats};

/** Output settings; panels may store keys of their own. */
export interface MediaSettings{k} {{
  [key: string]: unknown;
  /** Container format. */
  format: Format{k};
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Frames per second (video) or 0. */
  fps: number;
  /** Kept for old workflows. @deprecated use `format` */
  legacyFormat?: string;
  /** Where the result lands. @result */
  outputUrl?: string;
  quality: "draft" | "standard" | "high";
  watermark: boolean;
}}
"""


def node_type_decl(i: int) -> str:
    name = pascal(f"synth-node-{i}")
    k, j = i % FILES_PER_PACKAGE, (i * 3) % FILES_PER_PACKAGE
    doc = f"""
/**
 * Data of the {name} node: what its panel edits.
 * Every field is documented as the panel shows it.
 */"""
    body = f"""  /** What the node works on. */
  prompt: string;
  /** Backend model. */
  model: Model{k};
  /** Steps per run. @default 30 */
  steps: number;
  /** -1 picks a new seed on every run. */
  seed: number;
  negativePrompt?: string;
  tags: string[];
  size: {{ width: number; height: number }};
  /**
   * How strongly the prompt steers the result.
   * @default 7
   */
  guidance: number;
  /** Images per run. */
  batchSize: number;
  /** @result */
  resultUrl{i}?: string;"""
    base = f'Omit<Base{k}, "internalId">'
    if i % 3 == 0:
        media = f'Omit<MediaSettings{j}, "legacyFormat" | "fps">'
        return f"{doc}\nexport type {name}Data = {media}\n  & {base} & {{\n{body}\n}};\n"
    return f"{doc}\nexport interface {name}Data extends {base} {{\n{body}\n}}\n"


def node_entry(i: int) -> str:
    k, j = i % FILES_PER_PACKAGE, (i * 3) % FILES_PER_PACKAGE
    media = (f'      format: "fmt{j}-0",\n      width: 1024,\n      height: 1024,\n'
             '      quality: "standard",\n      watermark: false,\n') if i % 3 == 0 else ""
    return f"""  {{
    type: "synth-node-{i}",
    label: "Synth Node {i}",
    category: "{("input", "image", "video", "audio", "logic", "utility")[i % 6]}",
    creditCost: {i % 7},
    inputs: ["in", "prompt"],
    outputs: ["out"],
    defaultData: {{
      label: "Synth Node {i}",
      prompt: "",
      model: "{_models(k)[0]}",
      steps: {10 + i % 40},
      seed: -1,
      tags: [],
      size: {{ width: 1024, height: {512 + i % 4 * 128} }},
      guidance: 7,
      batchSize: 1,
{media}    }},
  }},
"""


def nodes_file(n: int, origin: bool = False) -> str:
    """The catalog; `origin` adds what bench/origin_shape.py says the origin app holds."""
    core = ", ".join(f"Base{k}, Model{k}" for k in range(FILES_PER_PACKAGE))
    media = ", ".join(f"MediaSettings{k}" for k in range(FILES_PER_PACKAGE))
    head = (f"// The editor's node catalog.\nimport type {{ {core} }} from \"@bench/core\";\n"
            f"import type {{ {media} }} from \"@bench/media\";\n")
    if origin:
        head += origin_shape.nodes_head(n)

    def layered(i: int) -> bool:
        return origin and i % 7 == 0

    types = "".join(origin_shape.origin_type(i) if layered(i) else node_type_decl(i)
                    for i in range(n))
    entries = "".join(origin_shape.origin_entry(i) if layered(i) else node_entry(i)
                      for i in range(n))
    return f"{head}{types}\nexport const NODE_DEFINITIONS = [\n{entries}];\n"


def _package(root: Path, name: str, manifest: dict[str, object], folder: str,
             files: dict[str, str]) -> None:
    pkg = root / "packages" / name.split("/")[1]
    _write(pkg / "package.json", json.dumps({"name": name, "private": True, **manifest}, indent=2))
    index = "".join(f'export * from "./{folder}/{stem}";\n' for stem in files)
    _write(pkg / "src" / "index.ts", index)
    for stem, text in files.items():
        _write(pkg / "src" / folder / f"{stem}.ts", text)


def write_monorepo(root: Path, n: int = 190, modules: Path | None = None) -> Path:
    """The monorepo under root; returns its pygen.toml. With `modules` (installed packages:
    bench/heavy_app.py), the origin app's layers too (bench/origin_shape.py)."""
    _write(root / "package.json", json.dumps(
        {"name": "bench-editor", "private": True, "workspaces": ["apps/*", "packages/*"]},
        indent=2))
    _package(root, "@bench/core", {"main": "./dist/index.js", "types": "./dist/index.d.ts"},
             "models", {f"m{k}": core_file(k) for k in range(FILES_PER_PACKAGE)})
    _package(root, "@bench/media", {"type": "module", "exports": {
        ".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}}},
             "kinds", {f"k{k}": media_file(k) for k in range(FILES_PER_PACKAGE)})
    app = root / "apps" / "editor"
    _write(app / "package.json", json.dumps({"name": "@bench/editor", "private": True}, indent=2))
    _write(app / "tsconfig.json", json.dumps(TSCONFIG, indent=2))
    _write(app / "src" / "nodes.ts", nodes_file(n, origin=modules is not None))
    if modules is not None:
        origin_shape.add_packages(root, modules)
    _write(root / "pygen.toml", 'nodes_file = "apps/editor/src/nodes.ts"\nskills_dir = "skills"\n')
    return root / "pygen.toml"
