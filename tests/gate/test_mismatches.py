"""Node data ↔ tool input schema: which fields disagree, matched in either case style."""

from __future__ import annotations

from typing import Any

from pygen.gate import mismatches as doctor
from pygen.model import DataField, DataType, Location, Model, NodeDef, ToolSchema, TypeRef

STRING = TypeRef(kind="string")
NUMBER = TypeRef(kind="number")


def literals(*values: str | int) -> TypeRef:
    return TypeRef(kind="union", types=tuple(TypeRef(kind="literal", value=v) for v in values))


def field(name: str, ref: TypeRef, optional: bool = False) -> DataField:
    return DataField(name=name, type_text="t", type=ref, optional=optional)


def node(*fields: DataField, tool: ToolSchema | None = None, node_type: str = "render") -> NodeDef:
    return NodeDef(type=node_type, label="R", source=Location(file="n.ts", line=1), tool=tool,
                   data_type=DataType(name="RenderData", via="name", fields=fields))


def tool(properties: dict[str, Any], **extra: Any) -> ToolSchema:
    return ToolSchema(name="render", input_schema={"type": "object", "properties": properties,
                                                   **extra})


def found(*fields: DataField, properties: dict[str, Any], **extra: Any) -> list[str]:
    model = Model(nodes=(node(*fields, tool=tool(properties, **extra)),))
    return [m.text() for m in doctor.mismatches(model)]


def test_agreeing_fields_in_either_case_style_are_not_listed() -> None:
    assert found(field("aspectRatio", literals("1:1", "16:9")), field("steps", NUMBER),
                 field("seed", NUMBER, optional=True), field("label", STRING),
                 properties={
                     "aspect_ratio": {"type": "string", "enum": ["16:9", "1:1"]},
                     "steps": {"type": "integer"},
                     "seed": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                 }) == []


def test_enum_values_that_disagree_are_listed_both_ways() -> None:
    assert found(field("quality", literals("draft", "final")),
                 properties={"quality": {"enum": ["final", "ultra", None]}}) == [
        'render.quality ↔ render.quality: enum differs: node only "draft", tool only "ultra"']


def test_enum_behind_a_ref_and_a_nullable_any_of() -> None:
    assert found(field("provider", literals("flux", "kling")),
                 properties={"provider": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}},
                 **{"$defs": {"P": {"enum": ["flux"], "type": "string"}}}) == [
        'render.provider ↔ render.provider: enum differs: node only "kling", tool —']


def test_types_that_disagree_are_listed() -> None:
    assert found(field("steps", NUMBER), field("fast", TypeRef(kind="boolean")),
                 properties={"steps": {"type": "string"}, "fast": {"const": True}}) == [
        "render.steps ↔ render.steps: type differs: node number, tool string"]


def test_nested_object_fields_are_compared_too() -> None:
    camera = TypeRef(kind="object", fields=(field("motion", literals("pan", "zoom")),
                                            field("strength", NUMBER)))
    assert found(field("camera", camera), properties={"camera": {"$ref": "#/$defs/Camera"}},
                 **{"$defs": {"Camera": {"type": "object", "properties": {
                     "motion": {"enum": ["pan", "zoom", "tilt"]},
                     "strength": {"type": "number"}}}}}) == [
        'render.camera.motion ↔ render.camera.motion: enum differs: node —, tool only "tilt"']


def test_unknown_types_are_not_guessed() -> None:
    assert found(field("extra", TypeRef(kind="unresolved", text="Foo")),
                 field("meta", TypeRef(kind="any")),
                 properties={"extra": {"type": "string"}, "meta": {}}) == []


def test_snake_case_of_camel_and_acronyms() -> None:
    assert doctor.snake("aspectRatio") == "aspect_ratio"
    assert doctor.snake("sourceImageURL") == "source_image_url"
    assert doctor.snake("gain-db") == "gain_db"


# --- prose coverage and tokens ---------------------------------------------------------------
