from __future__ import annotations

from pygen.model import DataField, TypeRef
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
