"""Versioned node types as a workflow names them: n8n's VersionedNodeType is one type with a
variant per version (`n8n-nodes-base.slack.2.4`), and a workflow names the plain type with a
`typeVersion`. `get_node_skill` answers the plain type with its default variant and one line
naming the versions and how to ask for another.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from pygen.schema.document import VARIANTS_KEY


@dataclass(frozen=True)
class Versions:
    """A type whose entries are variants (n8n's versions), as a workflow names it: the
    variant answered for the plain type (the default) and what each variant covers."""

    node_type: str
    default: str
    field: str
    # (variant key, the values it covers), in the schema document's order.
    variants: tuple[tuple[str, tuple[str, ...]], ...]

    def line(self) -> str:
        """One line: the versions, which one this is, how to ask for another."""
        values = dict(self.variants)[self.default]
        other = next((key for key, _ in reversed(self.variants) if key != self.default), None)
        ask = (f" For another, ask for its type, e.g. get_node_skill(node_type=\"{other}\")."
               if other else "")
        if all(v == (key.removeprefix(f"{self.node_type}."),) for key, v in self.variants):
            # Each version its own type, `<type>.<version>`: the values say it all.
            listed = ", ".join(v[0] for _, v in self.variants)
            ask = ask.replace("ask for its type", f"ask for `{self.node_type}.<version>`")
        else:
            listed = ", ".join(f"{'/'.join(v)} `{key}`" for key, v in self.variants)
        return (f"Note: `{self.node_type}` has {len(self.variants)} versions (`{self.field}`: "
                f"{listed}); this is version {values[-1]}, the default.{ask}")


def versioned_types(doc: Mapping[str, Any], served: Mapping[str, str], field: str | None,
                    selectors: Collection[str]) -> dict[str, Versions]:
    """Every type of the schema document whose entries are variants and that is not served
    under its own name, when the variant it defaults to is served. `selectors` are the types
    that choose among variants (the catalog's `variant_of` values): only their entries are
    read, so a document opened through its index parses a few entries, not all of them."""
    out: dict[str, Versions] = {}
    defs = doc.get("$defs", {})
    if not isinstance(defs, Mapping):
        return out
    # In the document's order, as the full scan gave them.
    order = {t: i for i, t in enumerate(defs)} if selectors else {}
    for node_type in sorted((t for t in selectors if t in order), key=order.__getitem__):
        schema = defs[node_type]
        variants = schema.get(VARIANTS_KEY) if isinstance(schema, Mapping) else None
        if node_type in served or not isinstance(variants, Mapping):
            continue
        values = variants.get("values")
        default = variants.get("default")
        if not isinstance(values, Mapping) or default not in served:
            continue
        covers: dict[str, list[str]] = {}
        for value, key in values.items():
            if isinstance(key, str) and key in served:
                covers.setdefault(key, []).append(str(value))
        out[node_type] = Versions(node_type, str(default),
                                  field or str(variants.get("field") or "version"),
                                  tuple((k, tuple(v)) for k, v in covers.items()))
    return out
