"""schema.node_schema: TypeRef → JSON Schema, never stricter than TypeScript, and `pygen schema`.

The fast check (schema.fastcheck) must agree with jsonschema on every schema made here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from pygen.cli import main
from pygen.model import DataField, DataType, Location, Model, NodeDef, TypeRef, Variant
from pygen.schema.fastcheck import compile_check
from pygen.schema.node_schema import field_schema, node_data_schema, type_schema

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
EXOTIC = Model.model_validate_json((FIXTURES / "exotic.model.json").read_text(encoding="utf-8"))
ALL = Model(nodes=STUDIO.nodes + EXOTIC.nodes, conventions=STUDIO.conventions)

S, N, B, NULL, UNDEF = (TypeRef(kind=k) for k in ("string", "number", "boolean", "null",
                                                   "undefined"))


def lit(value: Any) -> TypeRef:
    return TypeRef(kind="literal", value=value)


def union(*types: TypeRef, name: str | None = None) -> TypeRef:
    return TypeRef(kind="union", types=types, name=name)


def obj(*fields: DataField) -> TypeRef:
    return TypeRef(kind="object", fields=fields)


def fld(name: str, ref: TypeRef, optional: bool = False, **kw: Any) -> DataField:
    return DataField(name=name, type_text=ref.kind, type=ref, optional=optional, **kw)


def node(fields: tuple[DataField, ...] = (), variants: tuple[Variant, ...] = (),
         default: dict[str, Any] | None = None, via: str = "name") -> NodeDef:
    return NodeDef(type="t", label="T", source=Location(file="n.ts", line=1),
                   default_data=default or {},
                   data_type=DataType(name=None if via == "none" else "TData",
                                      via=via, fields=fields,  # type: ignore[arg-type]
                                      variants=variants))


# --- Each kind ---------------------------------------------------------------------------

@pytest.mark.parametrize(("ref", "expected"), [
    (S, {"type": "string"}),
    (N, {"type": "number"}),
    (B, {"type": "boolean"}),
    (NULL, {"type": "null"}),
    (lit("a"), {"const": "a"}),
    (lit(None), {"type": "null"}),
    (union(lit("a"), lit("b"), name="AB"), {"enum": ["a", "b"], "title": "AB"}),
    (union(lit("a"), lit("b"), NULL), {"enum": ["a", "b", None]}),
    (union(lit(1), lit(True)), {"enum": [1, True]}),
    (union(S, N), {"type": ["string", "number"]}),
    (union(S, lit("auto")), {"type": "string"}),
    (union(lit("auto"), N), {"oneOf": [{"const": "auto"}, {"type": "number"}]}),
    (union(S, UNDEF), {"type": "string"}),
    (union(S, TypeRef(kind="array", items=S)),
     {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}),
    (union(TypeRef(kind="array", items=S), TypeRef(kind="array", items=N)),
     {"anyOf": [{"type": "array", "items": {"type": "string"}},
                {"type": "array", "items": {"type": "number"}}]}),
    (TypeRef(kind="array", items=N), {"type": "array", "items": {"type": "number"}}),
    (TypeRef(kind="tuple", types=(S, N)),
     {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}],
      "$comment": "tuple: element types checked, length not"}),
    (TypeRef(kind="record", items=N),
     {"type": "object", "additionalProperties": {"type": "number"}}),
    (TypeRef(kind="record", items=TypeRef(kind="unknown")), {"type": "object"}),
    (obj(fld("a", S), fld("b", N, optional=True)),
     {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "number"}},
      "required": ["a"]}),
    (TypeRef(kind="object", name="Tree", text="Tree"),
     {"type": "object", "$comment": "`Tree` nests too deeply; fields not checked",
      "title": "Tree"}),
    (TypeRef(kind="intersection", types=(S, obj(fld("__brand", lit("Id"))))), {"type": "string"}),
    (TypeRef(kind="intersection", types=(obj(fld("a", S)), obj(fld("b", N)))),
     {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "number"}}, "required": ["b"]}]}),
    (TypeRef(kind="never"), {"not": {}, "$comment": "never: leave this field out"}),
    (TypeRef(kind="any"), {"$comment": "any: every value passes"}),
    (TypeRef(kind="unknown"), {"$comment": "unknown: every value passes"}),
    (TypeRef(kind="function", text="() => void"),
     {"$comment": "function type `() => void` has no JSON form; not checked"}),
    (TypeRef(kind="unresolved", text="Ext"),
     {"$comment": "type `Ext` could not be resolved; not checked"}),
    (union(S, TypeRef(kind="unresolved", text="Ext")),
     {"$comment": "union with type `Ext` could not be resolved; not checked"}),
])
def test_type_schema(ref: TypeRef, expected: dict[str, Any]) -> None:
    assert type_schema(ref) == expected


def test_objects_told_apart_by_a_literal_field_are_one_of() -> None:
    a = obj(fld("kind", lit("a")), fld("x", N))
    b = obj(fld("kind", lit("b")), fld("y", S))
    assert list(type_schema(union(a, b))) == ["oneOf"]


def test_objects_without_a_required_discriminant_are_any_of() -> None:
    a = obj(fld("kind", lit("a"), optional=True))
    b = obj(fld("kind", lit("b"), optional=True))
    assert list(type_schema(union(a, b))) == ["anyOf"]


# --- Fields and nodes --------------------------------------------------------------------

def test_required_follows_typescript_and_what_json_can_carry() -> None:
    fields = (
        fld("plain", S),
        fld("optional", S, optional=True),
        fld("or_undefined", union(S, UNDEF)),
        fld("anything", TypeRef(kind="any")),
        fld("callback", TypeRef(kind="function", text="() => void")),
        fld("unresolved", TypeRef(kind="unresolved", text="Ext")),
    )
    assert node_data_schema(node(fields))["required"] == ["plain", "unresolved"]


def test_field_annotations() -> None:
    field = fld("seed", N, description="Random seed.", deprecated="Use rng.", default_tag="-1")
    assert field_schema(field) == {"type": "number", "deprecated": True, "default": -1,
                                   "description": "Random seed. Deprecated: Use rng."}


@pytest.mark.parametrize(("tag", "ref", "default"), [
    ("'newline'", S, "newline"),
    ('"newline"', S, "newline"),
    ("false", B, False),
    ("'off'", B, None),  # does not fit the type: left out rather than wrong
    ("see docs", S, None),
])
def test_default_tag(tag: str, ref: TypeRef, default: Any) -> None:
    assert field_schema(fld("f", ref, default_tag=tag)).get("default") == default


def test_default_data_wins_over_the_default_tag() -> None:
    schema = node_data_schema(node((fld("n", N, default_tag="1"),), default={"n": 2}))
    assert schema["properties"]["n"]["default"] == 2


def test_studio_node_schema() -> None:
    image = STUDIO.node("generate-image")
    assert image is not None
    schema = node_data_schema(image)
    assert schema["title"] == "GenerateImageData"
    assert schema["description"] == "Generates a still image from a text prompt."
    assert schema["properties"]["provider"] == {
        "enum": ["flux", "flux-pro", "flux-kontext", "nano-banana-pro", "ideogram"],
        "title": "ImageProvider", "description": "Backend that renders the image.",
        "default": "nano-banana-pro"}
    assert schema["properties"]["referenceImage"]["deprecated"] is True
    assert schema["required"] == ["prompt", "provider", "model", "style", "aspectRatio",
                                  "negativePrompt", "fieldMappings", "label"]


def test_node_without_a_data_type_accepts_any_object() -> None:
    schema = node_data_schema(node(via="none"))
    assert schema == {"title": "T data", "type": "object",
                      "$comment": "the code declares no data type; any object passes"}


def test_variants_become_one_of_with_defaults_on_the_default_variant() -> None:
    llm = EXOTIC.node("llm")
    assert llm is not None
    schema = node_data_schema(llm)
    first, second = schema["oneOf"]
    assert (first["title"], second["title"]) == ("OpenAiData", "AnthropicData")
    assert first["properties"]["provider"] == {"const": "openai", "default": "openai"}
    assert second["properties"]["provider"] == {"const": "anthropic"}
    assert second["required"] == ["label", "provider", "model", "maxTokens"]


def test_variant_without_the_discriminant_among_its_fields_gets_it() -> None:
    variants = (Variant(discriminant="k", value="a", fields=(fld("x", N),)),
                Variant(discriminant="k", value="b", fields=(fld("y", N),)))
    schema = node_data_schema(node(variants=variants))
    assert schema["oneOf"][0] == {"type": "object", "properties": {
        "x": {"type": "number"}, "k": {"const": "a"}}, "required": ["x", "k"]}


@pytest.mark.parametrize("node_def", ALL.nodes, ids=lambda n: n.type)
def test_every_fixture_schema_is_valid_json_schema(node_def: NodeDef) -> None:
    Draft202012Validator.check_schema(node_data_schema(node_def))


@pytest.mark.parametrize("node_def", ALL.nodes, ids=lambda n: n.type)
def test_default_data_of_every_fixture_node_passes(node_def: NodeDef) -> None:
    schema = node_data_schema(node_def)
    assert list(Draft202012Validator(schema).iter_errors(node_def.default_data)) == []


# --- Properties: never stricter than TypeScript; the fast check agrees with jsonschema ----

NAMES = st.sampled_from(["a", "b", "kind", "x", "label"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", ""]),
                    st.floats(-2, 2, allow_nan=False))
LEAVES = st.one_of(
    st.sampled_from([S, N, B, NULL, TypeRef(kind="any"), TypeRef(kind="unknown"),
                     TypeRef(kind="function", text="f"), TypeRef(kind="unresolved", text="U")]),
    SCALARS.filter(lambda v: v is not None).map(lit),
)


def _composites(inner: st.SearchStrategy[TypeRef]) -> st.SearchStrategy[TypeRef]:
    fields = st.lists(st.tuples(NAMES, inner, st.booleans()), max_size=3,
                      unique_by=lambda t: t[0])
    return st.one_of(
        st.lists(st.one_of(inner, st.just(UNDEF)), min_size=1, max_size=4)
        .filter(lambda ms: any(m.kind != "undefined" for m in ms))
        .map(lambda ms: TypeRef(kind="union", types=tuple(ms))),
        inner.map(lambda t: TypeRef(kind="array", items=t)),
        inner.map(lambda t: TypeRef(kind="record", items=t)),
        st.lists(inner, min_size=1, max_size=3).map(
            lambda ts: TypeRef(kind="tuple", types=tuple(ts))),
        fields.map(lambda fs: obj(*(fld(n, t, o) for n, t, o in fs))),
    )


REFS = st.recursive(LEAVES, _composites, max_leaves=8)
JSON = st.recursive(SCALARS, lambda c: st.one_of(
    st.lists(c, max_size=3), st.dictionaries(NAMES, c, max_size=3)), max_leaves=6)


def values_of(ref: TypeRef) -> st.SearchStrategy[Any]:
    """JSON values a TypeScript checker would accept for `ref` (after JSON.stringify)."""
    kind = ref.kind
    simple: dict[str, st.SearchStrategy[Any]] = {
        "string": st.text(max_size=3), "number": st.integers() | st.floats(allow_nan=False,
                                                                           allow_infinity=False),
        "boolean": st.booleans(), "null": st.none(),
    }
    if kind in simple:
        return simple[kind]
    if kind == "literal":
        return st.just(ref.value)
    if kind in ("any", "unknown", "function", "unresolved"):
        return JSON
    if kind == "union":
        return st.one_of(*(values_of(m) for m in ref.types if m.kind != "undefined"))
    if kind == "array":
        return st.lists(values_of(ref.items or S), max_size=3)
    if kind == "record":
        return st.dictionaries(st.text(max_size=2), values_of(ref.items or S), max_size=3)
    if kind == "tuple":
        return st.tuples(*(values_of(t) for t in ref.types)).map(list)
    required = {f.name: values_of(f.type) for f in ref.fields if not f.optional}
    optional = {f.name: values_of(f.type) for f in ref.fields if f.optional}
    return st.fixed_dictionaries(required, optional=optional)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_values_typescript_accepts_always_pass(data: st.DataObject) -> None:
    ref = data.draw(REFS)
    schema = type_schema(ref)
    Draft202012Validator.check_schema(schema)
    value = data.draw(values_of(ref))
    assert Draft202012Validator(schema).is_valid(value), (json.dumps(schema), value)


def near_miss(data: st.DataObject, value: Any) -> Any:
    """`value` with one key dropped or one part replaced, somewhere: values near the edge."""
    if isinstance(value, dict | list) and value and data.draw(st.booleans()):
        keys = list(value) if isinstance(value, dict) else list(range(len(value)))
        key = data.draw(st.sampled_from(keys))
        copy: Any = dict(value) if isinstance(value, dict) else list(value)
        if isinstance(copy, dict) and data.draw(st.booleans()):
            del copy[key]
        else:
            copy[key] = near_miss(data, copy[key])
        return copy
    return data.draw(JSON)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.data())
def test_fast_check_agrees_with_jsonschema(data: st.DataObject) -> None:
    ref = data.draw(REFS)
    schema = type_schema(ref)
    check = compile_check(schema)
    assert check is not None
    value = data.draw(values_of(ref))
    for candidate in (value, near_miss(data, value), data.draw(JSON)):
        expected = Draft202012Validator(schema).is_valid(candidate)
        assert check(candidate) == expected, (schema, candidate)


# --- `pygen schema` ----------------------------------------------------------------------

@pytest.fixture
def fixture_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Serve the fixture model instead of extracting (the real extraction is tested in
    test_validate_workflow.py); returns a config file the commands can load."""
    monkeypatch.setattr("pygen.tools.merge.load_model", lambda config: ALL)
    config = tmp_path / "pygen.toml"
    config.write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    return config


def test_schema_command_prints_every_type(fixture_model: Path) -> None:
    result = CliRunner().invoke(main, ["schema", "--config", str(fixture_model)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert list(doc["$defs"]) == [n.type for n in ALL.nodes]
    assert doc["x-handles"]["image-to-video"] == {"inputs": ["image", "in"],
                                                  "outputs": ["video"]}


def test_schema_command_prints_one_type(fixture_model: Path) -> None:
    result = CliRunner().invoke(main, ["schema", "note", "--config", str(fixture_model)])
    assert result.exit_code == 0, result.output
    note = ALL.node("note")
    assert note is not None
    expected = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                **node_data_schema(note)}
    assert result.stdout == json.dumps(expected, indent=2) + "\n"


def test_schema_command_unknown_type(fixture_model: Path) -> None:
    result = CliRunner().invoke(main, ["schema", "generate-imag", "--config", str(fixture_model)])
    assert result.exit_code == 2
    types = ", ".join(n.type for n in ALL.nodes)
    assert result.stderr == (f"error: unknown node type 'generate-imag' (did you mean "
                             f"'generate-image'?); valid types: {types}\n")


def test_inferred_fields_and_index_signatures_leave_other_keys_open() -> None:
    from pygen.extract.infer import with_inferred_type

    node = NodeDef.model_validate({"type": "log", "label": "Log", "default_data": {"level": "x"},
                                   "source": {"file": "n.ts", "line": 1}})
    schema = node_data_schema(with_inferred_type(node))
    assert schema["properties"]["level"] == {"type": "string", "default": "x"}
    assert "required" not in schema
    assert schema["additionalProperties"] is True
    assert "inferred from default data" in schema["$comment"]
    indexed = node.model_copy(update={"data_type": DataType(
        name="LogData", via="name", index_signature="[key: string]: unknown")})
    schema = node_data_schema(indexed)
    assert schema["additionalProperties"] is True
    assert schema["$comment"] == "also accepts other keys (`[key: string]: unknown`)"
