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


def test_each_kind_is_told_from_its_text_and_summarised_in_one_line() -> None:
    """A clean check remembers the texts alone: their kind is read back from them, and a
    kind seen many times is one line (the 2,000-node catalog printed 1,950 of them)."""
    string = TypeRef(kind="string")
    fields = [field(f"f{i}", string) for i in range(5)]
    found = contradictions.find(model(
        *fields, field("provider", MINIMAX), field("h", string, description="the `x` handle"),
        field("tag", string, default_tag="a"),
        default={"provider": "suno", "tag": "b", "h": ""}))
    texts = [c.text() for c in found]
    assert [contradictions.kind_of(t) for t in texts] == [c.kind for c in found]
    assert {c.kind for c in found} == set(contradictions.TITLES)
    assert contradictions.summary(texts, "warning") == [
        "warning: required fields with neither a default value nor documented values — "
        "5 times: music.f0, music.f1, music.f2, … (+2 more; --verbose lists all)",
        f"warning: {texts[5]}", f"warning: {texts[6]}", f"warning: {texts[7]}"]
    assert contradictions.summary(texts, "error", verbose=True) == [f"error: {t}" for t in texts]
