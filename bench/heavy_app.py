"""A synthetic Next.js editor shaped like a real 187-node media editor: one definition file per
node beside its React component, over real packages installed from the npm registry.

Each node folder holds `definition.ts` (the `*Data` type and the catalog entry, whose `icon`
is a lucide-react icon and whose `component` is the node's component) and `<Name>Node.tsx`
(React, @xyflow/react handles, lucide icons, the app's UI kit, sometimes `next/image`). A sixth
of the data types are `z.infer` of a zod schema, so one package the data truly needs is in the
program. Pages, hooks and stores the catalog never reaches sit beside them, and the tsconfig
is a Next.js app's (lib dom, jsx preserve, `@/*` paths, bundler resolution, `next-env.d.ts`).

The packages (pinned below) are installed once into `~/.cache/pygen-bench/heavy-app` and
linked into each generated app as its node_modules.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from bench.synth import pascal

NODES = 187
# Files of the app beside the catalog (pages, API routes, hooks, panels).
APP_FILES = 600
PACKAGES = ("react@19.3.1", "react-dom@19.3.1", "@types/react@19.3.3",
            "@types/react-dom@19.3.0", "lucide-react@1.81.0", "@xyflow/react@12.12.1",
            "zod@4.6.7", "next@16.4.6")
CACHE = Path.home() / ".cache" / "pygen-bench" / "heavy-app"
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2017", "lib": ["dom", "dom.iterable", "esnext"], "allowJs": True,
        "skipLibCheck": True, "strict": True, "noEmit": True, "esModuleInterop": True,
        "module": "esnext", "moduleResolution": "bundler", "resolveJsonModule": True,
        "isolatedModules": True, "jsx": "preserve", "incremental": True,
        "plugins": [{"name": "next"}], "paths": {"@/*": ["./src/*"]},
    },
    "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts"],
    "exclude": ["node_modules"],
}
KINDS = ("image", "video", "audio", "text", "logic", "utility")
ICONS = ("Image", "Video", "Music", "Type", "GitBranch", "Wrench", "Sparkles", "Wand2",
         "Layers", "Scissors", "Palette", "Mic", "Film", "Crop", "Filter", "Shuffle")
MODELS = ("flux-pro", "flux-dev", "sdxl", "imagen-4", "kling-2", "runway-gen4", "veo-3",
          "luma-ray", "eleven-v3", "suno-4", "gpt-image", "ideogram-3", "recraft-v3")


def install(cache: Path = CACHE) -> Path:
    """The installed packages' node_modules (installed on first use)."""
    modules = cache / "node_modules"
    if (modules / "next" / "package.json").is_file():
        return modules
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "package.json").write_text(json.dumps({"name": "bench-heavy-app", "private": True}))
    subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                    "--legacy-peer-deps", "--omit=optional", "--loglevel=error", *PACKAGES],
                   cwd=cache, check=True, timeout=1800)
    return modules


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def slug(i: int) -> str:
    return f"{KINDS[i % len(KINDS)]}-step-{i}"


def _models(i: int) -> str:
    count = 3 + i % 9
    return " | ".join(json.dumps(MODELS[(i + j) % len(MODELS)]) for j in range(count))


def _data_type(i: int, name: str) -> str:
    if i % 6 == 5:
        return f"""import {{ z }} from "zod";

/** What the {slug(i)} node's panel edits; the schema also validates saved workflows. */
export const {name[0].lower() + name[1:]}Schema = z.object({{
  label: z.string(),
  prompt: z.string(),
  strength: z.number().min(0).max(1),
  mode: z.enum(["fast", "balanced", "quality"]),
  seeds: z.array(z.number()).optional(),
}});

export type {name}Data = z.infer<typeof {name[0].lower() + name[1:]}Schema>;
"""
    extra = ("  /** Output size. */\n  aspectRatio: AspectRatio;\n" if i % 2 else
             "  /** Extra instructions. */\n  negativePrompt?: string;\n")
    return f"""/** What the {slug(i)} node's panel edits. */
export interface {name}Data extends GenerationData {{
  /** What the node works on. */
  prompt: string;
  /** Backend model. */
  model: {_models(i)};
  /** Steps per run. @default 30 */
  steps: number;
  /** -1 picks a new seed on every run. */
  seed: number;
{extra}  /** Where the result lands. @result */
  outputUrl{i}?: string;
}}
"""


def definition(i: int) -> str:
    name = pascal(slug(i))
    zod = i % 6 == 5
    types = "" if zod else 'import type { AspectRatio, GenerationData } from "@/lib/nodes/base";\n'
    icon = ICONS[i % len(ICONS)]
    data = ('label: "{0}", prompt: "", strength: 0.5, mode: "balanced"' if zod else
            'label: "{0}", prompt: "", model: "{1}", steps: 30, seed: -1'
            + (', aspectRatio: "1:1"' if i % 2 else ""))
    data = data.format(name, MODELS[i % len(MODELS)])
    return f"""import {{ {icon}, {ICONS[(i + 3) % len(ICONS)]} as Alt }} from "lucide-react";
import type {{ NodeDefinition }} from "@/lib/nodes/types";
{types}import {{ {name}Node }} from "./{name}Node";

{_data_type(i, name)}
export const {name[0].lower() + name[1:]}Definition: NodeDefinition<{name}Data> = {{
  type: "{slug(i)}",
  label: "{name}",
  category: "{KINDS[i % len(KINDS)]}",
  description: "Step {i}: turns its inputs into a new {KINDS[i % len(KINDS)]}.",
  icon: {icon},
  badgeIcon: Alt,
  component: {name}Node,
  inputs: ["prompt"{', "image"' if i % 3 else ""}],
  outputs: ["{KINDS[i % len(KINDS)]}"],
  defaultData: {{ {data} }},
}};
"""


def component(i: int) -> str:
    name = pascal(slug(i))
    image = ('import Image from "next/image";\n' if i % 4 == 0 else "")
    preview = ('      {data.label && <Image src="/p.png" alt="" width={64} height={64} />}\n'
               if i % 4 == 0 else "")
    return f""""use client";

import {{ memo, useCallback, useState }} from "react";
import {{ Handle, Position, useReactFlow, type Node, type NodeProps }} from "@xyflow/react";
import {{ {ICONS[i % len(ICONS)]}, Loader2, Play }} from "lucide-react";
{image}import {{ Button }} from "@/components/ui/button";
import {{ Card }} from "@/components/ui/card";
import type {{ {name}Data }} from "./definition";

function {name}NodeView({{ id, data }}: NodeProps<Node<{name}Data>>) {{
  const {{ updateNodeData }} = useReactFlow();
  const [busy, setBusy] = useState(false);
  const run = useCallback(() => {{
    setBusy(true);
    updateNodeData(id, {{ label: data.label }});
  }}, [id, data.label, updateNodeData]);
  return (
    <Card title={{data.label}}>
      <Handle type="target" position={{Position.Left}} id="prompt" />
      <{ICONS[i % len(ICONS)]} className="h-4 w-4" />
{preview}      <Button onClick={{run}} disabled={{busy}}>
        {{busy ? <Loader2 className="animate-spin" /> : <Play />}}
      </Button>
      <Handle type="source" position={{Position.Right}} id="out" />
    </Card>
  );
}}

export const {name}Node = memo({name}NodeView);
"""


SHARED = {
    "src/lib/nodes/types.ts": """import type { ComponentType } from "react";
import type { LucideIcon } from "lucide-react";
import type { NodeProps } from "@xyflow/react";

export type NodeCategory = "image" | "video" | "audio" | "text" | "logic" | "utility";

/** One node type of the editor. */
export interface NodeDefinition<T extends Record<string, unknown> = Record<string, unknown>> {
  type: string;
  label: string;
  category: NodeCategory;
  description?: string;
  icon: LucideIcon;
  badgeIcon?: LucideIcon;
  component: ComponentType<NodeProps>;
  inputs: string[];
  outputs: string[];
  defaultData: T;
}
""",
    "src/lib/nodes/base.ts": """export type AspectRatio = "1:1" | "16:9" | "9:16" | "4:3";

/** Fields every generation node carries. */
export interface GenerationData {
  [key: string]: unknown;
  /** Title shown on the node header. */
  label: string;
  /** Where the node is in the current run. @runner */
  executionStatus?: "idle" | "running" | "done" | "failed";
}
""",
    "src/components/ui/button.tsx": """import * as React from "react";

export function Button(props: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type="button" {...props} />;
}
""",
    "src/components/ui/card.tsx": """import type { ReactNode } from "react";

export function Card({ title, children }: { title: string; children?: ReactNode }) {
  return <section aria-label={title}>{children}</section>;
}
""",
    "next-env.d.ts": """/// <reference types="next" />
/// <reference types="next/image-types/global" />
""",
}


def pages(count: int) -> dict[str, str]:
    """Files of the app the catalog never reaches: pages, API routes, hooks and stores, in
    equal parts (a page per four files)."""
    out = {}
    for k in range(count // 4, count):
        out.update(_app_file(k))
    for k in range(count // 4):
        out[f"src/app/section-{k}/page.tsx"] = f"""import Link from "next/link";
import {{ ReactFlow, Background, Controls }} from "@xyflow/react";
import {{ Home }} from "lucide-react";

export default function Page{k}() {{
  return (
    <main>
      <Link href="/"><Home /></Link>
      <ReactFlow nodes={{[]}} edges={{[]}}><Background /><Controls /></ReactFlow>
    </main>
  );
}}
"""
    return out


def _app_file(k: int) -> dict[str, str]:
    if k % 3 == 0:
        return {f"src/app/api/jobs-{k}/route.ts": f"""import {{ NextResponse }} from "next/server";
import type {{ NextRequest }} from "next/server";
import {{ z }} from "zod";

const body{k} = z.object({{
  nodeId: z.string(),
  inputs: z.record(z.string(), z.unknown()),
}});

/** Starts job kind {k} for one node of a workflow. */
export async function POST(request: NextRequest) {{
  const parsed = body{k}.safeParse(await request.json());
  if (!parsed.success) {{
    return NextResponse.json({{ error: parsed.error.message }}, {{ status: 400 }});
  }}
  return NextResponse.json({{ id: `job-{k}-${{parsed.data.nodeId}}` }});
}}
"""}
    if k % 3 == 1:
        return {f"src/hooks/use-panel-{k}.ts": f"""import {{ useCallback, useEffect, useMemo,
  useState }} from "react";
import {{ useReactFlow, useNodes, type Node }} from "@xyflow/react";

/** Panel state {k}: the selected nodes and a debounced filter. */
export function usePanel{k}(filter: string) {{
  const nodes = useNodes();
  const {{ fitView }} = useReactFlow();
  const [query, setQuery] = useState(filter);
  useEffect(() => {{
    const timer = setTimeout(() => setQuery(filter), 200);
    return () => clearTimeout(timer);
  }}, [filter]);
  const selected = useMemo(() => nodes.filter((n: Node) => n.selected && n.id.includes(query)),
    [nodes, query]);
  const focus = useCallback(() => fitView({{ nodes: selected }}), [fitView, selected]);
  return {{ selected, focus }};
}}
"""}
    return {f"src/components/panels/Panel{k}.tsx": f""""use client";

import {{ useState }} from "react";
import {{ Settings, X }} from "lucide-react";
import {{ Button }} from "@/components/ui/button";
import {{ usePanel{k - 1} }} from "@/hooks/use-panel-{k - 1}";

export function Panel{k}({{ onClose }}: {{ onClose: () => void }}) {{
  const [filter, setFilter] = useState("");
  const {{ selected, focus }} = usePanel{k - 1}(filter);
  return (
    <aside>
      <Settings />
      <input value={{filter}} onChange={{(e) => setFilter(e.target.value)}} />
      <Button onClick={{focus}}>{{selected.length}} selected</Button>
      <Button onClick={{onClose}}><X /></Button>
    </aside>
  );
}}
"""}


def registry(n: int) -> str:
    imports = "".join(
        f'import {{ {pascal(slug(i))[0].lower() + pascal(slug(i))[1:]}Definition }} '
        f'from "@/nodes/{slug(i)}/definition";\n' for i in range(n))
    items = "".join(f"  {pascal(slug(i))[0].lower() + pascal(slug(i))[1:]}Definition,\n"
                    for i in range(n))
    return (f'import type {{ NodeDefinition }} from "./types";\n{imports}\n'
            f"/** Every node type of the editor. */\n"
            f"export const NODE_DEFINITIONS = [\n{items}] as NodeDefinition[];\n")


def write_app(root: Path, n: int = NODES, modules: Path | None = None,
              app_files: int = APP_FILES) -> Path:
    """The app under root, its node_modules linked to `modules`; returns its pygen.toml."""
    files = {**SHARED, **pages(app_files), "src/lib/nodes/registry.ts": registry(n)}
    for i in range(n):
        folder = f"src/nodes/{slug(i)}"
        files[f"{folder}/definition.ts"] = definition(i)
        files[f"{folder}/{pascal(slug(i))}Node.tsx"] = component(i)
    for rel, text in files.items():
        _write(root / rel, text)
    _write(root / "tsconfig.json", json.dumps(TSCONFIG, indent=2))
    _write(root / "package.json", json.dumps({"name": "heavy-editor", "private": True}))
    if modules is not None and not (root / "node_modules").exists():
        os.symlink(modules, root / "node_modules")
    _write(root / "pygen.toml",
           'nodes_file = "src/lib/nodes/registry.ts"\nskills_dir = "skills"\n')
    return root / "pygen.toml"
