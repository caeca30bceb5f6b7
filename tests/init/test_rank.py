"""Choosing among confirmed candidates: a clear winner or none."""

from __future__ import annotations

from pathlib import Path

from pygen.config import Settings
from pygen.init import rank
from pygen.init.literals import Candidate
from pygen.init.survey import Catalog


def catalog(name: str, types: list[str], entries: int = 1, **more: object) -> Catalog:
    candidate = Candidate(name, Path(f"{name}.ts"), 1, "array", entries, "type")
    settings = Settings.model_validate({"nodes_file": f"{name}.ts"})
    return Catalog(candidate, settings, tuple(types), (("name", len(types)),), **more)  # type: ignore[arg-type]


def test_a_candidate_whose_types_are_all_the_winners_is_no_rival() -> None:
    top, part = catalog("ALL", ["a", "b", "c"]), catalog("SOME", ["a"])
    assert rank.winner([top, part]) is top


def test_a_rival_with_its_own_types_and_a_third_of_the_nodes_or_more_blocks_the_pick() -> None:
    top, rival = catalog("CORE", ["a", "b", "c"]), catalog("PLUGINS", ["x"])
    assert rank.winner([top, rival]) is top
    assert rank.winner([catalog("CORE", ["a", "b"]), rival]) is None


def test_failed_and_empty_candidates_never_win() -> None:
    assert rank.winner([catalog("BROKEN", ["a"], error="boom"), catalog("EMPTY", [])]) is None


def test_confirming_stops_when_the_rest_cannot_rival() -> None:
    best = catalog("BIG", [f"t{i}" for i in range(9)])
    small = Candidate("SMALL", Path("s.ts"), 1, "array", 3, "type")
    built = Candidate("BUILT", Path("b.ts"), 1, "array", 1, "type", unsized=True)
    assert rank._settled([best], [small])
    assert not rank._settled([best], [small, built])


def test_a_far_bigger_candidate_the_extractor_failed_on_blocks_the_pick() -> None:
    small = catalog("MOCKS", ["a", "b"])
    big = catalog("REGISTRY", [], entries=300, error="timed out")
    assert rank.winner([small, big]) is None
    assert rank.winner([small, catalog("ODD", [], entries=2, error="duplicate")]) is small


def test_a_catalog_whose_types_the_winners_files_name_is_no_rival(tmp_path: Path) -> None:
    node = tmp_path / "GithubIssues.node.ts"
    node.write_text("credentials: [{ name: 'githubApi' }, { name: \"githubOAuth2Api\" }]\n",
                    encoding="utf-8")
    nodes = catalog("class:description", ["githubIssues", "example"], files=(node,))
    credentials = catalog("class:*", ["githubApi", "githubOAuth2Api"],
                          files=(tmp_path / "GithubApi.credentials.ts",))
    assert rank.winner([credentials, nodes]) is nodes
    # Naming a rival's types while sharing one of them is rivalry, not reference.
    both = catalog("class:*", ["githubApi", "githubOAuth2Api", "example"],
                   files=(tmp_path / "Example.ts",))
    assert rank.winner([nodes, both]) is None


def test_a_copy_of_part_of_the_winner_is_no_rival() -> None:
    demo = catalog("demoPaletteItems", ["trigger", "action", "delay", "decision", "note"])
    starter = catalog("nodeTypes", ["trigger", "action", "condition"])
    assert rank.winner([demo, starter]) is demo
    assert rank.winner([demo, catalog("OTHER", ["x", "y", "action"])]) is None
