from __future__ import annotations

from corpus_models import expected_model

from pygen.extract.infer import with_inferred_type
from pygen.model import DataField, Model, NodeDef, TypeRef
from pygen.skills import field_lines, render
from pygen.skills.catalog_text import catalog_lines

LITERALS = tuple(TypeRef(kind="literal", value=v) for v in ("a", "b"))


def field(type_text: str, ref: TypeRef, **extra: object) -> DataField:
    return DataField.model_validate({"name": "f", "type_text": type_text, "type": ref, **extra})


def test_alias_shows_its_values_but_an_inline_union_does_not_repeat_them() -> None:
    alias = TypeRef(kind="union", name="Mode", types=LITERALS)
    assert field_lines.field_line(field("Mode", alias)) == '- `f: Mode` — one of `"a" | "b"`'
    inline = TypeRef(kind="union", types=LITERALS)
    assert field_lines.field_line(field('"a" | "b"', inline)) == '- `f: "a" | "b"`'


def test_long_enums_are_listed_in_full_one_value_per_line() -> None:
    values = tuple(TypeRef(kind="literal", value=f"v{i}") for i in range(40))
    alias = TypeRef(kind="union", name="Provider", types=values)
    lines = field_lines.field_list([field("Provider", alias)])
    assert lines[0] == "- `f: Provider` — one of the 40 values below"
    assert lines[1:] == [f'  - `"v{i}"`' for i in range(40)]


def test_twelve_values_stay_inline_and_an_inline_union_is_not_repeated() -> None:
    twelve = tuple(TypeRef(kind="literal", value=i) for i in range(12))
    level = field("Level", TypeRef(kind="union", name="L", types=twelve))
    assert field_lines.field_list([level]) == [
        "- `f: Level` — one of `0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11`"]
    many = tuple(TypeRef(kind="literal", value=f"v{i}") for i in range(13))
    text = " | ".join(f'"v{i}"' for i in range(13))
    assert field_lines.field_list([field(text, TypeRef(kind="union", types=many))]) == [
        f"- `f: {text}`"]


def test_long_enum_of_a_nested_field_is_indented_under_it() -> None:
    values = tuple(TypeRef(kind="literal", value=f"v{i}") for i in range(13))
    inner = field("V", TypeRef(kind="union", types=values)).model_copy(update={"name": "x"})
    obj = field("{ x: V }", TypeRef(kind="object", fields=(inner,)))
    lines = field_lines.field_list([obj])
    assert lines[:3] == ["- `f: { x: V }`", "  - `x: V` — one of the 13 values below",
                         '    - `"v0"`']
    assert len(lines) == 15


def test_optional_default_deprecated_and_description_in_that_order() -> None:
    line = field_lines.field_line(field("number", TypeRef(kind="number"), optional=True,
                                   default_tag="-1", deprecated="use g", description="Seed."))
    assert line == "- `f?: number` — default `-1` — **deprecated:** use g — Seed."
    bare = field_lines.field_line(field("number", TypeRef(kind="number"), deprecated="deprecated"))
    assert bare == "- `f: number` — **deprecated**"


def test_nested_object_fields_become_sub_bullets() -> None:
    inner = field("number", TypeRef(kind="number")).model_copy(update={"name": "x"})
    obj = field("{ x: number }", TypeRef(kind="object", fields=(inner,)))
    assert field_lines.field_list([obj]) == ["- `f: { x: number }`", "  - `x: number`"]


def _node(data_type: object, **extra: object) -> NodeDef:
    return NodeDef.model_validate({"type": "log", "label": "Log", "data_type": data_type,
                                   "source": {"file": "n.ts", "line": 1}, **extra})


def test_inferred_fields_say_so_and_never_address_maintainers() -> None:
    node = with_inferred_type(_node({}, default_data={"level": "info", "n": 2}))
    text = render.node_data_shape(node)
    assert "(inferred from default data; the code declares no type" in text
    assert '- `level?: string` — default `"info"`' in text
    assert "pygen config" not in text and "data_types" not in text


def test_no_type_and_no_default_data_is_not_declared_never_an_empty_object() -> None:
    text = render.node_data_shape(_node({}, default_data_declared=False))
    assert "**Data fields:** not declared in the code." in text
    assert "**Default data:** not declared in `NODE_DEFINITIONS`." in text
    assert "{}" not in text and "pygen config" not in text


def test_an_index_signature_is_said_once_after_the_fields() -> None:
    prompt = field("string", TypeRef(kind="string")).model_copy(update={"name": "prompt"})
    node = _node({"name": "ImageData", "via": "name", "fields": [prompt],
                  "index_signature": "[key: string]: unknown"})
    text = render.node_data_shape(node)
    assert text.count("Also accepts other keys (`[key: string]: unknown`).") == 1
    assert text.index("`prompt: string`") < text.index("Also accepts other keys")


def computed_node(**extra: object) -> NodeDef:
    start = {"type": "start", "label": "Start", "source": {"file": "nodes.ts", "line": 3},
             "default_data": {"title": "Untitled"},
             "computed": [{"path": "defaultData.id", "field": "default_data",
                           "text": "crypto.randomUUID()", "type_text": "string",
                           "file": "nodes.ts", "line": 7},
                          {"path": "defaultData.count", "field": "default_data",
                           "text": "load()", "type_text": "number", "file": "nodes.ts", "line": 8}]}
    return NodeDef.model_validate({**start, **extra})


def test_computed_fields_are_listed_under_the_static_default_data() -> None:
    text = render.node_data_shape(computed_node())
    data, _, computed = text.partition('"title": "Untitled"')
    assert "**Default data**" in data
    assert "- `id` — computed at run time: `crypto.randomUUID()` (string)" in computed
    assert "- `count` — computed at run time: `load()` (number)" in computed


def test_the_example_fills_computed_fields_with_values_of_their_type() -> None:
    fields = [{"name": n, "type_text": t, "type": {"kind": t}}
              for n, t in (("title", "string"), ("id", "string"), ("count", "number"))]
    fields.append({"name": "tags", "type_text": "string[]", "optional": True,
                   "type": {"kind": "array", "items": {"kind": "string"}}})
    node = computed_node(data_type={"name": "StartData", "via": "name", "fields": fields})
    assert render.example_data(node)[0] == {"title": "Untitled", "id": "", "count": 0}
    assert render.example_data(computed_node())[0] == {"title": "Untitled"}


def test_undeclared_handles_are_never_rendered_as_none() -> None:
    node = computed_node(inputs_declared=False, outputs_declared=False)
    text = render.node_data_shape(node)
    assert "- **Inputs (target handles):** not declared\n" in text
    assert "none" not in text.split("**Default data**")[0]
    assert "in not declared → out not declared" in catalog_lines(Model(nodes=(node,)))


def test_unnamed_handles_say_an_edge_names_none_and_typed_handles_show_their_type() -> None:
    node = computed_node(inputs=[{"id": None}, {"id": None}],
                         outputs=[{"id": "image", "label": "Image", "type": "image"}])
    text = render.node_data_shape(node)
    assert "2 unnamed handles (id `null`: an edge to or from it names no handle)" in text
    assert "- **Outputs (source handles):** `image` (Image, type `image`)" in text


def test_a_variant_shows_the_fields_of_its_own_branch_only() -> None:
    search, calculator = expected_model("variant-catalog").nodes[1:]
    shape = render.node_data_shape(search)
    assert "**Required data fields** (from `SearchToolData`):" in shape
    assert "`maxResults: number`" in shape
    assert "precision" not in shape and "precision" in render.node_data_shape(calculator)


def _obj(**fields: TypeRef) -> TypeRef:
    def text(ref: TypeRef) -> str:
        return f'"{ref.value}"' if ref.kind == "literal" else ref.kind
    return TypeRef(kind="object", fields=tuple(DataField(name=k, type_text=text(v), type=v)
                                               for k, v in fields.items()))


def _lit(value: str) -> TypeRef:
    return TypeRef(kind="literal", value=value)


def test_a_union_of_object_types_lists_each_shape_by_its_tag() -> None:
    """A discriminated union names each shape by its tag's value; shapes without one by their
    position; an object beside null lists its fields as an object does."""
    number = TypeRef(kind="number")
    engine = TypeRef(kind="union", types=(_obj(kind=_lit("first"), speed=number),
                                          _obj(kind=_lit("second"), voice=TypeRef(kind="string"))))
    plain = TypeRef(kind="union", types=(_obj(w=number), _obj(r=number)))
    nullable = TypeRef(kind="union", types=(_obj(width=number), TypeRef(kind="null")))
    assert engine.discriminant() == "kind" and plain.discriminant() is None
    lines = field_lines.field_lines(DataField(name="engine", type_text="Engine", type=engine))
    assert lines == ["- `engine: Engine`", '  - when `kind` is `"first"`:',
                     '    - `kind: "first"`', "    - `speed: number`",
                     '  - when `kind` is `"second"`:', '    - `kind: "second"`',
                     "    - `voice: string`"]
    lines = field_lines.field_lines(DataField(name="shapes", type_text="Shape[]",
                                         type=TypeRef(kind="array", items=plain)))
    assert lines[1:] == ["  - shape 1 of 2:", "    - `w: number`", "  - shape 2 of 2:",
                         "    - `r: number`"]
    lines = field_lines.field_lines(DataField(name="meta", type_text="Meta | null", type=nullable))
    assert lines[1:] == ["  - `width: number`"]


def test_a_tag_two_shapes_share_is_no_discriminant() -> None:
    shapes = TypeRef(kind="union", types=(_obj(kind=_lit("a"), x=TypeRef(kind="number")),
                                          _obj(kind=_lit("a"), y=TypeRef(kind="number"))))
    assert shapes.discriminant() is None
