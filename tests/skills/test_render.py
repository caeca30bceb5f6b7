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


def test_long_enums_are_listed_in_full_one_value_per_line() -> None:
    values = tuple(TypeRef(kind="literal", value=f"v{i}") for i in range(40))
    alias = TypeRef(kind="union", name="Provider", types=values)
    lines = render.field_list([field("Provider", alias)])
    assert lines[0] == "- `f: Provider` — one of the 40 values below"
    assert lines[1:] == [f'  - `"v{i}"`' for i in range(40)]


def test_twelve_values_stay_inline_and_an_inline_union_is_not_repeated() -> None:
    twelve = tuple(TypeRef(kind="literal", value=i) for i in range(12))
    assert render.field_list([field("Level", TypeRef(kind="union", name="L", types=twelve))]) == [
        "- `f: Level` — one of `0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11`"]
    many = tuple(TypeRef(kind="literal", value=f"v{i}") for i in range(13))
    text = " | ".join(f'"v{i}"' for i in range(13))
    assert render.field_list([field(text, TypeRef(kind="union", types=many))]) == [
        f"- `f: {text}`"]


def test_long_enum_of_a_nested_field_is_indented_under_it() -> None:
    values = tuple(TypeRef(kind="literal", value=f"v{i}") for i in range(13))
    inner = field("V", TypeRef(kind="union", types=values)).model_copy(update={"name": "x"})
    obj = field("{ x: V }", TypeRef(kind="object", fields=(inner,)))
    lines = render.field_list([obj])
    assert lines[:3] == ["- `f: { x: V }`", "  - `x: V` — one of the 13 values below",
                         '    - `"v0"`']
    assert len(lines) == 15


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
