"""The `doctor` report: the gate, plus the model's and the tools' health, prose coverage,
token sizes and node ↔ tool schema agreement. Pure; the command prints it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen import files, layout
from pygen.config import Config
from pygen.errors import MarkerError
from pygen.gate import contradictions, prose_lint
from pygen.gate.contradictions import Contradiction
from pygen.gate.gate import Gate, gate
from pygen.gate.mismatches import Mismatch, mismatches
from pygen.layout import for_people
from pygen.model import Model, NodeDef
from pygen.skills import block_digests, markers
from pygen.skills.sections import PROSE_SECTIONS, empty_sections

CHARS_PER_TOKEN = 4


# --- prose coverage -------------------------------------------------------------------------

@dataclass(frozen=True)
class ProseGap:
    node_type: str
    path: Path
    # The sections of PROSE_SECTIONS that are missing or hold no text.
    empty: tuple[str, ...]


def prose_gaps(nodes: Iterable[NodeDef], texts: Mapping[str, tuple[Path, str | None]]
               ) -> list[ProseGap]:
    gaps = []
    for node in nodes:
        path, text = texts[node.type]
        empty = empty_sections(text)
        if empty:
            gaps.append(ProseGap(node.type, path, empty))
    return gaps


def coverage(node_count: int, gaps: Iterable[ProseGap]) -> float:
    """Percent of the nodes' prose sections that hold text."""
    total = node_count * len(PROSE_SECTIONS)
    if total == 0:
        return 100.0
    missing = sum(len(gap.empty) for gap in gaps)
    return round(100.0 * (total - missing) / total, 1)


# --- token sizes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class TokenSize:
    path: Path
    chars: int

    @property
    def tokens(self) -> int:
        """Estimated tokens: characters / 4, the usual rule of thumb for English and code."""
        return math.ceil(self.chars / CHARS_PER_TOKEN)


def token_sizes(texts: Mapping[Path, str]) -> list[TokenSize]:
    sizes = [TokenSize(path, len(text)) for path, text in texts.items()]
    return sorted(sizes, key=lambda s: (-s.chars, str(s.path)))


# --- the report ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Report:
    node_count: int
    unresolved: tuple[str, ...]
    # Data types found by structure alone, for a person to confirm in data_types.
    structural: tuple[StructuralMatch, ...]
    tools_configured: bool
    # The categories whose nodes each need a tool (config `tool_categories`; none: not declared).
    tool_categories: tuple[str, ...]
    nodes_without_tool: tuple[str, ...]
    # Tools no node maps to, and those of them that no skill file names either.
    unused_tools: tuple[str, ...]
    unmentioned_tools: tuple[str, ...]
    prose_gaps: tuple[ProseGap, ...]
    prose_coverage: float
    gate: Gate
    tokens: tuple[TokenSize, ...]
    mismatches: tuple[Mismatch, ...]
    drift: tuple[Path, ...]
    contradictions: tuple[Contradiction, ...] = ()
    # How the run got the tool schemas, and whether that ran project code (tool_mode).
    tool_mode: str = ""
    ran_code: bool = False

    @property
    def total_tokens(self) -> int:
        return sum(size.tokens for size in self.tokens)

    @property
    def needs_person(self) -> bool:
        """Exit 1 for `doctor`: anything a run of `pygen gen` cannot fix by itself.

        Empty prose sections, token sizes and drift are reported but do not count.
        """
        return bool(self.unresolved or self.nodes_without_tool or self.unmentioned_tools
                    or self.mismatches or self.gate.failed or self.contradictions
                    or (self.gate.stale_names and self.gate.stale_prose != "off"))


@dataclass(frozen=True)
class StructuralMatch:
    node_type: str
    type_name: str
    score: float
    runner_up: str | None
    runner_up_score: float | None

    def __str__(self) -> str:
        second = (f", next {self.runner_up} {self.runner_up_score}" if self.runner_up
                  else ", no other candidate")
        return f"{self.node_type} → {self.type_name} ({self.score}{second})"


def structural_matches(model: Model) -> list[StructuralMatch]:
    out = []
    for n in model.nodes:
        dt = n.data_type
        if dt.via == "structural" and dt.name is not None:
            second = dt.runner_up
            out.append(StructuralMatch(n.type, dt.name, dt.score or 0.0,
                                       second.name if second else None,
                                       second.score if second else None))
    return out


def current_texts(skills_dir: Path, planned: Sequence[block_digests.Planned]) -> dict[Path, str]:
    """Each skill file as it will be after `pygen gen` (planned files) or as it is."""
    texts = {path: files.read_text(path) or "" for path in prose_lint.skill_files(skills_dir)}
    texts.update({u.path: u.new for u in planned})
    return dict(sorted(texts.items()))


def mentioned(names: Iterable[str], texts: Iterable[str]) -> set[str]:
    joined = "\n".join(texts)
    return {name for name in names if f"`{name}`" in joined or f"`{name}(" in joined}


def without_blocks(text: str, path: str) -> str:
    """The text with its AUTO-GEN blocks left out (a malformed file is read whole)."""
    try:
        blocks = markers.parse(text, path)
    except MarkerError:
        return text
    lines = markers.lines_of(text)
    generated = {i for b in blocks for i in range(b.start_line - 1, b.end_line)}
    return "".join(line for i, line in enumerate(lines) if i not in generated)


def tool_health(model: Model, texts: Mapping[Path, str], categories: Sequence[str]
                ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    from pygen.tools import unmapped_report

    mapping = {n.type: n.tool for n in model.nodes if n.tool is not None}
    report = unmapped_report(model.nodes, model.tools, mapping, categories)
    # Only what people wrote counts: the editor's generated tools block lists every tool.
    named = mentioned(report.unused_tools,
                      (without_blocks(text, str(path)) for path, text in texts.items()))
    unmentioned = tuple(t for t in report.unused_tools if t not in named)
    return report.nodes_without_tool, report.unused_tools, unmentioned


def agent_read(skills_dir: Path, texts: Mapping[Path, str]) -> dict[Path, str]:
    """The Markdown an agent fetches: not the server's fallback copy, not the schema JSON,
    not the files for people."""
    return {p: t for p, t in texts.items() if p.suffix == ".md" and p.is_relative_to(skills_dir)
            and not for_people(p, skills_dir)}


def diagnose(config: Config, model: Model, planned: Sequence[block_digests.Planned]) -> Report:
    skills = config.skills_dir
    texts = current_texts(skills, planned)
    files = {n.type: layout.node_file(skills, n.key, model.file_stems) for n in model.nodes}
    by_type = {t: (path, texts.get(path)) for t, path in files.items()}
    gaps = prose_gaps(model.nodes, by_type)
    configured = bool(config.settings.tools)
    categories = tuple(config.settings.tool_categories)
    without, unused, unmentioned = (tool_health(model, texts, categories) if configured
                                    else ((), (), ()))
    return Report(
        node_count=len(model.nodes),
        unresolved=tuple(model.untyped()),
        structural=tuple(structural_matches(model)),
        tools_configured=configured, tool_categories=categories,
        nodes_without_tool=without, unused_tools=unused, unmentioned_tools=unmentioned,
        prose_gaps=tuple(gaps), prose_coverage=coverage(len(model.nodes), gaps),
        gate=gate(config, model, planned),
        tokens=tuple(token_sizes(agent_read(skills, texts))),
        mismatches=tuple(mismatches(model)),
        drift=tuple(u.path for u in planned if u.old != u.new),
        contradictions=tuple(contradictions.find(model)),
        **tool_mode(config),
    )


def tool_mode(config: Config) -> dict[str, Any]:
    """Which way this run read the tool schemas, for `doctor` to say (docs/check.md: "Which
    commands run your code")."""
    from pygen.tools.recorded import runs_code

    settings = config.settings
    running = runs_code(settings.tools) if settings.run_tools else []
    if not settings.tools:
        mode = "no tool sources configured; no project code run"
    elif not settings.run_tools:
        mode = "recorded in the schema document (--no-tools); no project code run"
    elif running:
        mode = f"read by running project code: {', '.join(running)}"
    else:
        mode = "read from JSON files; no project code run"
    return {"tool_mode": mode, "ran_code": bool(running)}
