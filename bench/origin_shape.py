"""What the origin app holds beyond bench/synth_monorepo.py, written over it: what made the
real app's cold extract 4-5x slower than the plain monorepo's.

Measured on the origin app (bench.origin_app), its program is 494 files, 6.8 MB: TypeScript's
DOM lib (2.1 MB, from the tsconfig's `lib`), React's types and csstype (1.1 MB, reached by
`import type { Node } from "@xyflow/react"` for the app's node type), a prompts package of
large text constants (1.6 MB) whose barrel `export *`s every module though the definitions
import five default-data constants, and a shared package (1 MB) of named re-exports, zod
schemas whose `z.infer` types are data types, and a registry of `as const satisfies
Strategy<...>` entries with zod config schemas whose ids type one data field: the checker
relates zod's generic types to type that field (0.7 s on the real app). This module writes
each of those, in that shape, into a monorepo from `write_monorepo`; the packages come from
the heavy app's npm cache (bench/heavy_app.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bench.synth import pascal

PROMPT_FILES = 80
# About 20 KB of prompt text per module, as the origin's prompt packages hold.
PROMPT_LINES = 160
SCHEMA_FILES = 30
STRATEGIES = 6
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2017", "lib": ["dom", "dom.iterable", "esnext"], "strict": True,
        "noEmit": True, "module": "esnext", "moduleResolution": "bundler",
        "skipLibCheck": True, "jsx": "react-jsx",
    },
    "include": ["src"],
}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def prompt_module(k: int) -> str:
    lines = "".join(f'  "Step {j} of preset {k}: describe the subject, its light, lens and mood '
                    f'in one sentence that a model reads as an instruction ({j}).",\n'
                    for j in range(PROMPT_LINES))
    return f"""/** Prompt presets of family {k}. */
export const PRESET_{k}_LINES = [
{lines}] as const;

export interface Preset{k} {{
  id: string;
  text: string;
  weight: number;
}}

export const PRESET_{k}_DEFAULT_DATA = {{ preset: "p{k}", weight: 1 }};

export function buildPrompt{k}(subject: string): string {{
  return PRESET_{k}_LINES.map((line) => line.replace("subject", subject)).join(" ");
}}
"""


def schema_module(k: int) -> str:
    return f"""import {{ z }} from "zod";

export const settings{k}Schema = z.object({{
  mode: z.enum(["fast", "balanced", "quality"]),
  strength: z.number().min(0).max(1),
  captions: z.array(z.object({{ at: z.number(), text: z.string() }})).optional(),
  meta: z.record(z.string(), z.string()).default({{}}),
}});

/** What the panel of family {k} stores. */
export type Settings{k} = z.infer<typeof settings{k}Schema>;
"""


def strategy_registry() -> str:
    entries = "".join(f"""const STRATEGY_{k} = {{
  id: "strategy-{k}",
  label: "Strategy {k}",
  configSchema: z.object({{ level: z.number().default({k}), note: z.string().default("") }}),
  defaultConfig: {{ level: {k}, note: "" }},
}} as const satisfies Strategy<{{ level: number; note: string }}>;

""" for k in range(STRATEGIES))
    names = ", ".join(f"STRATEGY_{k}" for k in range(STRATEGIES))
    return f"""import {{ z, type ZodType }} from "zod";

export type Strategy<TConfig = unknown> = {{
  readonly id: string;
  readonly label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly configSchema: ZodType<TConfig, any>;
  readonly defaultConfig: TConfig;
}};

{entries}export const STRATEGIES = [{names}] as const;

export type StrategyId = typeof STRATEGIES[number]["id"];
"""


def _shared_barrel() -> str:
    named = "".join(f'export {{ settings{k}Schema, type Settings{k} }} from "./schemas/s{k}";\n'
                    for k in range(SCHEMA_FILES))
    return f'{named}export * from "./strategies";\n'


def nodes_head(n: int) -> str:
    """Imports and types the origin's nodes file adds over the plain monorepo's."""
    defaults = ", ".join(f"PRESET_{k}_DEFAULT_DATA" for k in range(5))
    settings = ", ".join(f"Settings{k % SCHEMA_FILES}" for k in range(0, n, 7))
    return (f'import type {{ Node, Edge }} from "@xyflow/react";\n'
            f'import {{ {defaults} }} from "@bench/prompts";\n'
            f'import type {{ StrategyId, {settings} }} from "@bench/shared";\n'
            "export type AppNode = Node<Record<string, unknown>>;\nexport type AppEdge = Edge;\n")


def origin_type(i: int) -> str:
    """Every seventh node's data is a zod schema's type; one names the registry's ids."""
    name = pascal(f"synth-node-{i}")
    if i == 0:
        return (f"\nexport interface {name}Data {{\n  label: string;\n"
                "  /** How the candidates are merged. */\n  strategyId: StrategyId;\n}\n")
    return (f"\nexport type {name}Data = Settings{i % SCHEMA_FILES}\n"
            "  & { label: string; preset: string; weight: number };\n")


def origin_entry(i: int) -> str:
    """The entry of a node whose data `origin_type` declares."""
    data = ('label: "Synth Node 0", strategyId: "strategy-0"' if i == 0 else
            f'label: "Synth Node {i}", mode: "fast", strength: 0.5, meta: {{}}, '
            f"...PRESET_{i % 5}_DEFAULT_DATA")
    return f"""  {{
    type: "synth-node-{i}",
    label: "Synth Node {i}",
    category: "logic",
    inputs: ["in"],
    outputs: ["out"],
    defaultData: {{ {data} }},
  }},
"""


def add_packages(root: Path, modules: Path) -> None:
    """The prompts and shared packages and the installed packages, as the app links them."""
    prompts = root / "packages" / "prompts"
    _write(prompts / "package.json", json.dumps(
        {"name": "@bench/prompts", "private": True, "types": "./dist/index.d.ts"}))
    _write(prompts / "src" / "index.ts", "".join(
        f'export * from "./p{k}";\n' for k in range(PROMPT_FILES)))
    for k in range(PROMPT_FILES):
        _write(prompts / "src" / f"p{k}.ts", prompt_module(k))
    shared = root / "packages" / "shared"
    _write(shared / "package.json", json.dumps(
        {"name": "@bench/shared", "private": True, "types": "./dist/index.d.ts"}))
    _write(shared / "src" / "index.ts", _shared_barrel())
    _write(shared / "src" / "strategies.ts", strategy_registry())
    for k in range(SCHEMA_FILES):
        _write(shared / "src" / "schemas" / f"s{k}.ts", schema_module(k))
    app = root / "apps" / "editor"
    _write(app / "tsconfig.json", json.dumps(TSCONFIG, indent=2))
    if not (root / "node_modules").exists():
        os.symlink(modules, root / "node_modules")
