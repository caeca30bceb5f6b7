"""Parameters an editor's loader adds to a node's field list when it loads the node, beyond
the descriptors the node's code lists: a saved node carries them, so they are its fields.

Each addition is data of a field-list preset (`field_list.preset`) with the description
traits it depends on (keys of the node's description and class, as the catalog run reads
them: `polling`, `webhook`, ...). The descriptors are written in the preset's own dialect, so
they are read like any other, and say only what the editor's code says of them (names, type
words, defaults, nesting)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Traits = Mapping[str, Any]
Descriptor = dict[str, Any]


@dataclass(frozen=True)
class Added:
    """Descriptors the loader adds when every trait in `when` holds and none in `unless`.
    `into`: a collection descriptor of that name gets them among its options, when the list
    has one (else they are top-level); `merge`: a descriptor of the same name the list already
    has keeps its own options beside the added ones."""

    when: tuple[str, ...]
    unless: tuple[str, ...]
    descriptors: tuple[Descriptor, ...]
    why: str
    place: Literal["start", "end"] = "end"
    into: str | None = None
    merge: bool = False

    def applies(self, traits: Traits) -> bool:
        return all(traits.get(t) for t in self.when) and not any(
            traits.get(t) for t in self.unless)


def _cron_item() -> Descriptor:
    """One poll time: the values n8n-workflow's cronNodeOptions lists (node-helpers)."""
    modes = ["everyMinute", "everyHour", "everyDay", "everyWeek", "everyMonth", "everyX",
             "custom"]
    return {"name": "item", "displayName": "Item", "values": [
        {"name": "mode", "displayName": "Mode", "type": "options", "default": "everyDay",
         "options": [{"name": m, "value": m} for m in modes]},
        {"name": "hour", "displayName": "Hour", "type": "number", "default": 14},
        {"name": "minute", "displayName": "Minute", "type": "number", "default": 0},
        {"name": "dayOfMonth", "displayName": "Day of Month", "type": "number", "default": 1},
        {"name": "weekday", "displayName": "Weekday", "type": "options", "default": "1",
         "options": [{"name": d, "value": d} for d in ("1", "2", "3", "4", "5", "6", "0")]},
        {"name": "cronExpression", "displayName": "Cron Expression", "type": "string",
         "default": "* * * * * *"},
        {"name": "value", "displayName": "Value", "type": "number", "default": 2},
        {"name": "unit", "displayName": "Unit", "type": "options", "default": "hours",
         "options": [{"name": u, "value": u} for u in ("minutes", "hours")]},
    ]}


def _request_options() -> Descriptor:
    batch = {"name": "batch", "displayName": "Batching", "values": [
        {"name": "batchSize", "displayName": "Items per Batch", "type": "number",
         "default": 50},
        {"name": "batchInterval", "displayName": "Batch Interval (ms)", "type": "number",
         "default": 1000}]}
    return {"name": "requestOptions", "displayName": "Request Options", "type": "collection",
            "default": {}, "options": [
                {"name": "batching", "displayName": "Batching", "type": "fixedCollection",
                 "default": {"batch": {}}, "options": [batch]},
                {"name": "allowUnauthorizedCerts", "displayName": "Ignore SSL Issues",
                 "type": "boolean", "default": False},
                {"name": "proxy", "displayName": "Proxy", "type": "string", "default": ""},
                {"name": "timeout", "displayName": "Timeout", "type": "number",
                 "default": 10000}]}


PRESETS: dict[str, tuple[Added, ...]] = {
    "n8n": (
        Added(when=("polling",), unless=(), place="start", why=(
            "n8n-core nodes-loader/directory-loader.js applySpecialNodeParameters: a "
            "`polling` description gets commonPollingParameters (constants.js) first"),
              descriptors=({"name": "pollTimes", "displayName": "Poll Times",
                            "type": "fixedCollection", "typeOptions": {"multipleValues": True},
                            "default": {"item": [{"mode": "everyMinute"}]},
                            "options": [_cron_item()]},)),
        Added(when=("webhook", "supports_cors"), unless=(), into="options", why=(
            "applySpecialNodeParameters: a webhook node with `supportsCORS` gets "
            "commonCORSParameters inside its `options` collection, else top-level"),
              descriptors=({"name": "allowedOrigins", "displayName": "Allowed Origins (CORS)",
                            "type": "string", "default": "*"},)),
        Added(when=(), unless=("execute", "trigger", "webhook", "polling", "sub_node"),
              merge=True, why=(
            "DirectoryLoader.applyDeclarativeNodeOptionParameters: a declarative node (no "
            "execute, trigger, webhook or polling; not a sub-node) gets "
            "commonDeclarativeNodeOptionParameters, merged into its own requestOptions"),
              descriptors=(_request_options(),)),
    ),
}


def with_load_added(descriptors: Sequence[Any], traits: Traits | None,
                    preset: str | None) -> list[Any]:
    """The field list as the editor's loader leaves it; unchanged without traits (nothing is
    known of the description then) or additions for the preset."""
    out = list(descriptors)
    if not traits:
        return out
    for added in PRESETS.get(preset or "", ()):
        if added.applies(traits):
            out = _add(out, added)
    return out


def _add(out: list[Any], added: Added) -> list[Any]:
    new = [dict(d) for d in added.descriptors]
    if added.into is not None:
        at = next((i for i, d in enumerate(out) if isinstance(d, dict)
                   and d.get("name") == added.into and isinstance(d.get("options"), list)), None)
        if at is not None:
            out[at] = {**out[at], "options": [*new, *out[at]["options"]]}
            return out
    if added.merge:
        names = {d["name"]: d for d in new}
        for i, d in enumerate(out):
            if isinstance(d, dict) and d.get("name") in names:
                mine = names.pop(d["name"])
                out[i] = {**mine, "options": [*_options(mine), *_options(d)]}
        new = [d for d in new if d["name"] in names]
    return [*new, *out] if added.place == "start" else [*out, *new]


def _options(descriptor: Descriptor) -> list[Any]:
    value = descriptor.get("options")
    return value if isinstance(value, list) else []
