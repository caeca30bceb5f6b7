"""The config `pygen init` writes: every key it found set, the common others commented out,
each with one line saying what it does; as pygen.toml or as `[tool.pygen]` in pyproject.toml.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pygen import files
from pygen.config import Settings
from pygen.convention_presets import PRESETS
from pygen.errors import ConfigError

HEADER = ("# pygen configuration, written by `pygen init`. Paths are relative to this file.\n"
          "# Every key: see \"Configuration keys\" in pygen's docs/configuration.md.\n")


@dataclass(frozen=True)
class Found:
    """What init settled on, and what it saw, for the comments."""

    settings: Settings
    node_count: int
    tsconfig: str | None
    skills_found: bool


def definitions_comment(definitions: str | list[str]) -> str:
    """What the `definitions` key names: a constant, or a canvas library whose registration
    calls (js/lib/registries.json) declare the node types."""
    first = definitions if isinstance(definitions, str) else definitions[0]
    if first.startswith("registrations:"):
        return ("The node types the code registers with this canvas library "
                "(its registration calls, read by pygen).")
    return "The name of the definitions constant."


def value(item: object) -> str:
    """A TOML value for a string or a list of strings (JSON's quoting is TOML's)."""
    return json.dumps(item, ensure_ascii=False)


def key(name: str, item: object, comment: str, active: bool) -> list[str]:
    return [f"# {comment}", f"{'' if active else '# '}{name} = {value(item)}"]


def body(found: Found) -> str:
    """The keys, top-level ones first (a TOML table would swallow the keys after it)."""
    s, defaults = found.settings, Settings.model_validate({"nodes_file": "-"})
    lines = key("nodes_file", s.nodes_file,
                f"The file that declares the node definitions ({found.node_count} node(s) found).",
                True)
    lines += key("definitions", s.definitions, definitions_comment(s.definitions),
                 s.definitions != defaults.definitions)
    if s.variant_field:
        lines += key("variant_field", s.variant_field,
                     "Entries sharing a type are versions told apart by this key.", True)
    if s.type_template:
        lines += key("type_template", s.type_template,
                     "The type saved workflows name: package.json lists these nodes for n8n, "
                     "which names each by its package and its own name.", True)
    where = "an existing skills folder" if found.skills_found else "created by `pygen gen`"
    lines += key("skills_dir", s.skills_dir, f"Where the skill files live ({where}).",
                 s.skills_dir != defaults.skills_dir)
    lines += key("tsconfig", found.tsconfig or "tsconfig.json",
                 "Compiler options for imports; by default the nearest tsconfig.json above "
                 "nodes_file" + (" (this one)." if found.tsconfig else " (none found)."),
                 bool(found.tsconfig) and not str(found.tsconfig).endswith("tsconfig.json"))
    if s.extract_timeout != defaults.extract_timeout:
        lines += key("extract_timeout", s.extract_timeout,
                     "Seconds the extractor may take: reading this catalog took long.", True)
    if s.saved_workflows:
        lines += key("saved_workflows", s.saved_workflows,
                     "The project's saved workflows: `pygen check` validates them.", True)
    if s.foreign_blocks:
        lines += key("foreign_blocks", s.foreign_blocks,
                     "Blocks another tool writes: pygen leaves them alone.", True)
    if s.legacy_types:
        lines += key("legacy_types", s.legacy_types,
                     "Types the catalog no longer declares that the code migrates on load: "
                     "their skill files stay as written.", True)
    lines += key("tools", ["python:your.package.server:build_server"],
                 "MCP tool schema sources: python:module:attr, stdio:<command>, json:path.", False)
    lines += key("stale_prose", "error", "Backticked names in prose the code no longer has: "
                 "error, warn or off.", False)
    return "\n".join(lines + tables(s)) + "\n"


def tables(s: Settings) -> list[str]:
    """`[entry_fields]` with the names that differ from pygen's, `[field_list]`, and the
    `[conventions]` the saved workflows show."""
    lines: list[str] = []
    fields = s.entry_fields.model_dump(exclude_defaults=True)
    if fields:
        lines += ["", "# Property names of a definition entry that differ from pygen's "
                  "(false: the entries declare no handles on that side).", "[entry_fields]"]
        lines += [f"{name} = {toml(item)}" for name, item in fields.items()]
    if s.field_list is not None:
        lines += ["", "# Each entry's data is described by a list of field descriptors.",
                  "[field_list]"]
        lines += [f"{name} = {toml(item)}"
                  for name, item in s.field_list.model_dump(exclude_none=True).items()]
    if s.zod is not None:
        lines += ["", "# Each entry's data is described by the zod schema in this entry field.",
                  "[zod]", f"entry_field = {toml(s.zod.entry_field)}"]
    # The field-list preset brings its own conventions: written only where they differ.
    brought = PRESETS.get(s.field_list.preset or "", {}) if s.field_list is not None else {}
    # Only what was set (the saved workflows showed it, or it was declared), never pygen's
    # defaults, which would switch the preset's conventions off; of that, what the preset
    # does not bring already.
    every = s.conventions.model_dump()
    set_ = s.conventions.model_fields_set | s.conventions.model_dump(exclude_defaults=True).keys()
    conventions = {k: v for k, v in every.items()
                   if k in set_ and (k not in brought or brought[k] != v)}
    if conventions:
        lines += ["", "# How the saved workflows write a node, where it is not pygen's default.",
                  "[conventions]"]
        lines += [f"{name} = {toml(item)}" for name, item in conventions.items()]
    return lines


def toml(item: object) -> str:
    if isinstance(item, dict):  # an inline table: `{ text = "string" }`
        return "{ " + ", ".join(f"{value(k)} = {toml(v)}" for k, v in item.items()) + " }"
    return "false" if item is False else "true" if item is True else value(item)


def pygen_toml(found: Found) -> str:
    return HEADER + "\n" + body(found)


def in_pyproject(existing: str | None, found: Found) -> str:
    """pyproject.toml with a `[tool.pygen]` table appended; the rest kept byte for byte.

    A sub-table (`[entry_fields]`) is written as `[tool.pygen.entry_fields]`."""
    table = body(found)
    for name in ("entry_fields", "field_list", "zod", "conventions"):
        table = table.replace(f"\n[{name}]", f"\n[tool.pygen.{name}]")
    head = existing or ""
    if head and not head.endswith("\n"):
        head += "\n"
    return head + ("\n" if head else "") + "[tool.pygen]\n" + HEADER + table


def target(root: Path, pyproject: bool) -> Path:
    """Where the config goes; an error when a config is already there."""
    existing = root / "pygen.toml"
    if existing.is_file():
        raise ConfigError(f"{existing}: a pygen config exists already; edit it, or delete it "
                          "and run `pygen init` again")
    path = root / "pyproject.toml"
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        if "pygen" in data.get("tool", {}):
            raise ConfigError(f"{path}: [tool.pygen] exists already; edit it, or delete it "
                              "and run `pygen init` again")
    return path if pyproject else existing


def write(root: Path, found: Found, pyproject: bool) -> Path:
    path = target(root, pyproject)
    text = in_pyproject(files.read_text(path), found) if pyproject else pygen_toml(found)
    files.write_all([(path, text)])
    return path
