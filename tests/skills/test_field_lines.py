"""A field listed once per condition (n8n lists `operation` once per `resource`, each listing
with its own values and default) reaches the skill file with every listing, each saying when
it applies; listings alike but for their condition are one bullet. Hand-written fields in the
shape a chat node's descriptor list takes."""

from __future__ import annotations

from pygen.model import Condition, DataField, TypeRef
from pygen.skills.field_lines import field_list


def _enum(*values: str) -> TypeRef:
    return TypeRef(kind="union", types=tuple(TypeRef(kind="literal", value=v) for v in values))


def _text(*values: str) -> str:
    return " | ".join(f'"{v}"' for v in values)


def when(**shown: str | tuple[str, ...]) -> tuple[Condition, ...]:
    return tuple(Condition(field=k, values=v if isinstance(v, tuple) else (v,))
                 for k, v in shown.items())


def operation(resource: str, default: str, *values: str) -> DataField:
    return DataField(name="operation", type_text=_text(*values), type=_enum(*values),
                     optional=True, default_tag=f'"{default}"', description="Operation",
                     shown_when=when(resource=resource))


def channel(op: str, purpose: str) -> DataField:
    return DataField(name="channelId", type_text="string", type=TypeRef(kind="string"),
                     description=f"Channel. The channel to {purpose}",
                     shown_when=when(resource="channel", operation=op))


OPERATIONS = (operation("channel", "create", "archive", "create"),
              operation("message", "post", "post", "update", "delete"),
              operation("user", "info", "info", "getProfile", "getPresence", "updateProfile"))


def test_every_listing_of_a_field_says_its_values_default_and_condition() -> None:
    assert field_list(OPERATIONS) == [
        "- `operation?` — listed per condition — Operation",
        '  - when `resource` is `channel`: `"archive" | "create"` — default `"create"`',
        '  - when `resource` is `message`: `"post" | "update" | "delete"` — default `"post"`',
        '  - when `resource` is `user`: `"info" | "getProfile" | "getPresence" | '
        '"updateProfile"` — default `"info"`']


def test_listings_alike_but_for_their_condition_are_one_bullet_with_their_label() -> None:
    fields = (channel("archive", "archive"), channel("rename", "rename"),
              channel("close", "close"))
    assert field_list(fields) == [
        "- `channelId: string` — shown when `resource` is `channel` and `operation` is one of "
        "`archive`, `rename`, `close` — Channel"]


def test_conditions_on_different_fields_stay_apart_after_or() -> None:
    fields = (channel("archive", "archive"),
              channel("post", "post").model_copy(update={"shown_when": when(
                  resource="message", operation="post")}))
    (line,) = field_list(fields)
    assert ("shown when (`resource` is `channel` and `operation` is `archive`) or "
            "(`resource` is `message` and `operation` is `post`)") in line


def test_object_listings_with_fields_of_their_own_stand_apart_where_the_first_stands() -> None:
    def options(op: str, inner: str) -> DataField:
        sub = DataField(name=inner, type_text="boolean", type=TypeRef(kind="boolean"),
                        optional=True)
        return DataField(name="options", type_text="object", optional=True,
                         type=TypeRef(kind="object", fields=(sub,)),
                         shown_when=when(operation=op))
    plain = DataField(name="limit", type_text="number", type=TypeRef(kind="number"),
                      optional=True)
    assert field_list((options("get", "members"), plain, options("open", "returnIm"))) == [
        "- `options?: object` — shown when `operation` is `get`",
        "  - `members?: boolean`",
        "- `options?: object` — shown when `operation` is `open`",
        "  - `returnIm?: boolean`",
        "- `limit?: number`"]


def test_a_field_also_listed_without_a_condition_keeps_its_listings_apart() -> None:
    always = OPERATIONS[0].model_copy(update={"shown_when": ()})
    lines = field_list((always, OPERATIONS[1]))
    assert [line[:16] for line in lines] == ["- `operation?: \"", "- `operation?: \""]
