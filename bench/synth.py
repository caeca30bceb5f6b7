"""Synthetic TypeScript projects of N node types, shaped like real node catalogs.

Two layouts: `write_flat` puts everything in one nodes.ts (the generator-core benchmark);
`write_workspace` spreads it over three app files and two workspace packages, with enums
and value lists imported across packages (the extraction benchmark).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

CATEGORIES = ("input", "ai", "video", "audio", "logic", "utility")
PROVIDERS = ("flux", "flux-pro", "sdxl", "imagen", "kling", "runway", "veo", "eleven")
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022", "lib": ["ES2022"], "module": "ESNext",
        "moduleResolution": "bundler", "strict": True, "noEmit": True, "types": [],
    },
}

# Writes a project of N node types under a folder; returns its pygen.toml.
Writer = Callable[[Path, int], Path]


def pascal(node_type: str) -> str:
    return "".join(part.capitalize() for part in node_type.split("-"))


def node_type(i: int) -> str:
    return f"synth-node-{i}"


def interface(i: int, provider: str, quality: str, codec: str) -> str:
    name = pascal(node_type(i))
    return f"""
/** Data of {node_type(i)}. */
export interface {name}Data extends BaseNodeData {{
  /** What the node works on. */
  prompt: string;
  /** Backend that runs the job. */
  provider: {provider};
  quality: {quality};
  codec?: {codec};
  /**
   * Steps per run.
   * @default 30
   */
  steps: number;
  seed?: number;
  size: {{ width: number; height: number }};
  tags: string[];
  /** @result */
  outputUrl{i}?: string;
}}
"""


def entry(i: int, defaults: str, codec: str) -> str:
    return f"""  {{
    type: "{node_type(i)}",
    label: "Synth Node {i}",
    category: "{CATEGORIES[i % len(CATEGORIES)]}",
    creditCost: {i % 7},
    inputs: ["in", "prompt"],
    outputs: ["out"],
    defaultData: {{
      ...{defaults},
      label: "Synth Node {i}",
      prompt: "",
      provider: "{PROVIDERS[i % len(PROVIDERS)]}",
      codec: {codec}.{("H264", "H265", "AV1")[i % 3]},
      steps: {10 + i % 40},
      seed: -1,
      size: {{ width: 1024, height: {512 + i % 4 * 128} }},
      tags: [],
    }},
  }},
"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _enums_source() -> str:
    providers = " | ".join(json.dumps(p) for p in PROVIDERS)
    return f"""export type Provider = {providers};

export const QUALITIES = ["draft", "standard", "high"] as const;
export type Quality = (typeof QUALITIES)[number];

export enum Codec {{
  H264 = "h264",
  H265 = "h265",
  AV1 = "av1",
}}
"""


def write_flat(root: Path, n: int) -> Path:
    """One nodes.ts with everything in it; returns the pygen.toml."""
    head = _enums_source() + """
export interface BaseNodeData {
  /** Title shown on the node header. */
  label: string;
  executionStatus?: "idle" | "running" | "done" | "failed";
}

const BASE_DEFAULTS = { executionStatus: "idle", quality: "standard" };
"""
    body = "".join(interface(i, "Provider", "Quality", "Codec") for i in range(n))
    entries = "".join(entry(i, "BASE_DEFAULTS", "Codec") for i in range(n))
    _write(root / "src" / "nodes.ts",
           f"{head}{body}\nexport const NODE_DEFINITIONS = [\n{entries}];\n")
    _write(root / "tsconfig.json", json.dumps(TSCONFIG, indent=2))
    _write(root / "pygen.toml", 'nodes_file = "src/nodes.ts"\nskills_dir = "skills"\n')
    return root / "pygen.toml"


def write_workspace(root: Path, n: int) -> Path:
    """An app of three files over two workspace packages; returns the pygen.toml."""
    _write(root / "package.json", json.dumps(
        {"name": "bench", "private": True, "workspaces": ["apps/*", "packages/*"]}, indent=2))
    # @bench/enums: resolved through its package.json `exports`, no link in node_modules.
    _write(root / "packages" / "enums" / "package.json", json.dumps({
        "name": "@bench/enums", "private": True, "type": "module",
        "exports": {".": {"types": "./src/index.ts", "default": "./dist/index.js"}}}, indent=2))
    _write(root / "packages" / "enums" / "src" / "index.ts", _enums_source())
    # @bench/shared: resolved through tsconfig `paths`.
    _write(root / "packages" / "shared" / "package.json", json.dumps(
        {"name": "@bench/shared", "private": True, "types": "./src/index.ts"}, indent=2))
    _write(root / "packages" / "shared" / "src" / "index.ts", """\
import { Codec } from "@bench/enums";

export interface BaseNodeData {
  /** Title shown on the node header. */
  label: string;
  executionStatus?: "idle" | "running" | "done" | "failed";
  preferredCodec?: Codec;
}

export const BASE_DEFAULTS = { executionStatus: "idle", preferredCodec: Codec.H264 };
""")
    app = root / "apps" / "web"
    tsconfig = json.loads(json.dumps(TSCONFIG))
    tsconfig["compilerOptions"]["paths"] = {"@bench/shared": ["../../packages/shared/src/index.ts"]}
    _write(app / "tsconfig.json", json.dumps(tsconfig, indent=2))
    _write(app / "package.json", json.dumps({"name": "@bench/web", "private": True}, indent=2))
    types = ['import type { BaseNodeData } from "@bench/shared";',
             'import type { Codec, Provider, Quality } from "@bench/enums";', ""]
    types += [interface(i, "Provider", "Quality", "Codec") for i in range(n)]
    _write(app / "src" / "types.ts", "\n".join(types))
    _write(app / "src" / "defaults.ts", """import { BASE_DEFAULTS } from "@bench/shared";

export const NODE_DEFAULTS = { ...BASE_DEFAULTS, quality: "standard" };
""")
    entries = "".join(entry(i, "NODE_DEFAULTS", "Codec") for i in range(n))
    _write(app / "src" / "nodes.ts", f"""import {{ Codec }} from "@bench/enums";
import {{ NODE_DEFAULTS }} from "./defaults";
export type * from "./types";

export const NODE_DEFINITIONS = [
{entries}];
""")
    _write(root / "pygen.toml", 'nodes_file = "apps/web/src/nodes.ts"\nskills_dir = "skills"\n')
    return root / "pygen.toml"
