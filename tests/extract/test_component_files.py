"""The project's own files only components need are left out of the program, and nothing read
changes.

A React-style editor in miniature: each node's definition names its component (`component:
StarNode`), whose file imports a UI kit of the project. Neither is read. Whatever the run
needs from such a file is read exactly, because the run notices and reads again with every
import: a data type declared there (found by its name), a value taken from there, a type the
checker had to look through it for. A file that declares globals is never left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_run import cli_extract, extractor_reply

KIT = {
    "src/ui/panel.tsx": ("export interface PanelProps { title: string }\n"
                         "export function Panel(props: PanelProps) {\n"
                         "  return <section>{props.title}</section>;\n}\n"),
}

COMPONENT = """import {{ Panel }} from "../../ui/panel";
import type {{ {name}Data }} from "./definition";
{extra}
function View({{ data }}: {{ data: {name}Data }}) {{
  return <Panel title={{data.label}} />;
}}

export const {name}Node = wrap(View);

function wrap<T>(component: T): T {{
  return component;
}}
"""

DEFINITION = """import {{ {name}Node{more} }} from "./{name}Node";
{extra_import}
/** What the {slug} node edits. */
export interface {name}Data {{
  /** Title on the canvas. */
  label: string;
{extra_field}}}

export const {var}Definition = {{
  type: "{slug}",
  label: "{name}",
  component: {name}Node,
  inputs: ["in"],
  outputs: ["out"],
  defaultData: {{ label: "{name}"{extra_default} }} as {name}Data,
}};
"""


def names(slug: str) -> tuple[str, str]:
    name = "".join(p.capitalize() for p in slug.split("-"))
    return name, name[0].lower() + name[1:]


def node_files(slug: str, *, more: str = "", extra_import: str = "", extra_field: str = "",
               extra_default: str = "", component_extra: str = "",
               definition: str | None = None) -> dict[str, str]:
    name, var = names(slug)
    folder = f"src/nodes/{slug}"
    text = definition if definition is not None else DEFINITION.format(
        name=name, var=var, slug=slug, more=more, extra_import=extra_import,
        extra_field=extra_field, extra_default=extra_default)
    return {f"{folder}/definition.ts": text,
            f"{folder}/{name}Node.tsx": COMPONENT.format(name=name, extra=component_extra)}


def project(root: Path, nodes: dict[str, dict[str, str]]) -> None:
    files = dict(KIT)
    for parts in nodes.values():
        files.update(parts)
    imports = "".join(f'import {{ {names(slug)[1]}Definition }} from '
                      f'"./nodes/{slug}/definition";\n' for slug in nodes)
    items = ", ".join(f"{names(slug)[1]}Definition" for slug in nodes)
    files["src/registry.ts"] = f"{imports}\nexport const NODE_DEFINITIONS = [{items}];\n"
    files["tsconfig.json"] = json.dumps({"compilerOptions": {
        "strict": True, "noEmit": True, "jsx": "preserve", "module": "esnext",
        "moduleResolution": "bundler", "target": "es2022"}, "include": ["src"]})
    files["pygen.toml"] = 'nodes_file = "src/registry.ts"\n'
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def by_type(doc: dict[str, Any]) -> dict[str, Any]:
    return {n["type"]: n for n in doc["nodes"]}


def read(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The diagnostics about what was read: not the note on entry keys pygen does not read
    (`skipped`), which with the file left out does not name a component's key (a read of the
    file names one made by a call such as `memo(View)`, not one that is a function)."""
    return [d for d in doc["diagnostics"] if d["kind"] != "skipped"]


def nodes_read(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The nodes without the keys not read (see `read`)."""
    return [{k: v for k, v in n.items() if k != "skipped"} for n in doc["nodes"]]


def same_as_every(root: Path, *, needed: bool) -> dict[str, Any]:
    """The reply as pygen runs the extractor, checked against one that reads every import:
    the same nodes, files read and diagnostics; `needed`: whether the run had to read again."""
    reply = extractor_reply(root, every=False)
    every = extractor_reply(root, every=True)
    assert reply["program"]["every"] is needed
    assert nodes_read(reply) == nodes_read(every)
    assert reply["sources"] == every["sources"]
    assert read(reply) == read(every)
    # What each node was read from (the diagnostics' labels follow the diagnostics).
    assert reply["incremental"]["facts"] == every["incremental"]["facts"]
    return reply


@pytest.mark.slow
def test_component_files_are_left_out_and_nothing_read_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"star-node": node_files("star-node"), "bolt-node": node_files("bolt-node")})
    reply = same_as_every(tmp_path, needed=False)
    assert reply["program"]["own_files_left_out"] == 2
    every = extractor_reply(tmp_path, every=True)
    # The two components and the UI kit they import.
    assert reply["program"]["files"] == every["program"]["files"] - 3
    # The files left out are still listed as read: a change to one is a change to the run.
    paths = {s["path"] for s in reply["sources"]}
    assert {"src/nodes/star-node/StarNodeNode.tsx", "src/ui/panel.tsx"} <= paths
    # And belong to the node that imports them, so a change re-reads that node.
    facts = {f["type"]: f["files"] for f in reply["incremental"]["facts"]}
    assert "src/nodes/star-node/StarNodeNode.tsx" in facts["star-node"]
    assert "src/nodes/star-node/StarNodeNode.tsx" not in facts["bolt-node"]
    # A component is not data: its key is skipped silently, as when it is a function.
    assert all(n["skipped"] == [] for n in reply["nodes"])
    assert not [d for d in reply["diagnostics"] if d["kind"] == "skipped"]
    nodes = by_type(cli_extract(tmp_path, monkeypatch))
    assert [f["name"] for f in nodes["star-node"]["data_type"]["fields"]] == ["label"]


@pytest.mark.slow
def test_a_data_type_using_a_type_from_a_component_file_is_read_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shape = ('/** How the result is framed. */\nexport interface Framing {\n'
             '  /** Width over height. */\n  ratio: number;\n  fit: "cover" | "contain";\n}\n')
    framed = node_files("framed-node", more=", type Framing",
                        extra_field="  /** The frame. */\n  framing: Framing;\n",
                        component_extra=shape)
    project(tmp_path, {"framed-node": framed, "star-node": node_files("star-node")})
    # A type of the file is named: the file stays in the program (the other node's component
    # and the UI kit this one uses only in JSX are left out).
    reply = same_as_every(tmp_path, needed=False)
    assert reply["program"]["own_files_left_out"] == 2
    field = by_type(cli_extract(tmp_path, monkeypatch))["framed-node"]["data_type"]["fields"][1]
    assert field["name"] == "framing" and field["type_text"] == "Framing"
    assert [f["name"] for f in field["type"]["fields"]] == ["ratio", "fit"]


@pytest.mark.slow
def test_a_data_type_declared_in_a_component_file_is_found_by_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The definition names no data type; the naming convention finds the one its component's
    # file declares, which only a read of that file can see.
    definition = ('import { GlowNodeNode } from "./GlowNodeNode";\n\n'
                  'export const glowNodeDefinition = {\n  type: "glow-node",\n'
                  '  component: GlowNodeNode,\n  defaultData: { label: "Glow", radius: 4 },\n};\n')
    data = ('/** What the glow node edits. */\nexport interface GlowNodeData {\n'
            '  label: string;\n  /** Blur radius in pixels. */\n  radius: number;\n}\n')
    glow = node_files("glow-node", definition=definition, component_extra=data)
    glow["src/nodes/glow-node/GlowNodeNode.tsx"] = glow[
        "src/nodes/glow-node/GlowNodeNode.tsx"].replace(
        'import type { GlowNodeData } from "./definition";\n', "")
    project(tmp_path, {"glow-node": glow, "star-node": node_files("star-node")})
    same_as_every(tmp_path, needed=True)
    node = by_type(cli_extract(tmp_path, monkeypatch))["glow-node"]
    assert node["data_type"]["name"] == "GlowNodeData"
    assert [f["name"] for f in node["data_type"]["fields"]] == ["label", "radius"]


@pytest.mark.slow
def test_a_default_value_from_a_component_file_is_read_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mode = node_files("mode-node", more=", DEFAULT_MODE", extra_field="  mode: string;\n",
                      extra_default=", mode: DEFAULT_MODE",
                      component_extra='export const DEFAULT_MODE = "fast";\n')
    project(tmp_path, {"mode-node": mode})
    same_as_every(tmp_path, needed=True)
    node = by_type(cli_extract(tmp_path, monkeypatch))["mode-node"]
    assert node["default_data"] == {"label": "ModeNode", "mode": "fast"}


@pytest.mark.slow
def test_a_structural_match_weighs_the_types_of_component_files(tmp_path: Path) -> None:
    # No name, no cast: the lookup compares the default data with every type the project
    # declares, the component file's among them.
    definition = ('import { ShapeNodeNode } from "./ShapeNodeNode";\n\n'
                  'export const shapeNodeDefinition = {\n  type: "shape-node",\n'
                  '  component: ShapeNodeNode,\n'
                  '  defaultData: { corners: 4, stroke: "solid", fill: "none" },\n};\n')
    data = ('export interface Outline {\n  corners: number;\n  stroke: "solid" | "dashed";\n'
            '  fill: string;\n}\n')
    shape = node_files("shape-node", definition=definition, component_extra=data)
    view = "src/nodes/shape-node/ShapeNodeNode.tsx"
    shape[view] = shape[view].replace('import type { ShapeNodeData } from "./definition";\n',
                                      "type Props = { label: string };\n")
    shape[view] = shape[view].replace("ShapeNodeData", "Props")
    project(tmp_path, {"shape-node": shape})
    reply = same_as_every(tmp_path, needed=True)
    assert reply["nodes"][0]["data_type"]["name"] == "Outline"


def test_a_component_file_declaring_globals_stays_in_the_program(tmp_path: Path) -> None:
    ambient = "declare global {\n  interface Window { editorReady?: boolean }\n}\n"
    project(tmp_path, {"star-node": node_files("star-node", component_extra=ambient),
                       "bolt-node": node_files("bolt-node")})
    reply = same_as_every(tmp_path, needed=False)
    # The other component and the UI kit are left out; the file declaring globals is not.
    assert reply["program"]["own_files_left_out"] == 2


def test_a_re_exported_component_stays_in_the_program(tmp_path: Path) -> None:
    # `export { StarNodeNode }`: another file may read it through the definition's file.
    star = node_files("star-node", extra_import="export { StarNodeNode };\n")
    project(tmp_path, {"star-node": star, "bolt-node": node_files("bolt-node")})
    reply = same_as_every(tmp_path, needed=False)
    # The other component, and the UI kit the kept one uses only in JSX.
    assert reply["program"]["own_files_left_out"] == 2


@pytest.mark.slow
def test_a_plain_module_used_only_in_function_bodies_stays(tmp_path: Path) -> None:
    """Only JSX files are left out. A helper module the definition uses only inside a function
    body is kept: the checker types such bodies whenever a return type is inferred, and then
    the run would have to read everything twice."""
    helper = {"src/lib/weights.ts": "export const BASE = 2;\n"
                                    "export function scaled(x: number) { return x * BASE; }\n"}
    star = node_files("star-node", extra_import='import { scaled } from "../../lib/weights";\n'
                      "export function weightOf(x: number) { return scaled(x); }\n")
    project(tmp_path, {"star-node": {**star, **helper}})
    reply = same_as_every(tmp_path, needed=False)
    every = extractor_reply(tmp_path, every=True)
    assert reply["program"]["own_files_left_out"] == 1
    # The component and the UI kit it imports; the helper module is in the program.
    assert reply["program"]["files"] == every["program"]["files"] - 2


@pytest.mark.slow
def test_a_type_that_resolves_nowhere_does_not_make_the_run_read_again(tmp_path: Path) -> None:
    """A data type naming a global the project does not declare (Node's `Buffer` without its
    types installed) is unresolved with or without the component files: the run is not read
    again for it, and reads the same as one with every import."""
    star = node_files("star-node", extra_field="  /** Raw bytes. */\n  raw: Buffer;\n")
    project(tmp_path, {"star-node": star})
    reply = same_as_every(tmp_path, needed=False)
    assert reply["program"]["own_files_left_out"] == 1
    assert any(d["kind"] == "unresolved-type" for d in reply["diagnostics"])
