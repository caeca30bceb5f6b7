"""`pygen init`: find the node catalog, tsconfig and skills folder; write a commented config."""

from __future__ import annotations

from pathlib import Path

import click

from pygen.config import Settings
from pygen.init import configfile, evidence, legacy, load_maps, rank, scan, survey, workflows
from pygen.init.literals import Candidate
from pygen.output import console, err_console, shown
from pygen.skills import render

SAMPLE = 5


def _say(text: str) -> None:
    console.print(text, highlight=False, markup=False)


def _catalog_line(catalog: survey.Catalog) -> str:
    c = catalog.candidate
    where = f"{shown(c.path)}:{c.line}"
    if catalog.error:
        return f"{c.name}  {where}  (the extractor failed: {catalog.error})"
    types = catalog.node_types
    sample = ", ".join(types[:SAMPLE]) + (", …" if len(types) > SAMPLE else "")
    return (f"{c.name}  {where}  {len(types)} node(s): {sample}; data types: "
            f"{catalog.resolution()}")


def _progress(index: int, total: int, candidate: Candidate) -> None:
    err_console.print(f"init: confirming candidate {index}/{total} with the extractor: "
                      f"{candidate.name} ({shown(candidate.path)}:{candidate.line})",
                      highlight=False, markup=False)


def ambiguous(ranking: rank.Ranking, found: list[Candidate],
              lacks: dict[int, list[str]] | None = None) -> int:
    _say("Several constants look like node catalogs; pygen picked none:")
    for catalog in ranking.ranked:
        missing = _lacking(catalog, lacks or {})
        _say("  " + _catalog_line(catalog) + (f"; lacks: {'; '.join(missing)}" if missing
                                              else ""))
    confirmed = {id(c.candidate) for c in ranking.ranked}
    rest = [c for c in found if id(c) not in confirmed]
    if rest:
        more = f" and {len(rest) - SAMPLE * 2} more" if len(rest) > SAMPLE * 2 else ""
        _say(f"  (not confirmed: {', '.join(c.name for c in rest[:SAMPLE * 2])}{more})")
    _say("Run `pygen init --definitions NAME` (add `--nodes-file FILE` when the name is "
         "declared in several files), or `pygen init --all` when together they are one "
         "catalog (writes `definitions = [...]`).")
    return 1


def describe(catalog: survey.Catalog, tsconfig: Path | None,
             skills: survey.SkillsFolder | None, others: list[Path], foreign: list[str],
             new_dir: str = "skills", left: list[survey.SkillsFolder] | None = None) -> None:
    _say("node catalog: " + _catalog_line(catalog))
    _say(f"tsconfig: {shown(tsconfig)} (the nearest to the nodes file)" if tsconfig else
         "tsconfig: none found; the extractor uses TypeScript's defaults")
    if skills is None:
        _say(f"skills folder: none yet; `pygen gen` creates {new_dir}/")
    else:
        also = f"; also found: {', '.join(shown(p) for p in others)}" if others else ""
        _say(f"skills folder: {shown(skills.path)} ({skills.node_files} node file(s){also})")
    for folder in left or []:
        _say(f"left alone: {shown(folder.path)} holds Markdown without AUTO-GEN blocks (not "
             "pygen's to adopt: a hand-written skill or docs); pygen writes none of it"
             + (f", and new skills go to {new_dir}/ beside it"
                if skills is None and new_dir != "skills" else ""))
    if foreign:
        _say(f"blocks another tool writes (declared as foreign_blocks): {', '.join(foreign)}")
    if skills is not None and "mcp-call" in skills.block_ids:
        _say("the skills document MCP tools (mcp-call blocks): set `tools` in the config so "
             "`pygen gen` keeps them; until then it leaves those blocks as they are")


def run(root: Path, definitions: str | None, nodes_file: Path | None, skills_dir: Path | None,
        pyproject: bool, together: bool = False) -> int:
    configfile.target(root, pyproject)  # refuse before the slow part when a config exists
    err_console.print(f"init: reading the TypeScript sources under {shown(root)}",
                      highlight=False, markup=False)
    found = survey.candidates(root, definitions, nodes_file)
    # A catalog the user named is taken on the user's word; one init found must show why.
    named = definitions is not None or nodes_file is not None
    if together and len(found) > 1:
        found = [survey.combined(found, root)]
    if not found:
        _say("No constant looks like a node catalog (an array of entries with `type` and "
             "handles or default data, or an object of them keyed by type): this repository "
             "shows no catalog pygen can read. Run "
             "`pygen init --nodes-file FILE --definitions NAME` to name one.")
        return 1
    lacks = {} if named or together else evidence.text_lacks(found, root)
    # A dead copy, a test's or a theme's constant loses to a candidate lacking nothing.
    sound = [c for c in found if not lacks.get(id(c))]
    pool = sound or found
    also: list[survey.Catalog] = []
    if len(pool) > 1 or not sound:
        ranking = rank.rank(pool, root, _progress)
        if not sound:
            return refuse(list(ranking.ranked), found, lacks)
        if not named:
            # A candidate whose node types show it is no catalog (one node's keys) is no
            # rival; a winner whose types do is refused.
            typed = [c for c in ranking.ranked
                     if not evidence.type_lacks(c.node_types, c.candidate)]
            if not typed:
                return refuse(list(ranking.ranked), found, lacks)
            ranking = rank.Ranking(ranking.ranked, rank.winner(typed))
        if ranking.chosen is None:
            return ambiguous(ranking, found, lacks)
        also = [c for c in ranking.ranked if c is not ranking.chosen]
        return settle(root, ranking.chosen.candidate, also, skills_dir, pyproject,
                      ranking.chosen, lacks=None if named else lacks, found=tuple(found))
    return settle(root, pool[0], also, skills_dir, pyproject,
                  lacks=None if named else lacks, found=tuple(found))


def _lacking(catalog: survey.Catalog, lacks: dict[int, list[str]]) -> list[str]:
    return [*lacks.get(id(catalog.candidate), []),
            *evidence.type_lacks(catalog.node_types, catalog.candidate)]


def refuse(ranked: list[survey.Catalog], found: list[Candidate],
           lacks: dict[int, list[str]]) -> int:
    """No candidate shows it is the editor's catalog: list each with what it lacks, and the
    command naming one; write nothing."""
    _say("No candidate shows enough evidence that it is the editor's node catalog; "
         "pygen wrote no config:")
    for catalog in ranked:
        missing = _lacking(catalog, lacks)
        _say("  " + _catalog_line(catalog) + (f"; lacks: {'; '.join(missing)}" if missing
                                              else ""))
    confirmed = {id(c.candidate) for c in ranked}
    for c in found:
        if id(c) not in confirmed:
            said = lacks.get(id(c), [])
            _say(f"  {c.name}  {shown(c.path)}:{c.line}  (not confirmed"
                 + (f"; lacks: {'; '.join(said)}" if said else "") + ")")
    first = ranked[0].candidate if ranked else found[0]
    _say("When one of them is the catalog, name it: `pygen init --definitions "
         f"{first.name} --nodes-file {shown(first.path)}` (a catalog pygen does not list: "
         "`--definitions NAME --nodes-file FILE`).")
    return 1


def not_chosen(also: list[survey.Catalog], found: tuple[Candidate, ...],
               lacks: dict[int, list[str]]) -> None:
    """The candidates not chosen: the confirmed rivals, then those lacking evidence."""
    for other in also:
        missing = _lacking(other, lacks)
        _say("also found, not chosen: " + _catalog_line(other)
             + (f"; lacks: {'; '.join(missing)}" if missing else ""))
    for c in found:
        if lacks.get(id(c)):
            _say(f"also found, not chosen: {c.name}  {shown(c.path)}:{c.line}; lacks: "
                 + "; ".join(lacks[id(c)]))


def _handles(config_file: Path) -> load_maps.Handles:
    """Each node type's input and output ids, from the config just written."""
    from pygen.config import load_config
    from pygen.extract.runner import extract_nodes

    nodes = extract_nodes(load_config(config_file))
    return {n.type: (tuple(h.id for h in n.inputs), tuple(h.id for h in n.outputs))
            for n in nodes}


def _with_saved_workflows(root: Path, settings: Settings, catalog: survey.Catalog) -> Settings:
    err_console.print("init: looking for saved workflows of these node types",
                      highlight=False, markup=False)
    saved = workflows.saved(root, catalog.node_types, set(catalog.variants))
    return settings.model_copy(update={
        "saved_workflows": saved.globs,
        "conventions": settings.conventions.model_copy(update=saved.conventions)})


def _with_legacy_types(root: Path, settings: Settings, catalog: survey.Catalog,
                       skills: survey.SkillsFolder | None) -> tuple[Settings, list[str]]:
    """legacy_types for the adopted skill files of types the catalog no longer declares whose
    migration the code shows (pygen.init.legacy), and what init says about each."""
    orphans = legacy.orphan_types(skills.path, catalog.node_types) if skills else []
    if not orphans:
        return settings, []
    found = legacy.migrations(scan.read_sources(root), root, orphans, catalog.node_types)
    kept = [m.legacy for m in found]
    return (settings.model_copy(update={"legacy_types": kept}) if kept else settings,
            [m.line() for m in found])


def _saved_legacy_lines(root: Path, settings: Settings, catalog: survey.Catalog) -> list[str]:
    """Node types the saved workflows use that the catalog lacks, whose migration on load the
    code shows (pygen.init.legacy): proposed as `[load_step]` lines to check and add; a
    type whose new one a branch on a data value picks as `node_types_by_data`."""
    known = set(catalog.node_types) | set(catalog.variants)
    unknown: set[str] = set()
    for glob in settings.saved_workflows:
        for path in sorted(root.glob(glob)):
            unknown |= {n["type"] for n in workflows.nodes_of(path) or ()} - known
    if not unknown:
        return []
    found = legacy.migrations(scan.read_sources(root), root, sorted(unknown),
                              catalog.node_types)
    if not found:
        return []
    plain = ", ".join(f'"{m.legacy}" = "{m.current}"' for m in found if m.branches is None)
    return ["legacy node types the saved workflows use and the code migrates on load (check "
            "them, then add to the config's [load_step]):",
            *([f"node_types = [{{ {plain} }}]"] if plain else []),
            *(m.branches.toml(m.legacy) for m in found if m.branches is not None),
            *(f"  {m.legacy}: {m.where}" for m in found)]


def _say_proposals(root: Path, settings: Settings, catalog: survey.Catalog,
                   written: Path) -> None:
    """Say the load-step maps and legacy types init proposes but does not write."""
    for line in load_maps.proposal_lines(load_maps.propose(
            root, catalog.node_types, lambda: _handles(written))):
        _say(line)
    for line in _saved_legacy_lines(root, settings, catalog):
        _say(line)


def settle(root: Path, chosen: Candidate, also: list[survey.Catalog], skills_dir: Path | None,
           pyproject: bool, ranked: survey.Catalog | None = None,
           lacks: dict[int, list[str]] | None = None, found: tuple[Candidate, ...] = ()) -> int:
    """Confirm the chosen catalog with the config about to be written, find its skills
    folder and saved workflows, say what was found and write the config. With `lacks`
    (init chose the candidate), one whose node types lack evidence is refused instead."""
    skills, others, left = survey.survey_skills(root, skills_dir)
    foreign = sorted(set(skills.block_ids) - render.own_blocks()) if skills else []
    settings = survey.settings_for(chosen, root).model_copy(update={
        "skills_dir": survey.relative(skills.path, root) if skills else
        survey.new_skills_dir(root, left),
        "foreign_blocks": foreign})
    cache_before = survey.cache_state(root)
    settings, catalog = survey.confirm_written(chosen, root, settings, ranked)
    if lacks is not None and evidence.type_lacks(catalog.node_types, chosen):
        survey.restore_cache(root, cache_before)  # a refused run leaves every file as it was
        return refuse([catalog, *also], list(found), lacks)
    settings = _with_saved_workflows(root, settings, catalog)
    settings, kept = _with_legacy_types(root, settings, catalog, skills)
    for line in kept:
        _say(line)
    tsconfig = scan.nearest_tsconfig(chosen.path, root)
    describe(catalog, tsconfig, skills, others, foreign, settings.skills_dir, left)
    if settings.saved_workflows:
        _say(f"saved workflows: {', '.join(settings.saved_workflows)} (`pygen check` "
             "validates them)")
    not_chosen(also, found, lacks or {})
    written = configfile.write(root, configfile.Found(
        settings, len(catalog.node_types), survey.relative(tsconfig, root) if tsconfig else None,
        skills is not None), pyproject)
    _say_proposals(root, settings, catalog, written)
    _say(f"Wrote {shown(written)}. Next: `pygen gen`, then write the prose sections, and add "
         "`pygen check` to CI.")
    if not catalog.error and not catalog.node_types:
        _say(f"The extractor found no node in {chosen.name}: check the config's "
             "`definitions` and `tsconfig`, then run `pygen gen`.")
    return 1 if catalog.error or not catalog.node_types else 0


@click.command("init")
@click.option("--definitions", metavar="NAME",
              help="The definitions constant to use when several look like one.")
@click.option("--nodes-file", type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="The file that declares it.")
@click.option("--skills-dir", type=click.Path(path_type=Path, file_okay=False),
              help="The skills folder (default: an existing one, else skills/).")
@click.option("--all", "together", is_flag=True,
              help="Use every candidate found, as one catalog (definitions = [...]).")
@click.option("--pyproject", is_flag=True,
              help="Write [tool.pygen] into pyproject.toml instead of a pygen.toml.")
def init_cmd(definitions: str | None, nodes_file: Path | None, skills_dir: Path | None,
             pyproject: bool, together: bool) -> int:
    """Find the node catalog, tsconfig, skills folder and saved workflows here; write a
    commented config.

    Several candidates are confirmed by the extractor and ranked by the nodes they yield.
    A catalog is written only with evidence: reached from the running code (not a test,
    story, generated or theme file, not a copy nothing imports), distinct node types that
    are not descriptor keys. Refuses to overwrite a config. Exit 1 when none is found, none
    shows that evidence, or several and none clearly wins: pass --definitions NAME (and
    --nodes-file) to choose, or --all to use them together.
    """
    from pygen.extract import runner

    # One extraction per candidate and one read of the sources, however often init asks.
    with runner.remembered(), scan.sources_remembered():
        return run(Path.cwd(), definitions, nodes_file, skills_dir, pyproject, together)
