from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from pygen.model import DataField, DataType, Model, NodeDef, TypeRef, Variant
from pygen.schema.node_schema import node_data_schema
from pygen.skills import render
from pygen.skills.example_data import example_data

STRING = TypeRef(kind="string")
NUMBER = TypeRef(kind="number")
MODE = TypeRef(kind="union", name="Mode", types=tuple(
    TypeRef(kind="literal", value=v) for v in ("fast", "slow")))


def f(name: str, ref: TypeRef, optional: bool = False) -> DataField:
    return DataField(name=name, type_text=ref.name or ref.kind, type=ref, optional=optional)


SIZE = TypeRef(kind="object", fields=(f("width", NUMBER), f("height", NUMBER)))


def node(fields: tuple[DataField, ...] = (), default: dict[str, Any] | None = None,
         variants: tuple[Variant, ...] = ()) -> NodeDef:
    return NodeDef.model_validate({
        "type": "resize", "label": "Resize", "source": {"file": "nodes.ts", "line": 1},
        "default_data": default or {}, "default_data_declared": default is not None,
        "data_type": DataType(name="ResizeData", via="cast", fields=fields, variants=variants),
    })


def assert_valid(n: NodeDef, data: dict[str, Any]) -> None:
    errors = list(Draft202012Validator(node_data_schema(n)).iter_errors(data))
    assert errors == []


def test_partial_defaults_get_type_correct_placeholders_and_say_which() -> None:
    fields = (f("prompt", STRING), f("mode", MODE), f("steps", NUMBER),
              f("tags", TypeRef(kind="array", items=STRING)), f("size", SIZE),
              f("on", TypeRef(kind="boolean")), f("seed", NUMBER, optional=True))
    n = node(fields, {"prompt": "a cat"})
    data, notes = example_data(n)
    assert data == {"prompt": "a cat", "mode": "fast", "steps": 0, "tags": [],
                    "size": {"width": 0, "height": 0}, "on": False}
    assert notes.filled == ("mode", "steps", "tags", "size", "on")
    assert notes.replaced == ()
    assert_valid(n, data)


def test_a_default_that_does_not_fit_its_field_is_replaced_and_nested_objects_are_mended() -> None:
    n = node((f("mode", MODE), f("size", SIZE)), {"mode": "turbo", "size": {"width": 5}})
    data, notes = example_data(n)
    assert data == {"mode": "fast", "size": {"width": 5, "height": 0}}
    assert (notes.filled, notes.replaced) == (("size.height",), ("mode",))
    assert_valid(n, data)


def test_valid_default_data_is_left_exactly_as_it_is() -> None:
    n = node((f("mode", MODE), f("extra", STRING, optional=True)), {"mode": "slow", "x": 1})
    data, notes = example_data(n)
    assert (data, bool(notes)) == ({"mode": "slow", "x": 1}, False)


def test_the_variant_the_default_data_selects_is_completed() -> None:
    kind = "kind"
    upscale = Variant(name="Up", discriminant=kind, value="up", fields=(
        f(kind, TypeRef(kind="literal", value="up")), f("factor", NUMBER)))
    crop = Variant(name="Crop", discriminant=kind, value="crop", fields=(
        f(kind, TypeRef(kind="literal", value="crop")), f("box", SIZE)))
    n = node(variants=(upscale, crop), default={"kind": "crop"})
    data, notes = example_data(n)
    assert data == {"kind": "crop", "box": {"width": 0, "height": 0}}
    assert notes.filled == ("box",)
    assert_valid(n, data)


def test_undeclared_default_data_is_all_placeholders_and_the_block_says_so() -> None:
    n = node((f("prompt", STRING), f("mode", MODE)))
    assert example_data(n)[0] == {"prompt": "", "mode": "fast"}
    block = render.examples(n, Model(nodes=(n,)))
    assert "built from placeholders" in block and "default data" in block
    assert "leaves out" not in block
    assert "**Default data:** not declared in `NODE_DEFINITIONS`." in render.node_data_shape(n)


def test_the_examples_block_names_filled_and_replaced_fields() -> None:
    made = node((f("mode", MODE), f("steps", NUMBER)), {"mode": "turbo"})
    block = render.examples(made, Model(nodes=(made,)))
    assert "required fields the default data leaves out: `steps`." in block
    assert "do not fit their field's type: `mode`." in block


def test_placeholders_meet_the_field_rules() -> None:
    def ruled(name: str, ref: TypeRef, *tags: tuple[str, str]) -> DataField:
        return f(name, ref).model_copy(update={"tags": tags})

    n = node((ruled("path", STRING, ("minLength", "1"), ("pattern", "^\\/")),
              ruled("name", STRING, ("minLength", "3")),
              ruled("steps", NUMBER, ("minimum", "1")),
              ruled("gain", NUMBER, ("maximum", "-6")),
              ruled("url", STRING, ("pattern", "^https://"))))
    data, _ = example_data(n)
    assert data == {"path": "/", "name": "xxx", "steps": 1, "gain": -6, "url": "https://"}
    assert_valid(n, data)


def test_a_placeholder_list_holds_as_many_items_as_the_field_asks() -> None:
    lines = TypeRef(kind="array", items=STRING)
    n = node((f("lines", lines).model_copy(update={"tags": (("minItems", "2"),
                                                            ("maxItems", "4"))}),
              f("tags", lines)))
    data, _ = example_data(n)
    assert data == {"lines": ["", ""], "tags": []}
    assert_valid(n, data)
