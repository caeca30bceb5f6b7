"""tools.envelope: the saved node's envelope and the edges' form, read from the workflow type."""

from __future__ import annotations

from typing import Any

from pygen.conventions import Conventions
from pygen.model import DataField, DataType, TypeRef
from pygen.tools.envelope import declared_envelope


def ref(kind: str, **kw: Any) -> TypeRef:
    return TypeRef.model_validate({"kind": kind, **kw})


def field(name: str, kind: str, **kw: Any) -> DataField:
    return DataField(name=name, type_text=kind, type=ref(kind, **kw))


def workflow(node_fields: list[DataField], *others: DataField) -> DataType:
    node = ref("object", fields=[f.model_dump() for f in node_fields])
    return DataType(name="W", fields=(field("nodes", "array", items=node.model_dump()),
                                      *others))


N8N = workflow([field("id", "string"), field("name", "string"), field("type", "string"),
                field("position", "tuple", types=[{"kind": "number"}, {"kind": "number"}]),
                field("parameters", "record", items={"kind": "unknown"})],
               field("connections", "record", items={"kind": "unknown"}))
REACT_FLOW = workflow([field("id", "string"), field("type", "string"),
                       field("position", "object"), field("data", "union")],
                      field("edges", "array", items={"kind": "object"}))


def test_a_connections_map_and_a_pair_position_are_read_from_the_type() -> None:
    conv = declared_envelope(N8N, Conventions())
    assert (conv.node_data_key, conv.position_pair, conv.connections_key) == (
        "parameters", True, "connections")
    assert conv.node_type_key == "type" and not conv.node_constants


def test_react_flow_types_change_nothing() -> None:
    assert declared_envelope(REACT_FLOW, Conventions()) == Conventions()
    assert declared_envelope(None, Conventions(label_key="data.label")) == Conventions(
        label_key="data.label")


def test_the_config_overrides_the_type() -> None:
    configured = Conventions(node_data_key="settings", position_pair=False)
    conv = declared_envelope(N8N, configured)
    assert (conv.node_data_key, conv.position_pair, conv.connections_key) == (
        "settings", False, "connections")
