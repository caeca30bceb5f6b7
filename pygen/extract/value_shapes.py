"""Value shapes of type words whose value is a structure the dialect fixes, not one its
descriptor spells out: n8n's `assignmentCollection` (the Set node's assignments) and `filter`
(IF / Filter conditions), as n8n-workflow's interfaces.d.ts types them
(AssignmentCollectionValue, FilterValue). Data of the field-list preset; a value any of
whose parts the interface leaves open (a parameter value) stays open here."""

from __future__ import annotations

from pygen.model import DataField, TypeRef


def _field(name: str, ref: TypeRef, optional: bool = False) -> DataField:
    return DataField(name=name, type_text=ref.name or ref.kind, type=ref, optional=optional)


def _enum(*values: str) -> TypeRef:
    return TypeRef(kind="union", types=tuple(TypeRef(kind="literal", value=v) for v in values))


_STRING, _ANY = TypeRef(kind="string"), TypeRef(kind="unknown")
# AssignmentValue {id, name, value: NodeParameterValue, type?}.
_ASSIGNMENT = TypeRef(kind="object", name="AssignmentValue", fields=(
    _field("id", _STRING), _field("name", _STRING), _field("value", _ANY),
    _field("type", _STRING, optional=True)))
# FilterOperatorValue {type: FilterOperatorType, operation, rightType?, singleValue?}; the
# editor also saves the operator's `name` (`filter.operator.equals`), as real exports show.
_OPERATOR_TYPES = ("string", "number", "boolean", "array", "object", "dateTime", "any")
_OPERATOR = TypeRef(kind="object", name="FilterOperatorValue", fields=(
    _field("type", _enum(*_OPERATOR_TYPES)), _field("operation", _STRING),
    _field("rightType", _enum(*_OPERATOR_TYPES), optional=True),
    _field("singleValue", TypeRef(kind="boolean"), optional=True),
    _field("name", _STRING, optional=True)))
# FilterConditionValue {id, leftValue, operator, rightValue}: the values are parameter values.
_CONDITION = TypeRef(kind="object", name="FilterConditionValue", fields=(
    _field("id", _STRING, optional=True), _field("leftValue", _ANY, optional=True),
    _field("operator", _OPERATOR), _field("rightValue", _ANY, optional=True)))
# FilterOptionsValue {caseSensitive, leftValue, typeValidation, version}: n8n writes what the
# node's typeOptions set, so each is optional here.
_FILTER_OPTIONS = TypeRef(kind="object", name="FilterOptionsValue", fields=(
    _field("caseSensitive", TypeRef(kind="boolean"), optional=True),
    _field("leftValue", _STRING, optional=True),
    _field("typeValidation", _enum("strict", "loose"), optional=True),
    _field("version", TypeRef(kind="number"), optional=True)))

PRESETS: dict[str | None, dict[str, TypeRef]] = {
    "n8n": {
        "assignmentCollection": TypeRef(kind="object", name="AssignmentCollectionValue", fields=(
            _field("assignments", TypeRef(kind="array", items=_ASSIGNMENT)),)),
        "filter": TypeRef(kind="object", name="FilterValue", fields=(
            _field("options", _FILTER_OPTIONS, optional=True),
            _field("conditions", TypeRef(kind="array", items=_CONDITION)),
            _field("combinator", _enum("and", "or"), optional=True))),
    },
}


def shape(preset: str | None, word: object) -> TypeRef | None:
    """The value shape the preset gives a type word, if any."""
    return PRESETS.get(preset, {}).get(word) if isinstance(word, str) else None
