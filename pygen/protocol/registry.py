"""The registry of skills the orchestrator may call: a TOML data file, checked at load time.

A team adds a skill by adding a `[[skills]]` table to `skills/protocol/registry.toml`; no code
changes. TOML rather than JSON because people edit this file by hand and want comments next
to each entry, and because the stdlib reads it, as it does the project's config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, model_validator

from pygen import files
from pygen.errors import PygenError
from pygen.protocol.loading import ProtocolError, field_message, json_path
from pygen.protocol.models import OutputKind

NAME_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


class RegistrySkill(BaseModel):
    """One callable skill: the seed table's row plus whether its response design is ready."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=NAME_PATTERN)
    asks: str = Field(min_length=1)
    """What the orchestrator asks this skill for."""
    outputs: tuple[OutputKind, ...] = Field(min_length=1)
    """Output kinds it returns."""
    optional_outputs: tuple[OutputKind, ...] = ()
    """Output kinds it may also return."""
    also_returns: tuple[str, ...] = ()
    """Other things it hands back, carried in `summary`, `logs` or extra fields (display only)."""
    ready: StrictBool = False
    """True once its response design is settled: `plan` then answers `planned`, not `dryRun`."""

    @model_validator(mode="after")
    def _disjoint(self) -> RegistrySkill:
        both = sorted(set(self.outputs) & set(self.optional_outputs))
        if both:
            raise ValueError(f"'{both[0]}' is listed in both outputs and optional_outputs")
        return self

    @property
    def allowed(self) -> tuple[OutputKind, ...]:
        return (*self.outputs, *self.optional_outputs)


class Registry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    skills: tuple[RegistrySkill, ...]
    # Where it was read from, so messages can say which file to edit.
    source: str = "<registry>"

    def get(self, name: str) -> RegistrySkill | None:
        return next((skill for skill in self.skills if skill.name == name), None)

    def names(self) -> tuple[str, ...]:
        return tuple(skill.name for skill in self.skills)


class _RegistryFile(BaseModel):
    """The file's top level: a `[[skills]]` array and nothing else."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    skills: tuple[RegistrySkill, ...] = Field(min_length=1)


def _where(table: dict[str, Any], loc: tuple[int | str, ...]) -> str:
    """`skills[2].outputs[0]`, with the skill's name when the entry has one."""
    where = json_path(loc).removeprefix("$").removeprefix(".") or "(top level)"
    skills = table.get("skills")
    index = loc[1] if len(loc) >= 2 and loc[0] == "skills" else None
    if isinstance(index, int) and isinstance(skills, list) and index < len(skills):
        entry = skills[index]
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            where += f" (skill '{entry['name']}')"
    return where


def _describe(exc: ValidationError, table: dict[str, Any], source: str) -> str:
    first = exc.errors()[0]
    message = field_message(first)
    if first["type"] == "string_pattern_mismatch":
        message = f"{first['input']!r} is not a kebab-case skill name"
    return f"{source}: {_where(table, tuple(first['loc']))}: {message}"


def parse_registry(table: dict[str, Any], source: str) -> Registry:
    """Check a registry table (as read from TOML); `source` names it in messages."""
    try:
        parsed = _RegistryFile.model_validate(table)
    except ValidationError as exc:
        raise ProtocolError(_describe(exc, table, source)) from None
    seen: set[str] = set()
    for index, skill in enumerate(parsed.skills):
        if skill.name in seen:
            raise ProtocolError(f"{source}: skills[{index}].name: duplicate skill '{skill.name}'")
        seen.add(skill.name)
    return Registry(skills=parsed.skills, source=source)


def load_registry(path: Path) -> Registry:
    """Read and check the registry; any bad entry is a ProtocolError naming file and field."""
    try:
        data = files.read_bytes(path, what="a skill registry file")
        if data is None:
            raise ProtocolError(f"{path}: cannot read the skill registry: "
                                "No such file or directory")
        table = files.parse_toml(data, path)
    except ProtocolError:
        raise
    except PygenError as exc:
        raise ProtocolError(str(exc)) from None
    return parse_registry(table, str(path))
