"""The Agent Skills package: the same skills as a folder agents load from disk, without MCP.

Written by `pygen gen` when `agent_skills_dir` is set, and gated by `pygen check` like every
other output. Layout (the open Agent Skills format: a folder per skill whose `SKILL.md`
frontmatter holds `name`, equal to the folder's name, and `description`):

    <agent_skills_dir>/workflow-editor/SKILL.md            the guide and the node catalog
    <agent_skills_dir>/workflow-editor/references/<type>.md  one per node type
    <agent_skills_dir>/workflow-editor/references/nodes.schema.json  the script's rule table
    <agent_skills_dir>/workflow-editor/references/index.md   every type at minimal detail
    <agent_skills_dir>/workflow-editor/scripts/validate_workflow.py
    <agent_skills_dir>/<orchestrator>/SKILL.md             each orchestrator skill

    <agent_skills_dir>/.pygen-manifest                     the files pygen wrote there

Every text is the one the skills folder gets in the same run, without pygen's frontmatter,
block markers and empty sections; frontmatter keeps only the keys the format defines. The
folder may hold other skills: `gen` replaces only files its manifest lists (or whose text is
already the new one), and refuses to write over any other.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pygen import layout
from pygen.skills.agent_skills_script import SCRIPT
from pygen.skills.catalog_text import TOOLS_BLOCK
from pygen.skills.minimal_detail import render_minimal
from pygen.skills.orchestrators import orchestrator_files, parse_frontmatter
from pygen.skills.sections import COMMENT, without_empty_sections

EDITOR = "workflow-editor"
DESCRIPTION = (
    "Build and edit workflows for this node-based editor: the workflow JSON shape, edge "
    "conventions, the node catalog, one reference per node type (fields, handles, tool, "
    "gotchas, a wired example) and a script that validates a workflow. Use it before writing "
    "or changing any workflow JSON."
)
# Frontmatter keys the Agent Skills format defines; pygen's own keys stay out.
ALLOWED_KEYS = ("name", "description", "license", "allowed-tools", "compatibility")
_TOOLS = re.compile(rf"(<!-- AUTO-GEN:START {TOOLS_BLOCK} -->\n)(.*?)(<!-- AUTO-GEN:END "
                    rf"{TOOLS_BLOCK} -->)", re.DOTALL)
_FRONTMATTER = re.compile(r"\A\ufeff?---\r?\n.*?\r?\n---\r?\n+", re.DOTALL)


def package_files(out: Path, skills_dir: Path, texts: Mapping[Path, str],
                  node_types: Sequence[str], doc: Mapping[str, Any]) -> dict[Path, str]:
    """Path → text of every file of the package, from the skills folder's new `texts` and
    the schema document they hold (`doc`, as gen built it: not parsed again)."""
    editor = out / EDITOR
    guide = texts.get(layout.workflow_editor(skills_dir), "")
    kept, left_out = _orchestrators(skills_dir)
    files = {editor / "SKILL.md": _skill_md(EDITOR, DESCRIPTION,
                                            _body(in_files(_file_tools(guide)))
                                            + _files_note(node_types)
                                            + _left_out_note(left_out))}
    stems = layout.file_stems(node_types)
    for node_type in node_types:
        text = texts.get(layout.node_file(skills_dir, node_type, stems))
        if text is not None:
            files[editor / "references" / f"{stems[node_type]}.md"] = _body(text)
    schema = texts.get(layout.schema_file(skills_dir))
    if schema is not None:
        files[editor / "references" / "nodes.schema.json"] = schema
        files[editor / "references" / "index.md"] = minimal_index(doc)
    files[editor / "scripts" / "validate_workflow.py"] = SCRIPT
    for text in kept:
        meta = parse_frontmatter(text)
        keys = {k: meta[k] for k in ALLOWED_KEYS if k in meta}
        files[out / meta["name"] / "SKILL.md"] = _frontmatter(keys) + _body(text)
    return files


# The Skill Call Protocol's server tools: the package's script implements none of them, so
# an orchestrator that calls skills through them cannot run from files alone.
PROTOCOL_TOOLS = ("list_callable_skills", "plan_skill_call", "validate_skill_result")


def _orchestrators(skills_dir: Path) -> tuple[list[str], list[str]]:
    """The orchestrator texts the package takes, and the names of those it leaves out (they
    name a protocol tool of the skills server)."""
    kept, left_out = [], []
    for path in orchestrator_files(skills_dir):
        text = path.read_text(encoding="utf-8")
        meta = parse_frontmatter(text)
        if not (meta.get("name") and meta.get("description")):
            continue
        if any(tool in text for tool in PROTOCOL_TOOLS):
            left_out.append(meta["name"])
        else:
            kept.append(text)
    return kept, left_out


def _left_out_note(names: Sequence[str]) -> str:
    if not names:
        return ""
    shown = ", ".join(f"`{name}`" for name in names)
    return ("\n## Left out of this package\n\n"
            f"{shown}: these skills call other skills through the Skill Call Protocol, which "
            "needs the skills server (`pygen serve`); this package's script only validates "
            "workflows, so they are not exported here.\n")


def minimal_index(doc: Mapping[str, Any]) -> str:
    """Every node type at the minimal detail, from the schema document (what the server's
    `minimal` level is rendered from): enough to build most nodes without a reference."""
    defs, handles, nodes = (doc.get(key) or {} for key in ("$defs", "x-handles", "x-nodes"))
    # The app's tool a node runs through is named as the app's: no skills server is here.
    text = "\n\n".join(render_minimal(name, defs[name], handles.get(name) or {},
                                       nodes.get(name) or {}, tool_word="app tool")
                        for name in defs)
    return ("# Node index: every type at minimal detail\n\n"
            "One block per type: handles (`in` → `out`, with types and edge limits), then "
            "each data field (`*` required, `=` default). `references/<type>.md` has the "
            "rest: descriptions, gotchas, a wired example.\n\n" + text + "\n")


MANIFEST = ".pygen-manifest"
_MANIFEST_HEAD = "# Written by pygen: the files of this folder that `pygen gen` writes.\n"


def manifest_text(out: Path, paths: Sequence[Path]) -> str:
    """The manifest listing the package's files, relative to the folder, one a line."""
    names = sorted(path.relative_to(out).as_posix() for path in paths)
    return _MANIFEST_HEAD + "".join(f"{name}\n" for name in names)


def foreign_files(out: Path, wanted: Mapping[Path, str],
                  existing: Mapping[Path, str | None]) -> list[Path]:
    """The existing files `gen` would replace that pygen did not write: not in the manifest
    and not already holding the new text."""
    manifest = existing.get(out / MANIFEST)
    owned = set() if manifest is None or not manifest.startswith(_MANIFEST_HEAD) \
        else set(manifest.splitlines()[1:])
    return [path for path, text in wanted.items()
            if existing.get(path) is not None and existing.get(path) != text
            and path != out / MANIFEST and path.relative_to(out).as_posix() not in owned]


def _file_tools(guide: str) -> str:
    """The guide with its tools block saying what this package offers instead of the skills
    server's tools (an agent reading files has no such server); the app's tools stay."""
    match = _TOOLS.search(guide)
    if match is None:
        return guide
    _, _, app = match.group(2).partition("\n\n")
    here = ("In this package (no skills server needed): `references/<type>.md` for a node "
            "type's fields, handles and tool; `scripts/validate_workflow.py WORKFLOW.json` to "
            "check a workflow.\n")
    return guide[:match.start(2)] + here + ("\n" + app if app else "") + guide[match.end(2):]


# The skills server's node tools as the package's files say them (an agent reading files has
# no such server): each call written in the guide becomes the file or script that stands in.
_IN_FILES = (
    # A detail level said beside the call is the server's: a reference is one text.
    (re.compile(r"\bcall\s+`get_node_skill(?:\([^`]*\))?`(?:\s+\([^)]*`standard`[^)]*\))?"),
     "read `references/<type>.md`"),
    (re.compile(r"`get_node_skill(?:\([^`]*\))?`"), "`references/<type>.md`"),
    (re.compile(r"`search_nodes(?:\([^`]*\))?` finds a type by what it does"),
     "the node catalog below lists every type by what it does"),
    (re.compile(r"`search_nodes(?:\([^`]*\))?`"), "the node catalog below"),
    (re.compile(r"`validate_workflow_json(?:\([^`]*\))?`"),
     "`scripts/validate_workflow.py WORKFLOW.json`"),
    (re.compile(r" \(`autofix_workflow(?:\([^`]*\))?` repairs the\s+mechanical slips\)"), ""),
)


def in_files(text: str) -> str:
    """The guide's text with the skills server's node tools named as this package's files."""
    for pattern, files_say in _IN_FILES:
        text = pattern.sub(files_say, text)
    return text


def _body(text: str) -> str:
    """A skill file's text for the package: no frontmatter, markers or empty sections."""
    text = COMMENT.sub("", without_empty_sections(_FRONTMATTER.sub("", text)))
    return re.sub(r"\n{3,}", "\n\n", text.replace("\r\n", "\n")).strip() + "\n"


def _files_note(node_types: Sequence[str]) -> str:
    shown = ", ".join(f"`{t}`" for t in node_types[:12])
    more = f" and {len(node_types) - 12} more" if len(node_types) > 12 else ""
    return ("\n## Files in this skill\n\n"
            "- `references/index.md`: every node type at minimal detail (handles, fields, "
            "values, defaults); read it first.\n"
            f"- `references/<type>.md`: one per node type ({shown}{more}); read one "
            "when the index leaves a field unclear.\n"
            "- `references/nodes.schema.json`: the JSON Schema of every node's data and its "
            "handle ids.\n"
            "- `scripts/validate_workflow.py WORKFLOW.json`: checks a workflow (ids, types, "
            "required fields, enum values, edges and handles); run it before saving.\n")


def _skill_md(name: str, description: str, body: str) -> str:
    return _frontmatter({"name": name, "description": description}) + body


def _frontmatter(keys: Mapping[str, str]) -> str:
    # JSON strings are valid YAML double-quoted scalars: any text survives the round trip.
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in keys.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n"
