"""zod schemas through the CLI: an entry's `schema: z.object(...)` (config `[zod]`) and a type
written `z.infer<typeof schema>` become fields, defaults, descriptions, schema rules and
validation findings; a construct pygen cannot express is one warning naming file:line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import fixture_case as case
from click.testing import CliRunner

from pygen.cli import main
from pygen.config import load_config
from pygen.extract import cache

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"

# A stand-in for an installed zod, written by hand in the shape of its type declarations.
ZOD_TYPES = """\
export interface ZodType<Output = unknown> { readonly _output: Output; }
export type infer<T extends ZodType> = T["_output"];
export type input<T extends ZodType> = T["_output"];
export declare function object<S extends Record<string, ZodType>>(shape: S): ZodType<object>;
export declare function strictObject<S extends Record<string, ZodType>>(shape: S): ZodType;
export declare function string(): ZodType<string>;
export declare function number(): ZodType<number>;
export declare function boolean(): ZodType<boolean>;
export declare function enumValues(values: readonly string[]): ZodType<string>;
export { enumValues as enum };
export * as z from "./index";
"""


def test_schema_fields_reach_the_skill_the_schema_and_validation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("zod-entry", tmp_path, monkeypatch)
    text = (root / "skills" / "nodes" / "http-request.md").read_text()
    assert "**Required data fields** (from `httpSchema`):\n- `url: string` — Address to call" \
        in text
    assert ("- `timeoutMs?: number` — default `30000` — Give up after this many milliseconds"
            in text)  # from the schema it extends, in another file
    assert '- `method?: "GET" | "POST" | "PUT" | "DELETE"` — default `"GET"`' in text
    assert "  - `backoff?: \"linear\" | \"exponential\"`" in text  # nativeEnum, .partial()
    branch = (root / "skills" / "nodes" / "branch.md").read_text()
    assert "discriminated by `mode`" in branch
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    llm = doc["$defs"]["llm"]
    assert llm["required"] == ["model", "prompt"]
    assert llm["properties"]["temperature"] == {
        "type": "number", "default": 0.7, "minimum": 0, "maximum": 2}
    workflow = root / "workflow.json"
    workflow.write_text(json.dumps({"nodes": [
        {"id": "a", "type": "http-request", "position": {"x": 0, "y": 0},
         "data": {"method": "PATCH"}}], "edges": []}), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", str(workflow)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        'error: $.nodes[0].data.method: "PATCH" is not one of "GET", "POST", "PUT", "DELETE"',
        "error: $.nodes[0].data.url: missing required field (string)"]


@pytest.mark.slow
def test_a_construct_pygen_cannot_express_is_one_warning_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("zod-entry", tmp_path, monkeypatch)
    gen = CliRunner().invoke(main, ["gen", "--verbose", "--no-cache"], catch_exceptions=False)
    warnings = [line for line in gen.stderr.splitlines() if "zod schema" in line]
    assert warnings == [
        "warning: nodes.ts:47: node 'script': zod schema 'schema.parsed': .transform() makes a "
        "transformed value, which pygen cannot express; it accepts any value",
        "warning: nodes.ts:48: node 'script': zod schema 'schema.tree': z.lazy() is a lazy "
        "(recursive) schema, which pygen cannot express; it accepts any value",
        "warning: nodes.ts:49: node 'script': zod schema 'schema.url': .refine() is a check "
        "only zod runs; the field keeps its type, without that check",
        "warning: nodes.ts:50: node 'script': zod schema 'schema.tools': a call of a function "
        "pygen does not run; it accepts any value"]
    script = (root / "skills" / "nodes" / "script.md").read_text()
    assert "- `parsed: unknown`" in script and "- `url: string`" in script
    assert '- `language?: "js" | "py"` — default `"js"`' in script  # the rest is read
    strict = CliRunner().invoke(main, ["check", "--strict"], catch_exceptions=False)
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].endswith(
        "; write the schema with zod constructs pygen reads statically or drop --strict")


def test_a_type_written_z_infer_is_read_from_its_schema(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("zod-infer", tmp_path, monkeypatch)
    text = (root / "skills" / "nodes" / "filter.md").read_text()
    assert "**Required data fields** (from `FilterNodeData`):\n- `field: string` — Field to " \
        "compare" in text
    assert ('- `operator?: "equals" | "contains" | "startsWith"` — default `"equals"`'
            in text)
    merge = (root / "skills" / "nodes" / "merge.md").read_text()
    assert '- `strategy: "append" | "zip"` — How inputs are combined' in merge
    assert "- `limit?: number`" in merge  # from the schema .merge() adds


def test_an_installed_zod_reads_the_same(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "zod-infer"
    shutil.copytree(CORPUS / "zod-infer", root, ignore=shutil.ignore_patterns("expected.*"))
    monkeypatch.chdir(root)
    before = CliRunner().invoke(main, ["extract", "--json"], catch_exceptions=False)
    assert before.exit_code == 0 and "zod" not in before.stderr, before.output
    package = root / "node_modules" / "zod"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"name": "zod", "types": "index.d.ts"}')
    (package / "index.d.ts").write_text(ZOD_TYPES)
    shutil.rmtree(cache.cache_dir(load_config(root / "pygen.toml")), ignore_errors=True)
    after = CliRunner().invoke(main, ["extract", "--json"], catch_exceptions=False)
    assert after.exit_code == 0, after.output
    assert json.loads(after.stdout)["nodes"] == json.loads(before.stdout)["nodes"]


def test_a_schema_pygen_cannot_read_leaves_the_node_open_and_the_rest_unchanged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pygen.toml").write_text(
        'nodes_file = "nodes.ts"\ndefinitions = "NODES"\n[zod]\nentry_field = "config.schema"\n')
    (tmp_path / "tsconfig.json").write_text('{"include": ["*.ts"]}')
    (tmp_path / "shapes.ts").write_text(
        'import z from "zod";\nimport { object, string } from "zod";\n'
        'export const base = object({ id: string().describe("Record id") });\n'
        "export const build = () => z.object({ x: z.string() });\n")
    (tmp_path / "nodes.ts").write_text(
        'import { base, build } from "./shapes";\n'
        "export const NODES = [\n"
        '  { type: "fixed", config: { schema: base } },\n'
        '  { type: "built", config: { schema: build() } },\n'
        "];\n")
    monkeypatch.chdir(tmp_path)
    gen = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    assert gen.stderr.splitlines()[0] == (
        "warning: nodes.ts:4: node 'built': zod schema 'config.schema': a call of a function "
        "pygen does not run; it accepts any value")
    fixed = (tmp_path / "skills" / "nodes" / "fixed.md").read_text()
    assert "- `id: string` — Record id" in fixed  # default and named imports of zod
    workflow = tmp_path / "workflow.json"
    workflow.write_text(json.dumps({"nodes": [
        {"id": "a", "type": "built", "position": {"x": 0, "y": 0}, "data": {"anything": 1}},
        {"id": "b", "type": "fixed", "position": {"x": 0, "y": 0}, "data": {"id": "r1"}}],
        "edges": []}), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", str(workflow)])
    assert result.exit_code == 0, result.output


def test_a_zod_entry_field_no_entry_has_is_one_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pygen.toml").write_text(
        'nodes_file = "nodes.ts"\ndefinitions = "NODES"\n[zod]\nentry_field = "inputSchema"\n')
    (tmp_path / "tsconfig.json").write_text('{"include": ["*.ts"]}')
    (tmp_path / "nodes.ts").write_text(
        'import { z } from "zod";\nexport const NODES = [\n'
        '  { type: "a", schema: z.object({ x: z.string() }) },\n'
        '  { type: "b", schema: z.object({ y: z.number() }) },\n];\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["extract", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert ("warning: zod.entry_field = 'inputSchema', but no node definition has a "
            "'inputSchema' property; the definitions use: schema, type") in result.stderr


def test_namespaced_intersected_and_counted_schemas_reach_skills_and_validation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("zod-parts", tmp_path, monkeypatch)
    nodes = root / "skills" / "nodes"
    fetch = (nodes / "fetch.md").read_text()
    assert "- `url: string` — Address to call" in fetch  # `typeof schemas.http`, via an alias
    assert "- `timeoutMs?: number` — Give up after this many milliseconds" in fetch  # & {...}
    signed = (nodes / "signed.md").read_text()
    assert "- `token: string` — Secret sent with each request" in signed  # & z.infer, .and()
    assert '- `scheme?: "bearer" | "basic"` — default `"bearer"`' in signed
    assert "- `tags: string[]` — At least one tag" in (nodes / "tag.md").read_text()
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert doc["$defs"]["headers"]["properties"]["lines"]["minItems"] == 1
    assert doc["$defs"]["headers"]["properties"]["lines"]["maxItems"] == 8
    assert doc["$defs"]["upload"]["properties"]["files"]["minItems"] == 2
    # zod's defaults fill the default data an entry leaves out; the entry's own value wins.
    assert doc["$defs"]["http"]["properties"]["retries"]["default"] == 3
    assert doc["$defs"]["fetch"]["properties"]["retries"]["default"] == 2
    assert "**Default data** (from the zod schema's defaults):" in fetch
    assert "**Default data** (from `NODES` and the zod schema's defaults):" in signed
    workflow = root / "workflow.json"
    workflow.write_text(json.dumps({"nodes": [
        {"id": "a", "type": "headers", "position": {"x": 0, "y": 0}, "data": {"lines": []}},
        {"id": "b", "type": "tag", "position": {"x": 0, "y": 0}, "data": {"tags": ["x"]}},
        {"id": "c", "type": "signed", "position": {"x": 0, "y": 0},
         "data": {"url": "https://x", "scheme": "digest"}}], "edges": []}), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", str(workflow)])
    assert result.exit_code == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    assert any(line.startswith("error: $.nodes[0].data.lines:") for line in errors), errors
    assert any(line.startswith("error: $.nodes[2].data.scheme:") for line in errors), errors
    assert any(line.startswith("error: $.nodes[2].data.token:") for line in errors), errors
    assert not any("$.nodes[1]" in line for line in errors), errors
