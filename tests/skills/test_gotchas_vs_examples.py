"""An example never contradicts a gotcha: each "Common gotchas" sentence of the example app's
node skills that names a field and makes a checkable claim about it (its default, its allowed
values or range, that the runner writes it, how the mapping field maps a wired input) is held
against the generated skill's default data and worked example (with the data the editor fills
in, where the conventions declare it does).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODES = ROOT / "skills" / "nodes"
SCHEMAS = json.loads((ROOT / "skills" / "schemas" / "nodes.schema.json").read_text("utf-8"))
CONV = SCHEMAS.get("x-conventions", {})
MAPPING = CONV.get("mapping_field")
FILLS = bool(CONV.get("editor_fills_defaults"))

VALUE = r"(?:`[^`]+`|\"[^\"]+\"|-?\d+(?:\.\d+)?|true|false)"
DEFAULTS = [
    re.compile(rf"`(\w+)`[^`;]*?\bdefaults to ({VALUE})"),
    re.compile(rf"`(\w+)`[^`;]*?\(default ({VALUE})\)"),
    re.compile(rf"`(\w+)` is ({VALUE}) by default"),
    re.compile(rf"by default \(`(\w+)` ({VALUE})\)"),
]
ONE_OF = re.compile(rf"`(\w+)` is (?:one of |the number )?({VALUE}(?:(?:, | or ){VALUE})+)")
RANGE = re.compile(r"`(\w+)` runs from (-?[\d.]+) to (-?[\d.]+)")
RUNNER = [re.compile(r"runner writes `(\w+)`[^.]*\. Don't fill that field yourself"),
          re.compile(r"`(\w+)` is written by the runner; leave it out")]
OMITTED = re.compile(r"Leave `(\w+)` out[^.]*the default data omits it")
PAIR = re.compile(r"`(\w+)`(?: mapped)? to `(\w+)`")


@dataclass
class Skill:
    node_type: str
    gotchas: str
    defaults: dict[str, Any]
    example: dict[str, Any]


def value(token: str) -> Any:
    token = token.strip("`")
    try:
        return json.loads(token)
    except ValueError:
        return token


def section(text: str, heading: str) -> str:
    match = re.search(rf"^## {heading}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return match.group(1) if match else ""


def json_blocks(text: str) -> list[Any]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]


def load(path: Path) -> Skill:
    text = path.read_text("utf-8")
    shape = text.split("<!-- AUTO-GEN:END node-data-shape -->")[0]
    examples = text.split("<!-- AUTO-GEN:START examples -->")[1]
    node_type = re.search(r"^node_type: (\S+)", text, re.M).group(1)  # type: ignore[union-attr]
    return Skill(node_type, " ".join(section(text, "Common gotchas").split()),
                 json_blocks(shape)[-1], json_blocks(examples)[0])


SKILLS = {s.node_type: s for s in map(load, sorted(NODES.glob("[!_]*.md")))}


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`-])", text) if s]


def effective(node: dict[str, Any]) -> dict[str, Any]:
    data = dict(node.get("data", {}))
    owner = SKILLS.get(node.get("type", ""))
    return {**owner.defaults, **data} if FILLS and owner else data


def values_of(data: Any, key: str) -> Iterator[Any]:
    """Every value under `key`, at any depth (nested objects name their fields too)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key:
                yield v
            yield from values_of(v, key)
    elif isinstance(data, list):
        for item in data:
            yield from values_of(item, key)


def claims(skill: Skill) -> Iterator[tuple[str, str, str | None]]:
    """(kind, sentence, problem or None) for every checkable claim of the skill's gotchas."""
    for bullet in skill.gotchas.split(" - "):
        yield from runner_claims(skill, bullet)
    for sentence in sentences(skill.gotchas):
        yield from default_claims(skill, sentence)
        yield from example_claims(skill, sentence)
        if MAPPING and f"`{MAPPING}`" in sentence:
            yield from mapping_claims(skill, sentence)


def owner_defaults(skill: Skill, field: str) -> dict[str, Any] | None:
    if field in skill.defaults:
        return skill.defaults
    owners = [s.defaults for s in SKILLS.values() if field in s.defaults]
    return owners[0] if len(owners) == 1 else None


def default_claims(skill: Skill, sentence: str) -> Iterator[tuple[str, str, str | None]]:
    for pattern in DEFAULTS:
        for field, token in pattern.findall(sentence):
            defaults = owner_defaults(skill, field)
            if defaults is not None:
                got = defaults[field]
                yield "default", sentence, (None if got == value(token) else
                                            f"default data has {field}={got!r}")


def has_field(node_type: str, field: str) -> bool:
    """Whether the type's data names the field, at any depth."""
    return f'"{field}"' in json.dumps(SCHEMAS["$defs"].get(node_type, {}))


def holders(skill: Skill, field: str) -> list[dict[str, Any]]:
    """The effective data of the example's nodes a claim about `field` speaks of: this type's,
    or, for another type's field, that type's."""
    own = has_field(skill.node_type, field)
    return [effective(n) for n in skill.example["nodes"]
            if (n["type"] == skill.node_type if own else has_field(n["type"], field))]


def example_claims(skill: Skill, sentence: str) -> Iterator[tuple[str, str, str | None]]:
    for field, listed in ONE_OF.findall(sentence):
        allowed = [value(t) for t in re.findall(VALUE, listed)]
        bad = [v for d in holders(skill, field) for v in values_of(d, field) if v not in allowed]
        yield "one-of", sentence, f"example has {field}={bad[0]!r}" if bad else None
    for field, low, high in RANGE.findall(sentence):
        bad = [v for d in holders(skill, field) for v in values_of(d, field)
               if not float(low) <= v <= float(high)]
        yield "range", sentence, f"example has {field}={bad[0]!r}" if bad else None
    for field in OMITTED.findall(sentence):
        yield "omitted", sentence, f"default data has {field}" if field in skill.defaults else None


def runner_claims(skill: Skill, bullet: str) -> Iterator[tuple[str, str, str | None]]:
    """A field the runner writes (said over two sentences of a bullet) is not in the example."""
    for pattern in RUNNER:
        for field in pattern.findall(bullet):
            written = [n["id"] for n in skill.example["nodes"] if field in n.get("data", {})]
            yield "runner", bullet, f"example writes {field}" if written else None


def mapping_claims(skill: Skill, sentence: str) -> Iterator[tuple[str, str, str | None]]:
    """`H` to `F`: every example node with an edge into H whose type has F maps H to F; "the
    default is empty": the node's default mapping is empty."""
    nodes = {n["id"]: n for n in skill.example["nodes"]}
    if "default is empty" in sentence or "default is an empty object" in sentence:
        got = skill.defaults.get(MAPPING)
        yield "mapping-default", sentence, None if got == {} else f"default mapping is {got}"
    for handle, field in PAIR.findall(sentence):
        for edge in skill.example.get("edges", []):
            node = nodes.get(edge["target"])
            owner = SKILLS.get(node["type"]) if node else None
            if edge["targetHandle"] != handle or owner is None or not has_field(
                    owner.node_type, field):
                continue
            got = effective(node).get(MAPPING, {}).get(handle)  # type: ignore[arg-type]
            yield "mapping", sentence, None if got == field else (
                f"node {node['id']} maps {handle!r} to {got!r}")  # type: ignore[index]


@pytest.mark.parametrize("node_type", sorted(SKILLS))
def test_no_gotcha_contradicts_the_example(node_type: str) -> None:
    problems = [f"{problem}: {sentence}" for _, sentence, problem in claims(SKILLS[node_type])
                if problem]
    assert problems == []


def test_every_kind_of_claim_is_checked_somewhere() -> None:
    kinds = {kind for skill in SKILLS.values() for kind, _, _ in claims(skill)}
    assert kinds == {"default", "one-of", "range", "runner", "omitted", "mapping",
                     "mapping-default"}


def test_a_contradicting_example_is_caught() -> None:
    """The generate-music case agents met: text wired into `in`, no mapping entry."""
    skill = SKILLS["generate-music"]
    broken = json.loads(json.dumps(skill.example))
    for node in broken["nodes"]:
        node["data"].pop(MAPPING, None)
    found = [p for k, _, p in claims(Skill(skill.node_type, skill.gotchas, skill.defaults,
                                           broken)) if k == "mapping"]
    assert any(found)
