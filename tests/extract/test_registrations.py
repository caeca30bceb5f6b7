"""`definitions = "registrations:<library>"`: the extractor reads the node types a project
hands to its canvas library (js/lib/registrations.cjs, shapes in js/lib/registries.json).
Only files importing the library count; a type must be a literal, a constant or a loop
variable over a static array, else it is "not declared": one warning, no node."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_run import cli_extract, run


def project(root: Path, library: str, files: dict[str, str]) -> Path:
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    first = next(iter(files))
    (root / "pygen.toml").write_text(
        f'nodes_file = "{first}"\ndefinitions = "registrations:{library}"\n', encoding="utf-8")
    return root


def extracted(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    doc: dict[str, Any] = cli_extract(root, monkeypatch)
    return [n["type"] for n in doc["nodes"]], [d["message"] for d in doc["diagnostics"]]


def types_of(tmp_path: Path, library: str, files: dict[str, str],
             monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The node types a fresh project of `files` registers with `library`, in order."""
    return extracted(project(tmp_path / "p", library, files), monkeypatch)[0]


LITE = 'import { LiteGraph } from "litegraph.js";\nclass A {}\n'


def test_literal_constant_and_loops_over_static_arrays(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "litegraph", {"reg.ts": LITE + """
const KIND = "math/mul";
const MORE = ["io/in", "io/out"];
LiteGraph.registerNodeType("math/sum", A);
LiteGraph.registerNodeType(KIND, A);
for (const t of ["basic/a", "basic/b"]) LiteGraph.registerNodeType(t, A);
MORE.forEach((name) => LiteGraph.registerNodeType(name, A));
LiteGraph.registerNodeType("math/sum", A);
"""})
    types, _ = extracted(root, monkeypatch)
    # In the order written, each once: a repeated registration is the same node type.
    assert types == ["math/sum", "math/mul", "basic/a", "basic/b", "io/in", "io/out"]


def test_a_computed_type_is_not_declared_and_the_rest_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "litegraph", {"reg.ts": LITE + """
declare function pick(): string;
declare const names: string[];
LiteGraph.registerNodeType("math/sum", A);
LiteGraph.registerNodeType(pick(), A);
for (const n of names) LiteGraph.registerNodeType(n, A);
"""})
    types, messages = extracted(root, monkeypatch)
    assert types == ["math/sum"]
    undeclared = [m for m in messages if "is not declared" in m]
    assert len(undeclared) == 2, messages
    assert any("pick()" in m and "a function call" in m for m in undeclared)
    assert any("a loop over what is not a static array" in m for m in undeclared)


def test_a_file_not_importing_the_library_is_no_registration(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert types_of(tmp_path, "litegraph", {
        "reg.ts": LITE + 'import "./other";\nLiteGraph.registerNodeType("real/one", A);\n',
        "other.ts": "export const LiteGraph = { registerNodeType(n: string) { return n; } };\n"
                    'LiteGraph.registerNodeType("fake/one");\n'}, monkeypatch) == ["real/one"]


def test_logicflow_objects_default_exported_and_edges_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert types_of(tmp_path, "logicflow", {
        "setup.ts": 'import LogicFlow from "@logicflow/core";\nimport card from "./card";\n'
                    'import wire from "./wire";\n'
                    "export function setup(lf: LogicFlow) {\n  lf.register(card);\n"
                    '  lf.register(wire);\n  lf.register("old-style", () => ({}));\n}\n',
        "card.ts": 'import { RectNode, RectNodeModel } from "@logicflow/core";\n'
                   "class CardModel extends RectNodeModel {}\n"
                   'export default { type: "card", view: RectNode, model: CardModel };\n',
        "wire.ts": 'import { BezierEdge, BezierEdgeModel } from "@logicflow/core";\n'
                   "class WireModel extends BezierEdgeModel {}\n"
                   'export default { type: "wire", view: BezierEdge, model: WireModel };\n'},
        monkeypatch) == ["card", "old-style"]


def test_a_keyed_type_and_the_definitions_static_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "x6-shape", {"shapes.ts": """
import { register } from "@antv/x6-react-shape";
function Card(): null { return null; }
register({ shape: "fetch", component: Card, label: "Fetch URL", data: { url: "" } });
"""})
    (root / "pygen.toml").write_text((root / "pygen.toml").read_text()
                                     + '[entry_fields]\ndefault_data = "data"\n')
    doc: dict[str, Any] = cli_extract(root, monkeypatch)
    [node] = doc["nodes"]
    assert (node["type"], node["label"], node["default_data"]) == (
        "fetch", "Fetch URL", {"url": ""})


def test_a_call_restricted_by_its_category_argument(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert types_of(tmp_path, "g6", {"reg.ts": """
import { ExtensionCategory, register } from "@antv/g6";
class Card {}
register(ExtensionCategory.NODE, "card", Card);
register(ExtensionCategory.EDGE, "wire", Card);
"""}, monkeypatch) == ["card"]


def test_a_type_map_annotated_in_use_memo_or_given_to_the_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "react-flow", {
        "canvas.ts": 'import { useMemo } from "react";\n'
                     'import type { NodeTypes } from "@xyflow/react";\n'
                     "declare const A: unknown;\n"
                     "export const useTypes = () => useMemo<NodeTypes>(() => ({ a: A }), []);\n"
                     'export const more: NodeTypes = { b: A, "c-d": A };\n',
        "vue.ts": 'import { useVueFlow } from "@vue-flow/core";\ndeclare const V: unknown;\n'
                  "useVueFlow({ nodeTypes: { v: V } });\n",
        "app.tsx": 'import { useMemo } from "react";\nimport { ReactFlow } from "@xyflow/react";\n'
                   "declare const M: unknown;\n"
                   "export const App = () =>\n"
                   "  <ReactFlow nodeTypes={useMemo(() => ({ m: M }), [])} />;\n"})
    (root / "pygen.toml").write_text(
        'nodes_file = "canvas.ts"\ndefinitions = "registrations:react-flow"\n')
    types, _ = extracted(root, monkeypatch)
    # `useMemo<NodeTypes>(…)` in a hook is no annotated constant; handed to <ReactFlow> it is.
    assert sorted(types) == ["b", "c-d", "m", "v"]


def test_an_unknown_library_is_one_line_naming_the_known_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "nosuchlib", {"reg.ts": LITE})
    result = run(root, "extract", monkeypatch=monkeypatch)
    assert result.exit_code != 0
    assert "registrations:nosuchlib" in result.output and "litegraph" in result.output
    assert "Traceback" not in result.output


def test_a_registered_components_props_name_its_data_type(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "react-flow", {
        "canvas.ts": 'import type { NodeTypes } from "@xyflow/react";\n'
                     'import Prompt from "./prompt";\nimport { Render, Plain } from "./render";\n'
                     "export const nodeTypes: NodeTypes = { prompt: Prompt, render: Render,"
                     " plain: Plain };\n",
        "prompt.ts": 'import { memo } from "react";\n'
                     'import type { Node, NodeProps } from "@xyflow/react";\n'
                     "export interface PromptSettings { prompt: string; temperature?: number }\n"
                     "function Prompt(_: NodeProps<Node<PromptSettings, 'prompt'>>) {"
                     " return null; }\nexport default memo(Prompt);\n",
        "render.ts": 'import type { NodeProps } from "reactflow";\n'
                     "export interface RenderSettings { width: number }\n"
                     "export const Render = ({ data }: NodeProps<RenderSettings>) =>\n"
                     "  data && null;\n"
                     "export const Plain = () => null;\n"})
    doc: dict[str, Any] = cli_extract(root, monkeypatch)
    found = {n["type"]: (n["data_type"]["name"], [f["name"] for f in n["data_type"]["fields"]])
             for n in doc["nodes"]}
    # Named by neither convention (`PromptData`…): only the component's props say so.
    assert found == {"prompt": ("PromptSettings", ["prompt", "temperature"]),
                     "render": ("RenderSettings", ["width"]), "plain": (None, [])}


@pytest.mark.matrix
@pytest.mark.parametrize(("library", "text", "types"), [
    ("x6", 'import { Graph } from "@antv/x6";\n'
           'Graph.registerNode("lane", { inherit: "rect", label: "Lane" }, true);\n'
           'graph.registerNode("not-static-graph", {});\n', ["lane"]),
    ("drawflow", 'import Drawflow from "drawflow";\ndeclare const editor: Drawflow;\n'
                 'editor.registerNode("card", Card, {}, {});\ndeclare const Card: unknown;\n',
     ["card"]),
    ("baklava", 'import { Editor } from "@baklavajs/core";\nconst editor = new Editor();\n'
                "class MathNode {}\n"
                'editor.registerNodeType("MathNode", MathNode, "Math");\n'
                "editor.registerNodeType(MathNode);\n", ["MathNode"]),
])
def test_positional_registrations_of_other_libraries(
        library: str, text: str, types: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", library, {"reg.ts": text})
    found, messages = extracted(root, monkeypatch)
    assert found == types
    if library == "baklava":  # Baklava 2 passes the class alone: its type is no argument
        assert any("registerNodeType(MathNode)" in m and "not declared" in m for m in messages)


def test_a_literal_type_inside_a_loop_over_run_time_data_is_read_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p", "litegraph", {"reg.ts": LITE + """
declare const plugins: string[];
plugins.forEach(() => LiteGraph.registerNodeType("plugin/host", A));
for (const n of []) LiteGraph.registerNodeType(n, A);
"""})
    types, messages = extracted(root, monkeypatch)
    assert types == ["plugin/host"]
    assert not [m for m in messages if "not declared" in m], messages
