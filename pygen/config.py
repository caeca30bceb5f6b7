"""Configuration: `[tool.pygen]` in pyproject.toml or a `pygen.toml`; paths relative to it."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pygen import files
from pygen.config_values import glob_problem, template_problem
from pygen.convention_presets import with_preset_conventions
from pygen.conventions import Conventions
from pygen.errors import ConfigError, PygenError
from pygen.load_step_config import LoadStep


class EntryFields(BaseModel):
    """Property names of a NODE_DEFINITIONS entry, for codebases that name them differently."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    type: str = "type"
    label: str = "label"
    category: str = "category"
    # What one node costs to run, shown in its skill; off unless the app names its property.
    credit_cost: str | Literal[False] = False
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
    # On an input handle: the most edges it takes (an integer); off unless named.
    handle_limit: str | Literal[False] = False
    # With `variant_field`: the entry property naming the variant a node that names none is
    # of (n8n's `defaultVersion`); off unless named (then the latest version, if numeric).
    default_variant: str | Literal[False] = False


# What a field-list type word means for the value (pygen/extract/fieldlist.py MEANINGS).
TypeWordMeaning = Literal["string", "number", "boolean", "enum", "enum_list", "object", "list",
                          "collection", "fixed_collection", "not_data"]


class FieldList(BaseModel):
    """A node's data described by a list of field descriptors in its entry (n8n's
    `properties`, Flowise's `inputs`): where the list is and which descriptor key holds what.
    A preset fills every key for a known dialect; a key set here overrides the preset's."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    # The entry field holding the list (a dotted path, like entry_fields).
    entry_field: str
    preset: Literal["n8n", "flowise"] | None = None
    name: str | None = None
    label: str | None = None
    type: str | None = None
    default: str | None = None
    description: str | None = None
    # Enum values: a list of strings or of objects whose `option_value` key is the value.
    options: str | None = None
    option_value: str | None = None
    # `required = true` on the descriptor, or `optional = true` (Flowise): one of the two.
    required: str | None = None
    optional: str | None = None
    # A descriptor flag (`hidden: true`, Flowise) marking a field the editor never shows: no
    # one can fill it in, so it is never required.
    internal: str | None = None
    # Visibility: `{field: [values]}` shown only when / hidden when another field has them.
    show: str | None = None
    hide: str | None = None
    # The key inside show/hide that names the node's own version (n8n's `@version`): it picks
    # which fields each version has, and is no condition on the data.
    version: str | None = None
    # Type word -> what it means for the value, over the preset's map (docs/configuration.md):
    # `{ text = "string", select = "enum", json = "object" }`.
    type_words: dict[str, TypeWordMeaning] | None = None


class Zod(BaseModel):
    """A node's data described by a zod schema held in its entry (`schema: z.object({...})`,
    or a constant naming one): where the schema is."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    # The entry field holding the schema (a dotted path, like entry_fields).
    entry_field: str


class DynamicSides(BaseModel):
    """The handles of one node type that are computed from its data or at run time, per side:
    the id patterns they follow (`*`: any run of characters; `[]`: any id)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    inputs: list[str] | None = None
    outputs: list[str] | None = None


# The `definitions` kinds read from wherever the project's files hold them, not from a glob:
# calls of a function, class properties, a canvas library's registrations.
SEARCHED_SOURCES = ("call", "class", "registrations")


class Settings(BaseModel):
    """The keys a user may write; unknown keys are refused by name."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    nodes_file: str
    # One source or several: `NAME` (in nodes_file), `path/glob.ts:NAME`, `call:fn`,
    # `class:property`, `registrations:<library>` (js/lib/registries.json).
    definitions: str | list[str] = "NODE_DEFINITIONS"
    # Entries sharing a type are variants told apart by this field (`toolType`).
    variant_field: str | None = None
    skills_dir: str = "skills"
    tsconfig: str | None = None
    data_types: dict[str, str] = Field(default_factory=dict)
    # A union type whose members are the candidates for structural data-type matching.
    data_union: str | None = None
    entry_fields: EntryFields = EntryFields()
    # Data described by a field list in each entry instead of a TypeScript type.
    field_list: FieldList | None = None
    # Data described by a zod schema in each entry instead of a TypeScript type.
    zod: Zod | None = None
    # The type saved workflows name, from the declared one: "{package}.{type}" (n8n).
    type_template: str | None = None
    result_fields: list[str] = Field(default_factory=list)
    # Data fields the runner writes (globs, like result_fields; also the `@runner` tag).
    runner_fields: list[str] = Field(default_factory=list)
    # Data fields holding node ids (globs; also the `@nodeIds` tag): validation checks the ids.
    node_id_fields: list[str] = Field(default_factory=list)
    # The editor's type of a whole workflow document (`Workflow`, or `path/file.ts:Workflow`
    # when the nodes file does not import it): its keys beyond nodes and edges are checked.
    workflow_type: str | None = None
    # What the types cannot say: mapping field, label, envelope, defaults, graph rules.
    conventions: Conventions = Conventions()
    # Node type -> its handles computed from data or at run time (`{ outputs = ["col_*"] }`):
    # edges there are checked against the patterns, not against the declared list.
    dynamic_handles: dict[str, DynamicSides] = Field(default_factory=dict)
    # The editor's load step: the legacy names it rewrites when it loads a saved workflow.
    load_step: LoadStep | None = None
    # Globs of the repo's own saved workflows: `check` validates them against the catalog.
    saved_workflows: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    tool_map: dict[str, str] = Field(default_factory=dict)
    # Node categories whose every node is filled by a tool: `doctor` names the ones without.
    tool_categories: list[str] = Field(default_factory=list)
    # false: no tool source is read; the schemas recorded in the schema document stand in,
    # so no project code runs (`check --no-tools`).
    run_tools: bool = True
    tool_timeout: float = Field(30.0, gt=0, allow_inf_nan=False)
    extract_timeout: float = Field(180.0, gt=0, allow_inf_nan=False)
    # How long a writing run waits for another one on the same skills_dir.
    lock_timeout: float = Field(30.0, ge=0, allow_inf_nan=False)
    strict: bool = False
    stale_prose: Literal["error", "warn", "off"] = "error"
    # Copy of workflow-editor.md shipped inside a Python package as the server's fallback.
    fallback_file: str | None = None
    # AUTO-GEN block ids another tool writes: left alone, and not listed by `doctor`.
    foreign_blocks: list[str] = Field(default_factory=list)
    # Retired names a person has dealt with: no longer reported as stale in prose.
    forget: list[str] = Field(default_factory=list)
    # Node types the catalog no longer declares whose skill files stay as written and served
    # (a legacy type the editor still migrates or runs): never orphans.
    legacy_types: list[str] = Field(default_factory=list)
    # A skills_dir that is a link to a folder outside the project is refused unless set.
    external_skills_dir: bool = False
    # Where `gen` also writes the skills as an Agent Skills package (off when unset).
    agent_skills_dir: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _preset_conventions(cls, table: Any) -> Any:
        # A field-list preset brings its editor's conventions (pygen/convention_presets.py).
        return with_preset_conventions(table)

    @field_validator("saved_workflows")
    @classmethod
    def _project_globs(cls, globs: list[str]) -> list[str]:
        for pattern in globs:
            problem = glob_problem(pattern, outside=False)
            if problem:
                raise ValueError(f"{pattern!r}: {problem}")
        return globs

    @field_validator("definitions")
    @classmethod
    def _source_globs(cls, value: str | list[str]) -> str | list[str]:
        for spec in [value] if isinstance(value, str) else value:
            pattern, _, _name = spec.rpartition(":")
            problem = glob_problem(pattern, outside=True) \
                if pattern and pattern not in SEARCHED_SOURCES else None
            if problem:
                raise ValueError(f"{spec!r}: {problem}")
        return value

    @field_validator("type_template")
    @classmethod
    def _usable_template(cls, template: str | None) -> str | None:
        problem = template_problem(template) if template is not None else None
        if problem:
            raise ValueError(problem)
        return template


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

    @property
    def agent_skills_dir(self) -> Path | None:
        folder = self.settings.agent_skills_dir
        return self.path(folder) if folder else None

    @property
    def project(self) -> tuple[Path, ...]:
        """Where pygen may write: the config file's folder, and the git work tree it is in."""
        tree = next((f for f in (self.root, *self.root.parents) if (f / ".git").exists()), None)
        return (self.root,) if tree is None or tree == self.root else (self.root, tree)

    def inside(self, path: Path) -> bool:
        """Whether path, links resolved, lies in the project."""
        real = path.resolve()
        return any(real.is_relative_to(folder) for folder in self.project)


def find_config(start: Path) -> Path | None:
    """The nearest pygen.toml, or pyproject.toml with a [tool.pygen] table, at or above start."""
    for folder in (start, *start.parents):
        candidate = folder / "pygen.toml"
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            tool = _read_toml(pyproject).get("tool")
            if isinstance(tool, dict) and "pygen" in tool:
                return pyproject
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        data = files.read_bytes(path, what="a config file")
        if data is None:
            raise ConfigError(f"{path}: config file not found")
        return files.parse_toml(data, path)
    except PygenError as exc:
        raise ConfigError(str(exc)) from None


def _table(path: Path) -> tuple[dict[str, Any], str]:
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        table = tool.get("pygen") if isinstance(tool, dict) else None
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: no [tool.pygen] table; add one with at least nodes_file")
        return table, "[tool.pygen] "
    return data, ""


def _describe(exc: ValidationError, path: Path, where: str) -> str:
    first = exc.errors()[0]
    # A union's branch (`str`, `literal[False]`) is part of the location, not a key.
    key = ".".join(str(part) for part in first["loc"] if not _BRANCH.match(str(part)))
    if first["type"] == "extra_forbidden":
        head = str(first["loc"][0])
        named = _NAMED_TABLES.get(head) if len(first["loc"]) > 2 else None
        table = named or (_TABLES.get(head) if len(first["loc"]) > 1 else None)
        known = ", ".join(table.model_fields if table else Settings.model_fields)
        inside = (f" in [{head}.{first['loc'][1]}]" if named
                  else f" in [{head}]" if table else "")
        key = str(first["loc"][-1]) if named else key
        return f"{path}: {where}unknown key '{key}'{inside}; valid keys: {known}"
    if first["type"] == "missing":
        return f"{path}: {where}missing the required key '{key}'"
    # A validator's own sentence stands alone, without pydantic's "Value error, " label.
    return f"{path}: {where}key '{key}': {first['msg'].removeprefix('Value error, ')}"


_BRANCH = re.compile(r"^(str|int|float|bool|list\[.*\]|literal\[.*\])$")

# Sub-tables of the settings, for naming their own keys when one is unknown.
_TABLES: dict[str, type[BaseModel]] = {"entry_fields": EntryFields, "field_list": FieldList,
                                     "zod": Zod, "conventions": Conventions,
                                     "load_step": LoadStep}
# Tables keyed by the user's names (a node type), whose values are tables: their keys.
_NAMED_TABLES: dict[str, type[BaseModel]] = {"dynamic_handles": DynamicSides}


def load_config(path: Path | None = None, overrides: dict[str, Any] | None = None,
                cwd: Path | None = None) -> Config:
    """Read the config file (found from cwd unless given) and apply command-line overrides."""
    cwd = cwd or Path.cwd()
    source = path or find_config(cwd)
    table: dict[str, Any] = {}
    where = ""
    if source is not None:
        if not source.is_file():
            try:
                files.check_regular(source, "a config file")
            except PygenError as exc:
                raise ConfigError(str(exc)) from None
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
    if not settings.external_skills_dir:
        _refuse_outside_link(root, Path(os.path.abspath(root / settings.skills_dir)))
    return Config(settings=settings, source=source, root=root)


def _refuse_outside_link(root: Path, skills_dir: Path) -> None:
    """A skills_dir reached through a link must stay inside the project."""
    below = [p for p in (skills_dir, *skills_dir.parents) if p.is_relative_to(root) and p != root]
    link = next((p for p in below or [skills_dir] if p.is_symlink()), None)
    target = skills_dir.resolve()
    if link is not None and not target.is_relative_to(root):
        raise ConfigError(f"{link}: skills_dir is a symbolic link to {target}, outside the "
                          f"project {root}; point skills_dir there directly or set "
                          "external_skills_dir = true")
