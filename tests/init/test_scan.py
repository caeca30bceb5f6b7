"""The catalog candidate scan and the config text `pygen init` writes."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pygen.config import EntryFields, Settings
from pygen.init import configfile, scan
from pygen.init.toplevel import TopLevel

APP = '''
import { t } from "./i18n";
// const NOT_THIS = [{ type: "x", inputs: [] }];
export const THEMES = [{ name: "dark", colors: { bg: "#000" } }];
const label = "a } tricky ] string";
export const IMAGE_NODES: NodeSpec[] = [
  { type: "generate-image", label: t("Image {n}"), inputs: ["prompt"], outputs: ["image"] },
  { type: `upscale`, label: "Up", inputs: ["image"], outputs: ["image"], defaultData: {} },
];
export const NODE_DEFINITIONS = [...IMAGE_NODES, ...AUDIO_NODES] as const;
export const PARTS = [...THEMES];
export const BY_TYPE = {
  note: { label: "Note", inputs: [], outputs: [], defaultData: { text: "" } },
  [NodeType.Upscale]: { label: "Upscale", inputs: ["image"], outputs: ["image"] },
} satisfies Record<string, NodeDefinition>;
export const KINDS = [{ kind: "x", ports: [] }];
'''


def found() -> dict[str, scan.Candidate]:
    return {c.name: c for c in scan.scan_text(APP, Path("app.ts"))}


def test_arrays_of_typed_entries_objects_keyed_by_type_and_spreads_are_candidates() -> None:
    candidates = found()
    assert sorted(candidates) == ["BY_TYPE", "IMAGE_NODES", "KINDS", "NODE_DEFINITIONS", "PARTS"]
    assert (candidates["IMAGE_NODES"].entries, candidates["IMAGE_NODES"].line) == (2, 6)
    assert candidates["BY_TYPE"].form == "object" and candidates["BY_TYPE"].type_key is None
    assert candidates["KINDS"].type_key == "kind"
    assert candidates["NODE_DEFINITIONS"].spreads == ("IMAGE_NODES", "AUDIO_NODES")


def test_roots_drop_the_parts_of_a_catalog_and_spreads_of_nothing_known() -> None:
    roots = [c.name for c in scan.roots(list(found().values()))]
    assert roots == ["NODE_DEFINITIONS", "BY_TYPE", "KINDS"]


def test_dependencies_build_output_and_tests_are_not_read(tmp_path: Path) -> None:
    for rel in ("src/nodes.ts", "node_modules/lib/nodes.ts", "dist/nodes.ts", "tests/x/n.ts",
                "src/nodes.test.ts", "src/types.d.ts", ".cache/nodes.ts"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("export const N = [{ type: 'a', inputs: [] }];\n")
    assert [c.path.relative_to(tmp_path).as_posix() for c in scan.scan(tmp_path)] == [
        "src/nodes.ts"]


def found_config(**settings: object) -> configfile.Found:
    return configfile.Found(Settings.model_validate({"nodes_file": "src/nodes.ts", **settings}),
                            3, "tsconfig.json", False)


def test_pygen_toml_sets_what_differs_from_the_defaults_and_comments_the_rest() -> None:
    text = configfile.pygen_toml(found_config(definitions="NODES", foreign_blocks=["x"],
                                              entry_fields=EntryFields(type="kind")))
    assert tomllib.loads(text) == {"nodes_file": "src/nodes.ts", "definitions": "NODES",
                                   "foreign_blocks": ["x"], "entry_fields": {"type": "kind"}}
    assert '# skills_dir = "skills"' in text and '# tsconfig = "tsconfig.json"' in text
    assert "(3 node(s) found)" in text


def test_pyproject_gets_a_table_appended_and_keeps_every_byte_before_it() -> None:
    before = '[project]\nname = "app"\n# a comment\n[tool.ruff]\nline-length = 100'
    text = configfile.in_pyproject(before, found_config(entry_fields=EntryFields(type="kind")))
    assert text.startswith(before + "\n\n[tool.pygen]\n")
    data = tomllib.loads(text)
    assert data["tool"]["pygen"] == {"nodes_file": "src/nodes.ts", "entry_fields": {"type": "kind"}}
    assert data["tool"]["ruff"] == {"line-length": 100}


def test_registration_calls_are_one_candidate_anchored_where_the_function_is(
        tmp_path: Path) -> None:
    (tmp_path / "registry.ts").write_text(
        "export function registerNode(spec: NodeSpec): void {}\n")
    (tmp_path / "nodes.ts").write_text(
        'import { registerNode } from "./registry";\n'
        'registerNode({ type: "a", label: "A", inputs: [], outputs: ["x"] });\n'
        "registerNode(\n  {\n    type: 'b', defaultData: {} },\n  { hidden: true },\n);\n"
        "registerNode(existing);\nregistry.registerNode({ type: 'c', inputs: [] });\n")
    found = scan.scan(tmp_path)
    # `registry.registerNode(…)` is a call of it too (the extractor reads it); `existing` is
    # no definition the project declares.
    assert [(c.name, c.path.name, c.entries) for c in found] == [
        ("call:registerNode", "registry.ts", 3)]


BUILT = '''
const OPS: readonly Op[] = ["add", "sub"];
const opNode = (op: Op): NodeDefinition => ({
  type: `op-${op}`, inputs: ["a"], outputs: ["r"], defaultData: { op },
});
const printNode: NodeDefinition = { type: "print", inputs: ["v"], outputs: [] };
export const NODES = [
  ...OPS.map(opNode),
  printNode,
  ...loadPlugins(),
];
export const TEXT = (["upper", "lower"] as const).map((t) => ({
  type: `text-${t}`, inputs: ["text"], defaultData: { t },
}));
export const LABELS = OPS.map((op) => ({ label: op }));
'''


def test_catalogs_built_by_map_over_a_helper_or_a_callback_are_candidates() -> None:
    found = {c.name: c for c in scan.scan_text(BUILT, Path("nodes.ts"))}
    assert sorted(found) == ["NODES", "TEXT"]
    assert (found["NODES"].entries, found["TEXT"].type_key) == (2, "type")


CLASS = '''
export class Merge implements INodeType {
  description: INodeTypeDescription = {
    name: "merge", displayName: "Merge", inputs: ["main"], outputs: ["main"],
  };
  options = { retries: 3 };
}
export class Later {
  readonly description: INodeTypeDescription;
  constructor() {
    this.description = { name: "later", inputs: [], outputs: ["main"] };
  }
}
'''


def test_class_properties_holding_definitions_are_one_class_candidate(tmp_path: Path) -> None:
    (tmp_path / "Merge.node.ts").write_text(CLASS)
    found = scan.scan(tmp_path)
    assert [(c.name, c.form, c.entries, c.type_key) for c in found] == [
        ("class:description", "class", 2, "name")]


def test_one_exported_definition_per_sibling_file_is_a_glob_source(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "index.ts").write_text("export interface Def { type: string }\n")
    for name in ("node-http", "node-delay"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "plugin.ts").write_text(
            'import type { Def } from "../core/index";\n'
            f'export const definition: Def = {{ type: "{name}", inputs: [], outputs: [] }};\n')
    found = scan.scan(tmp_path)
    assert [(c.name, c.path.name, c.entries) for c in found] == [
        ("node-*/plugin.ts:definition", "index.ts", 2)]


START_TS = '''export const StartNode = {
  type: "start",
  outputs: ["out"],
  defaultData: { greeting: "hi" } as StartData,
};
'''


def test_registries_of_imported_definitions_are_candidates(tmp_path: Path) -> None:
    (tmp_path / "nodes").mkdir()
    (tmp_path / "nodes" / "start.ts").write_text(START_TS)
    (tmp_path / "nodes" / "end.ts").write_text(
        START_TS.replace("StartNode", "EndNode").replace('"start"', '"end"'))
    (tmp_path / "registry.ts").write_text(
        'import { StartNode } from "./nodes/start";\n'
        'import { EndNode as Finish } from "./nodes/end";\n'
        "export const nodeRegistries = [StartNode, Finish];\n"
        "export const BLOCKS = { [StartNode.type]: StartNode, end: Finish };\n"
        "export const NAMES = [title, other];\n")
    found = {c.name: c for c in scan.scan(tmp_path)}
    assert (found["nodeRegistries"].form, found["nodeRegistries"].entries) == ("array", 2)
    assert (found["BLOCKS"].form, found["BLOCKS"].entries) == ("object", 2)
    assert "NAMES" not in found


def test_registration_calls_of_imported_definitions_are_one_candidate(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        folder = tmp_path / "nodes" / name
        folder.mkdir(parents=True)
        (folder / "definition.ts").write_text(
            START_TS.replace("StartNode", "definition").replace('"start"', f'"{name}"'))
        (folder / "index.ts").write_text('import { definition } from "./definition";\n'
                                         "registry.registerNodeType(definition);\n")
    found = [c for c in scan.scan(tmp_path) if c.form == "call"]
    assert [(c.name, c.entries) for c in found] == [("call:registerNodeType", 3)]


def test_function_locals_are_never_candidates() -> None:
    text = ("export function run() {\n"
            "  const returnData = [{ type: 'x', inputs: [], defaultData: {} }];\n"
            "  return returnData;\n}\n"
            "export const NODES = [{ type: 'y', inputs: [], defaultData: {} }];\n")
    assert [c.name for c in scan.scan_text(text, Path("a.ts"))] == ["NODES"]


def test_braces_in_strings_and_comments_do_not_hide_the_top_level() -> None:
    text = ('const open = "{" + \'{\' + `{`; // {\n/* { */\n'
            'const escaped = "\\\\"; const quote = "\\"{";\n'
            "function f() { const local = [{ type: 'x', inputs: [] }]; }\n"
            "export const NODES = [{ type: 'y', inputs: [], defaultData: {} }];\n")
    top = TopLevel(text)
    assert top.at(text.index("export const NODES"))
    assert not top.at(text.index("const local"))
    assert [c.name for c in scan.scan_text(text, Path("a.ts"))] == ["NODES"]


def test_a_registry_of_described_definitions_is_a_candidate(tmp_path: Path) -> None:
    for name in ("start", "end"):
        (tmp_path / f"{name}.ts").write_text(
            f"export const {name.title()}Registry: Registry = {{\n"
            f"  type: '{name}',\n  meta: {{ deletable: false }},\n  formMeta,\n}};\n")
    (tmp_path / "index.ts").write_text(
        "import { StartRegistry } from './start';\nimport { EndRegistry } from './end';\n"
        "export const registries: Registry[] = [StartRegistry, EndRegistry];\n")
    assert [(c.name, c.entries) for c in scan.scan(tmp_path)] == [("registries", 2)]
