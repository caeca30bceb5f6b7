"""Shared fixtures. Every test runs with HOME and caches redirected into its tmp dir, and the
session fails if any test changed a file of the checkout."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus_runs import CorpusRuns, shared_runs
from studio_project import make_studio

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "studio"


def _tree_state() -> str:
    done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    return done.stdout


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every case but the first of a `matrix` test is `slow`: the quick loop keeps one case of
    the shape, the full suite runs them all. Runs before `-m` deselects (tryfirst)."""
    seen: set[tuple[Path, str]] = set()
    for item in items:
        if not isinstance(item, pytest.Function) or item.get_closest_marker("matrix") is None:
            continue
        key = (item.path, item.originalname)
        if key in seen:
            item.add_marker(pytest.mark.slow)
        seen.add(key)


@pytest.fixture(scope="session", autouse=True)
def checkout_untouched() -> Iterator[None]:
    # On by default in CI; locally other work in the tree would make it noisy.
    if not os.environ.get("CI") and not os.environ.get("PYGEN_GUARD_CHECKOUT"):
        yield
        return
    before = _tree_state()
    yield
    after = _tree_state()
    if after != before:
        changed = set(after.splitlines()) ^ set(before.splitlines())
        pytest.fail("tests changed files of the checkout: " + ", ".join(sorted(changed)))


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory,
                 monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01T00:00:00Z


@pytest.fixture
def studio(tmp_path: Path) -> Path:
    """A copy of the embedded example and its hand-written editor skill, with a pygen.toml."""
    return make_studio(tmp_path / "studio")



@pytest.fixture(scope="session")
def corpus_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusRuns]:
    """Gen then check on each corpus project, run once per session for every module."""
    runs = shared_runs(tmp_path_factory)
    yield runs
    runs.servers.close()
