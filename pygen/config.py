"""Configuration: `[tool.pygen]` in pyproject.toml or a `pygen.toml`; paths relative to it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pygen.errors import ConfigError


class EntryFields(BaseModel):
    """Property names of a NODE_DEFINITIONS entry, for codebases that name them differently."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str = "type"
    label: str = "label"
    category: str = "category"
    credit_cost: str = "creditCost"
    description: str = "description"
    # `false`: the catalog declares no handles of that side; the skills say so and handle
    # checks are skipped.
    inputs: str | Literal[False] = "inputs"
    outputs: str | Literal[False] = "outputs"
    default_data: str = "defaultData"
    # Properties read from a handle written as an object (`{ id, label, type }`).
    handle_id: str = "id"
    handle_label: str = "label"
    # The handle's data type; unset: `type`, else `dataType`.
    handle_type: str | None = None
    # Connection rules (`false`: not read). On an input handle: the node types or output types
    # it accepts. On the entry or an output handle: the node types (or input types) its
    # outputs may connect to. Validation enforces them.
    handle_accepts: str | Literal[False] = "accepts"
    connects_to: str | Literal[False] = "connectsTo"


class Settings(BaseModel):
    """The keys a user may write; unknown keys are refused by name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    nodes_file: str
    # One source or several: `NAME` (in nodes_file), `path/glob.ts:NAME`, `call:fn`,
    # `class:property`.
    definitions: str | list[str] = "NODE_DEFINITIONS"
    # Entries sharing a type are variants told apart by this field (`toolType`).
    variant_field: str | None = None
    skills_dir: str = "skills"
    tsconfig: str | None = None
    data_types: dict[str, str] = Field(default_factory=dict)
    # A union type whose members are the candidates for structural data-type matching.
    data_union: str | None = None
    entry_fields: EntryFields = EntryFields()
    result_fields: list[str] = Field(default_factory=list)
    # Data fields the runner writes (globs, like result_fields; also the `@runner` tag).
    runner_fields: list[str] = Field(default_factory=list)
    # Data fields holding node ids (globs; also the `@nodeIds` tag): validation checks the ids.
    node_id_fields: list[str] = Field(default_factory=list)
    # The editor's type of a whole workflow document (`Workflow`, or `path/file.ts:Workflow`
    # when the nodes file does not import it): its keys beyond nodes and edges are checked.
    workflow_type: str | None = None
    tools: list[str] = Field(default_factory=list)
    tool_map: dict[str, str] = Field(default_factory=dict)
    tool_timeout: float = 30.0
    extract_timeout: float = 180.0
    strict: bool = False
    stale_prose: Literal["error", "warn", "off"] = "error"
    # Copy of workflow-editor.md shipped inside a Python package as the server's fallback.
    fallback_file: str | None = None


class Config(BaseModel):
    """Settings plus where they came from, with every path made absolute."""

    model_config = ConfigDict(frozen=True)

    settings: Settings
    source: Path | None
    root: Path

    def path(self, relative: str) -> Path:
        return (self.root / relative).resolve()

    @property
    def definitions(self) -> tuple[str, ...]:
        value = self.settings.definitions
        return (value,) if isinstance(value, str) else tuple(value)

    @property
    def definitions_label(self) -> str:
        """How rendered text names where the definitions come from."""
        return ", ".join(self.definitions)

    @property
    def nodes_file(self) -> Path:
        return self.path(self.settings.nodes_file)

    @property
    def skills_dir(self) -> Path:
        return self.path(self.settings.skills_dir)

    @property
    def tsconfig(self) -> Path | None:
        return self.path(self.settings.tsconfig) if self.settings.tsconfig else None

    @property
    def fallback_file(self) -> Path | None:
        return self.path(self.settings.fallback_file) if self.settings.fallback_file else None


def find_config(start: Path) -> Path | None:
    """The nearest pygen.toml, or pyproject.toml with a [tool.pygen] table, at or above start."""
    for folder in (start, *start.parents):
        candidate = folder / "pygen.toml"
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "pygen" in _read_toml(pyproject).get("tool", {}):
            return pyproject
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None


def _table(path: Path) -> tuple[dict[str, Any], str]:
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("pygen")
        if table is None:
            raise ConfigError(f"{path}: no [tool.pygen] table; add one with at least nodes_file")
        return table, "[tool.pygen] "
    return data, ""


def _describe(exc: ValidationError, path: Path, where: str) -> str:
    first = exc.errors()[0]
    # A union's branch (`str`, `literal[False]`) is part of the location, not a key.
    key = ".".join(str(part) for part in first["loc"] if not _BRANCH.match(str(part)))
    if first["type"] == "extra_forbidden":
        table = _TABLES.get(str(first["loc"][0])) if len(first["loc"]) > 1 else None
        known = ", ".join(table.model_fields if table else Settings.model_fields)
        inside = f" in [{first['loc'][0]}]" if table else ""
        return f"{path}: {where}unknown key '{key}'{inside}; valid keys: {known}"
    if first["type"] == "missing":
        return f"{path}: {where}missing the required key '{key}'"
    return f"{path}: {where}key '{key}': {first['msg']}"


_BRANCH = re.compile(r"^(str|int|float|bool|list\[.*\]|literal\[.*\])$")

# Sub-tables of the settings, for naming their own keys when one is unknown.
_TABLES: dict[str, type[BaseModel]] = {"entry_fields": EntryFields}


def load_config(path: Path | None = None, overrides: dict[str, Any] | None = None,
                cwd: Path | None = None) -> Config:
    """Read the config file (found from cwd unless given) and apply command-line overrides."""
    cwd = cwd or Path.cwd()
    source = path or find_config(cwd)
    table: dict[str, Any] = {}
    where = ""
    if source is not None:
        if not source.is_file():
            raise ConfigError(f"{source}: config file not found")
        table, where = _table(source)
    table = {**table, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    if source is None and "nodes_file" not in table:
        raise ConfigError(
            f"{cwd}: no pygen configuration found; add [tool.pygen] with nodes_file to "
            "pyproject.toml, create pygen.toml, or pass --nodes-file"
        )
    try:
        settings = Settings.model_validate(table)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source or cwd, where)) from None
    root = source.parent.resolve() if source else cwd.resolve()
    return Config(settings=settings, source=source, root=root)
