"""A data type too long for a skill file's budget is shortened in steps: descriptions past
their first sentence, then fields nested below the first level, and only then lines; every
field and each listing of a field listed once per condition stays as long as it can."""

from __future__ import annotations

from pygen.model import Condition, DataField, DataType, Location, NodeDef, TypeRef
from pygen.skills import field_budget
from pygen.skills.render import node_data_shape


def when(**shown: str) -> tuple[Condition, ...]:
    return tuple(Condition(field=k, values=(v,)) for k, v in shown.items())


def _operation(resource: str, *values: str) -> DataField:
    members = tuple(TypeRef(kind="literal", value=v) for v in values)
    return DataField(name="operation", type_text=" | ".join(f'"{v}"' for v in values),
                     type=TypeRef(kind="union", types=members), optional=True,
                     default_tag=f'"{values[0]}"', shown_when=when(resource=resource))


OPERATIONS = (_operation("message", "post", "update"),
              _operation("user", "info", "getPresence", "updateProfile"))
WORDY = "Label. " + "A long explanation of what this does. " * 40


def _node(*fields: DataField) -> NodeDef:
    return NodeDef(type="chat", label="Chat", source=Location(file="chat.ts", line=1),
                   data_type=DataType(name="ChatData", via="field-list", fields=fields))


def _text(name: str, description: str = WORDY) -> DataField:
    return DataField(name=name, type_text="string", type=TypeRef(kind="string"),
                     description=description,
                     shown_when=when(resource="user", operation="getProfile"))


def test_a_type_past_the_budget_keeps_every_listing_and_cuts_descriptions_first() -> None:
    text = node_data_shape(_node(*OPERATIONS, *(_text(f"field{i}") for i in range(30))))
    assert len(text) < field_budget.FIELDS_BUDGET
    assert "A long explanation" not in text and "`field29: string`" in text
    assert '"getPresence" | "updateProfile"` — default `"info"`' in text
    assert ("(To keep this file short each description is cut to its first sentence; the "
            'whole data type is `$defs["chat"]` in `schemas/nodes.schema.json`') in text


def test_deep_fields_go_before_any_line_when_short_descriptions_do_not_fit() -> None:
    deep = TypeRef(kind="object", fields=tuple(_text(f"inner{i}", "x" * 300)
                                               for i in range(80)))
    middle = DataField(name="values", type_text="object", type=deep, optional=True)
    top = DataField(name="options", type_text="object", optional=True,
                    type=TypeRef(kind="object", fields=(middle,)))
    text = node_data_shape(_node(*OPERATIONS, top, _text("last", "Last.")))
    assert "`inner0" not in text and "  - `values?: object`" in text
    assert "`last: string`" in text and "fields nested below the first level" in text


def test_what_still_does_not_fit_is_cut_with_a_count_and_the_schema_named() -> None:
    text = node_data_shape(_node(*(_text(f"f{i:03}", "x" * 200) for i in range(200))))
    cut = next(line for line in text.splitlines() if "are left out" in line)
    assert cut.startswith("- … ") and "each description is cut" in cut
    assert "`f000: string`" in text and "`f199: string`" not in text
