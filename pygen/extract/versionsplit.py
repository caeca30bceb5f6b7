"""One entry covering several versions (`version: [1, 1.1, 2]`) whose field list says which
versions have a field (`@version` conditions, config `field_list.version`): the fields are read
per version, and versions that read the same share one data shape. One shape: the entry is
read at its latest version. Several: the entry becomes variants of its type, one per shape,
named by its latest version and covering its versions, so a workflow node's version picks
the schema its data is checked against (the latest is the default, as for other versions)."""

from __future__ import annotations

from typing import Any

from pygen.config import FieldList
from pygen.extract import fieldlist
from pygen.model import DataType, NodeDef


def read(node: NodeDef, descriptors: Any, config: FieldList,
         variant_field: str | None) -> tuple[list[NodeDef], list[str]]:
    """The node(s) the entry is, with its fields, and one problem per unreadable descriptor.
    `variant_field` names a new variant's version where the data may carry it."""
    versions = _versions(node, config)
    if versions is None:
        data_type, found = fieldlist.data_type(descriptors, config, node.variant)
        return [node.model_copy(update={"data_type": data_type})], found
    # Each distinct data type (by its JSON text: linear to compare) and the versions it reads.
    shapes: dict[str, tuple[DataType, list[tuple[float, str]]]] = {}
    # A descriptor unreadable in every version is one problem, not one per version.
    problems: dict[str, None] = {}
    for number, text in versions:
        data_type, found = fieldlist.data_type(descriptors, config, text)
        shapes.setdefault(data_type.model_dump_json(), (data_type, []))[1].append((number, text))
        problems.update(dict.fromkeys(found))
    if len(shapes) == 1:
        ((data_type, _),) = shapes.values()
        return [node.model_copy(update={"data_type": data_type})], list(problems)
    return [_variant(node, data_type, covered, variant_field) for data_type, covered
            in sorted(shapes.values(), key=lambda shape: max(shape[1]))], list(problems)


def _versions(node: NodeDef, config: FieldList) -> list[tuple[float, str]] | None:
    """The versions the entry covers, by number, when the dialect has a version key and each
    is a number; None otherwise (the list is read at the entry's variant, if any)."""
    covered = (node.variant_values or (node.variant,)) if node.variant is not None \
        else node.versions
    if not covered or fieldlist.keys_for(config)["version"] is None:
        return None
    out = []
    for text in covered:
        try:
            out.append((float(text), text))
        except ValueError:
            return None
    return out


def _variant(node: NodeDef, data_type: DataType, covered: list[tuple[float, str]],
             variant_field: str | None) -> NodeDef:
    """The entry as the variant of the versions `covered`, named by the latest of them."""
    latest = max(covered)[1]
    return node.model_copy(update={
        "data_type": data_type, "variant": latest,
        "variant_values": tuple(text for _, text in covered),
        "variant_field": node.variant_field if node.variant is not None else variant_field,
        "versions": ()})
