"""Package imports only components use are left out of the program, and nothing read changes.

The project is a React-style editor in miniature: each node's definition names an icon of an
installed icon package and the node's component, whose file imports a UI package in JSX.
Neither package is read. A data type that uses a package's interface or a DOM type, and a
default value that is a package's constant, are still read exactly: the run notices it
needed what it left out and reads the catalog again with every import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_run import cli_extract, extractor_reply

PACKAGES = {
    "node_modules/demo-icons/package.json": json.dumps(
        {"name": "demo-icons", "types": "index.d.ts"}),
    "node_modules/demo-icons/index.d.ts": (
        "export interface IconProps { size?: number }\n"
        "export type Icon = (props: IconProps) => unknown;\n"
        "export declare const Star: Icon;\nexport declare const Bolt: Icon;\n"),
    "node_modules/demo-ui/package.json": json.dumps({"name": "demo-ui", "types": "index.d.ts"}),
    "node_modules/demo-ui/index.d.ts": (
        "export declare function Panel(props: { title: string }): unknown;\n"
        "export declare function memo<T>(component: T): T;\n"),
    "node_modules/demo-render/package.json": json.dumps(
        {"name": "demo-render", "types": "index.d.ts"}),
    "node_modules/demo-render/index.d.ts": (
        "/** How a frame is rendered. */\nexport interface RenderSettings {\n"
        "  /** Frames per second. */\n  fps: number;\n  codec: \"h264\" | \"av1\";\n}\n"
        "export declare const DEFAULT_CODEC = \"av1\";\n"
        "export declare function RenderMark(props: object): unknown;\n"
        "export declare function runRender(): void;\n"),
}

DEFINITION = """import {{ {icon} }} from "demo-icons";
import {{ {name}Node }} from "./{name}Node";
{extra_import}
/** What the {slug} node edits. */
export interface {name}Data {{
  /** Title on the canvas. */
  label: string;
{extra_field}}}

export const {var}Definition = {{
  type: "{slug}",
  label: "{name}",
  icon: {icon},
  component: {name}Node,
  inputs: ["in"],
  outputs: ["out"],
  defaultData: {{ label: "{name}"{extra_default} }} as {name}Data,
}};
"""

COMPONENT = """import {{ Panel, memo }} from "demo-ui";
import type {{ {name}Data }} from "./definition";

function View({{ data }}: {{ data: {name}Data }}) {{
  return <Panel title={{data.label}} />;
}}

export const {name}Node = memo(View);
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def node_files(slug: str, extra_import: str = "", extra_field: str = "",
               extra_default: str = "") -> dict[str, str]:
    name = "".join(p.capitalize() for p in slug.split("-"))
    var = name[0].lower() + name[1:]
    folder = f"src/nodes/{slug}"
    return {
        f"{folder}/definition.ts": DEFINITION.format(
            icon="Star", name=name, slug=slug, var=var, extra_import=extra_import,
            extra_field=extra_field, extra_default=extra_default),
        f"{folder}/{name}Node.tsx": COMPONENT.format(name=name),
    }


def project(root: Path, nodes: dict[str, dict[str, str]]) -> None:
    files = dict(PACKAGES)
    for parts in nodes.values():
        files.update(parts)
    names = ["".join(p.capitalize() for p in slug.split("-")) for slug in nodes]
    pairs = zip(names, nodes, strict=True)
    imports = "".join(f'import {{ {n[0].lower() + n[1:]}Definition }} from '
                      f'"./nodes/{slug}/definition";\n' for n, slug in pairs)
    items = ", ".join(f"{n[0].lower() + n[1:]}Definition" for n in names)
    files["src/registry.ts"] = f"{imports}\nexport const NODE_DEFINITIONS = [{items}];\n"
    files["tsconfig.json"] = json.dumps({"compilerOptions": {
        "strict": True, "noEmit": True, "jsx": "preserve", "module": "esnext",
        "moduleResolution": "bundler", "target": "es2022"}, "include": ["src"]})
    files["pygen.toml"] = 'nodes_file = "src/registry.ts"\n'
    write(root, files)


def nodes_read(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The nodes without the entry keys pygen does not read (`skipped`): with the components'
    files left out too, a component's key is skipped silently, whatever a read of its file
    would call it (tests/extract/test_component_files.py)."""
    return [{k: v for k, v in n.items() if k != "skipped"} for n in doc["nodes"]]


def by_type(doc: dict[str, Any]) -> dict[str, Any]:
    return {n["type"]: n for n in doc["nodes"]}


@pytest.mark.slow
def test_component_only_packages_are_left_out_and_nothing_read_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"star-node": node_files("star-node"), "bolt-node": node_files("bolt-node")})
    left_out = extractor_reply(tmp_path, every=False)
    every = extractor_reply(tmp_path, every=True)
    # The components' files are left out too, so their UI package is never even resolved.
    assert left_out["program"]["deferred"] == ["demo-icons"]
    assert left_out["program"]["own_files_left_out"] == 2
    assert not left_out["program"]["every"]
    assert left_out["program"]["files"] < every["program"]["files"]
    assert nodes_read(left_out) == nodes_read(every)
    assert left_out["sources"] == every["sources"]
    # No warning says an import it left out cannot be resolved.
    assert not [d for d in left_out["diagnostics"] if "resolve" in d["message"]]
    # Through the CLI: the same nodes, with their data types read.
    nodes = by_type(cli_extract(tmp_path, monkeypatch))
    assert [f["name"] for f in nodes["star-node"]["data_type"]["fields"]] == ["label"]
    assert nodes["bolt-node"]["default_data"] == {"label": "BoltNode"}


@pytest.mark.slow
def test_a_data_type_using_a_package_interface_is_read_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    render = node_files(
        "render-node", extra_import='import type { RenderSettings } from "demo-render";\n',
        extra_field="  /** How the result is rendered. */\n  render: RenderSettings;\n")
    project(tmp_path, {"render-node": render, "star-node": node_files("star-node")})
    reply = extractor_reply(tmp_path, every=False)
    # The package the data type names was needed: the run read every import.
    assert reply["program"]["every"]
    assert nodes_read(reply) == nodes_read(extractor_reply(tmp_path, every=True))
    field = by_type(cli_extract(tmp_path, monkeypatch))["render-node"]["data_type"]["fields"][1]
    assert field["name"] == "render" and field["type_text"] == "RenderSettings"
    assert [f["name"] for f in field["type"]["fields"]] == ["fps", "codec"]
    assert not [d for d in reply["diagnostics"] if "resolve" in d["message"]]


@pytest.mark.slow
def test_a_default_value_from_a_package_is_read_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    codec = node_files(
        "codec-node", extra_import='import { DEFAULT_CODEC } from "demo-render";\n',
        extra_field="  codec: string;\n", extra_default=", codec: DEFAULT_CODEC")
    project(tmp_path, {"codec-node": codec})
    reply = extractor_reply(tmp_path, every=False)
    assert reply["program"]["every"]
    node = by_type(cli_extract(tmp_path, monkeypatch))["codec-node"]
    assert node["default_data"] == {"label": "CodecNode", "codec": "av1"}


@pytest.mark.slow
def test_a_data_type_using_a_browser_type_is_read_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    upload = node_files("upload-node", extra_field="  /** The picked file. */\n  file: File;\n")
    project(tmp_path, {"upload-node": upload})
    reply = extractor_reply(tmp_path, every=False)
    # The browser's libraries stay in the program: a DOM type needs no second read.
    assert not reply["program"]["every"]
    assert not [d for d in reply["diagnostics"] if "resolve" in d["message"]]
    assert nodes_read(reply) == nodes_read(extractor_reply(tmp_path, every=True))
    field = by_type(cli_extract(tmp_path, monkeypatch))["upload-node"]["data_type"]["fields"][1]
    assert field["name"] == "file" and field["type_text"] == "File"


def test_a_computed_value_of_its_own_is_read_once(tmp_path: Path) -> None:
    seeded = node_files("seed-node", extra_field="  seed: number;\n",
                        extra_default=", seed: Math.floor(Math.random() * 1000)")
    project(tmp_path, {"seed-node": seeded})
    reply = extractor_reply(tmp_path, every=False)
    # Computed, of a type the checker names: nothing left out was needed.
    assert not reply["program"]["every"]
    assert [c["type_text"] for c in reply["nodes"][0]["computed"]] == ["number"]
    assert nodes_read(reply) == nodes_read(extractor_reply(tmp_path, every=True))


@pytest.mark.slow
def test_a_package_left_out_in_one_file_is_still_read_where_another_file_needs_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    codec = node_files(
        "codec-node", extra_import='import { DEFAULT_CODEC, runRender } from "demo-render";\n'
        "const CODEC = DEFAULT_CODEC;\nconst handler = runRender;\n",
        extra_field="  codec: string;\n  onRun: () => void;\n",
        extra_default=", codec: CODEC, onRun: handler")
    # The definition names its component's type, so the component's file stays in the program.
    mark = node_files("mark-node", extra_import='import type { MarkNodeNode as View } from '
                      '"./MarkNodeNode";\nexport type MarkView = typeof View;\n')
    component = "src/nodes/mark-node/MarkNodeNode.tsx"
    mark[component] = ('import { RenderMark } from "demo-render";\n'
                       + mark[component].replace("<Panel title={data.label} />",
                                               "<><RenderMark /><Panel title={data.label} /></>"))
    project(tmp_path, {"codec-node": codec, "mark-node": mark})
    reply = extractor_reply(tmp_path, every=False)
    # Left out where only JSX uses it, read where constants take its values: one read.
    assert "demo-render" in reply["program"]["deferred"] and not reply["program"]["every"]
    every = extractor_reply(tmp_path, every=True)
    assert nodes_read(reply) == nodes_read(every)
    # Only the note on keys pygen does not read says where an icon's value comes from.
    def read(doc: dict[str, Any]) -> list[dict[str, Any]]:
        return [d for d in doc["diagnostics"] if d["kind"] != "skipped"]
    assert read(reply) == read(every)
    node = by_type(cli_extract(tmp_path, monkeypatch))["codec-node"]
    assert node["default_data"]["codec"] == "av1"
