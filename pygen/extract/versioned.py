"""Which fields a version of a node has, when the field list's visibility conditions name the
node's own version (config `field_list.version`, n8n's `@version`): `show: {"@version": [2]}`
keeps a field in version 2 only, `[{_cnd: {gte: 3}}]` from version 3 on. The version picks the
fields; it is never a condition on the data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The comparisons a version condition may hold (`{_cnd: {gte: 2}}`).
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "eq": lambda v, a: v == a, "not": lambda v, a: v != a,
    "gte": lambda v, a: v >= a, "lte": lambda v, a: v <= a,
    "gt": lambda v, a: v > a, "lt": lambda v, a: v < a,
}


def shown_in(show: Any, hide: Any, key: str | None, version: float | None) -> bool:
    """Whether a descriptor whose visibility conditions are `show` / `hide` is a field of this
    version: no version known, no version key, or its show conditions hold for the version
    and its hide conditions do not."""
    if version is None or key is None:
        return True
    shown = show.get(key) if isinstance(show, dict) else None
    hidden = hide.get(key) if isinstance(hide, dict) else None
    return (shown is None or _any(shown, version, True)) and (
        hidden is None or not _any(hidden, version, False))


def _any(wanted: Any, version: float, unknown: bool) -> bool:
    """Whether any listed value or rule holds for `version`; a rule pygen cannot read counts
    as `unknown` (the field stays, as the editor may show it)."""
    items = wanted if isinstance(wanted, list) else [wanted]
    return any(_holds(item, version, unknown) for item in items)


def _holds(item: Any, version: float, unknown: bool) -> bool:
    if isinstance(item, int | float) and not isinstance(item, bool):
        return float(item) == version
    rule = item.get("_cnd") if isinstance(item, dict) else None
    if not isinstance(rule, dict) or len(rule) != 1:
        return unknown
    ((op, arg),) = rule.items()
    if op == "between" and isinstance(arg, dict):
        low, high = _num(arg.get("from")), _num(arg.get("to"))
        return unknown if low is None or high is None else low <= version <= high
    bound = _num(arg)
    compare = _COMPARE.get(op)
    return unknown if compare is None or bound is None else compare(version, bound)


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None
