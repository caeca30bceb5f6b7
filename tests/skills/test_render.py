from __future__ import annotations

from pygen.extract.infer import with_inferred_type
from pygen.model import DataField, NodeDef, TypeRef
from pygen.skills import render

LITERALS = tuple(TypeRef(kind="literal", value=v) for v in ("a", "b"))


def field(type_text: str, ref: TypeRef, **extra: object) -> DataField:
    return DataField.model_validate({"name": "f", "type_text": type_text, "type": ref, **extra})


def test_alias_shows_its_values_but_an_inline_union_does_not_repeat_them() -> None:
    alias = TypeRef(kind="union", name="Mode", types=LITERALS)
    assert render.field_line(field("Mode", alias)) == '- `f: Mode` — one of `"a" | "b"`'
    inline = TypeRef(kind="union", types=LITERALS)
    assert render.field_line(field('"a" | "b"', inline)) == '- `f: "a" | "b"`'


def test_long_unions_are_cut_with_a_count() -> None:
    values = tuple(f"v{i}" for i in range(15))
    assert render.enum_text(values).endswith('"v11" | … (+3 more)')


def test_optional_default_deprecated_and_description_in_that_order() -> None:
    line = render.field_line(field("number", TypeRef(kind="number"), optional=True,
                                   default_tag="-1", deprecated="use g", description="Seed."))
    assert line == "- `f?: number` — default `-1` — **deprecated:** use g — Seed."
    bare = render.field_line(field("number", TypeRef(kind="number"), deprecated="deprecated"))
    assert bare == "- `f: number` — **deprecated**"


def test_nested_object_fields_become_sub_bullets() -> None:
    inner = field("number", TypeRef(kind="number")).model_copy(update={"name": "x"})
    obj = field("{ x: number }", TypeRef(kind="object", fields=(inner,)))
    assert render.field_list([obj]) == ["- `f: { x: number }`", "  - `x: number`"]


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
