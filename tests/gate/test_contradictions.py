"""Contradictions in the app's own code: a default its type rejects, a required field nothing
documents, a handle a description names that the node lacks."""

from __future__ import annotations

from pygen.gate import contradictions
from pygen.model import (
    DataField,
    DataType,
    Handle,
    Location,
    Model,
    NodeDef,
    NodeSources,
    TypeRef,
)

MINIMAX = TypeRef(kind="union", name="MusicProvider",
                  types=(TypeRef(kind="literal", value="minimax"),))


def field(name: str, ref: TypeRef, **extra: object) -> DataField:
    return DataField.model_validate({"name": name, "type_text": ref.name or ref.kind,
                                     "type": ref, **extra})


def model(*fields: DataField, default: dict[str, object], **locations: NodeSources) -> Model:
    node = NodeDef(type="music", label="Music", source=Location(file="nodes.ts", line=40),
                   inputs=(Handle(id="prompt"),), default_data=default,
                   data_type=DataType(name="MusicData", via="name", fields=fields))
    return Model(nodes=(node,), locations=locations)


def test_a_default_its_type_rejects_names_both_places() -> None:
    where = NodeSources(fields={"provider": Location(file="types.ts", line=7)},
                        defaults={"provider": Location(file="nodes.ts", line=44)})
    found = contradictions.find(model(field("provider", MINIMAX),
                                      default={"provider": "suno"}, music=where))
    assert [c.text() for c in found] == [
        'music.provider: default "suno" is not allowed by its type MusicProvider '
        "(default at nodes.ts:44, type at types.ts:7)"]


def test_a_required_field_needs_a_default_or_documented_values() -> None:
    string = TypeRef(kind="string")
    found = contradictions.find(model(
        field("model", string), field("seed", string, optional=True),
        field("mode", MINIMAX), field("loop", TypeRef(kind="boolean")),
        field("tempo", string, default_tag="120"), field("prompt", string),
        default={"prompt": ""}))
    assert [(c.field, c.kind, c.default_at) for c in found] == [("model", "required", None)]


def test_a_description_naming_a_handle_the_node_lacks() -> None:
    string = TypeRef(kind="string")
    found = contradictions.find(model(
        field("a", string, description="Filled from the `prompt` handle."),
        field("b", string, description="Connect the `style` input handle, or handle `mood`."),
        default={"a": "", "b": ""}))
    assert [c.message for c in found] == [
        "the description names a handle 'style' the node does not have",
        "the description names a handle 'mood' the node does not have"]
