"""The published hooks through the real pre-commit framework: pre-commit builds pygen from a
snapshot of this checkout into its own virtualenv (the wheel path, ts-morph installed on first
use), and `git commit` in a scratch repository is refused while the skills are stale."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from packaging_helpers import (
    NODES_TS,
    NOTICE,
    Packaging,
    build_packaging,
    offline,
    run,
    write_project,
)

GIT_USER = ("-c", "user.name=pygen tests", "-c", "user.email=tests@pygen.invalid")
DRIFT = "Skill files drift from the code: run `pygen gen` and commit the changes."


def hook_config(built: Packaging) -> str:
    return (
        "repos:\n"
        f"  - repo: {built.checkout}\n"
        f"    rev: {built.rev}\n"
        "    hooks:\n"
        "      - id: pygen-check\n"
        "      - id: pygen-gen\n"
    )


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One pre-commit store and one pygen cache per module, so the hook env installs once."""
    built = build_packaging(tmp_path_factory)
    state = tmp_path_factory.mktemp("pre-commit")
    return {**offline(built.env, built.wheelhouse), "PRE_COMMIT_HOME": str(state / "store"),
            "PYGEN_CACHE_HOME": str(state / "pygen-cache")}


@pytest.fixture
def project(tmp_path: Path, hook_env: Mapping[str, str],
            tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repo with a nodes file, a pygen.toml and the hooks installed; nothing committed."""
    root = tmp_path / "project"
    write_project(root)
    (root / ".pre-commit-config.yaml").write_text(hook_config(build_packaging(tmp_path_factory)),
                                                  encoding="utf-8")
    git(root, hook_env, "init", "-q", "-b", "main")
    git(root, hook_env, "config", "commit.gpgsign", "false")
    run([sys.executable, "-m", "pre_commit", "install"], env=hook_env, cwd=root)
    return root


def git(root: Path, env: Mapping[str, str], *args: str, check: bool = True) -> str:
    done = run(["git", *GIT_USER, *args], env=env, cwd=root, check=check)
    return done.stdout + done.stderr


def commit(root: Path, env: Mapping[str, str], message: str) -> tuple[int, str]:
    git(root, env, "add", "-A")
    done = run(["git", *GIT_USER, "commit", "-m", message], env=env, cwd=root, check=False)
    return done.returncode, done.stdout + done.stderr


def regenerate(root: Path, env: Mapping[str, str]) -> tuple[int, str]:
    """The manual-stage hook. pre-commit fails it when it rewrote tracked files, by design."""
    git(root, env, "add", "-A")
    done = run([sys.executable, "-m", "pre_commit", "run", "pygen-gen", "--hook-stage", "manual",
                "--verbose"], env=env, cwd=root, check=False)
    return done.returncode, done.stdout + done.stderr


def commits(root: Path, env: Mapping[str, str]) -> int:
    return int(git(root, env, "rev-list", "--count", "HEAD").strip())


@pytest.mark.slow
def test_stale_skills_block_the_commit_until_regenerated(
        project: Path, hook_env: Mapping[str, str]) -> None:
    code, generated = regenerate(project, hook_env)
    assert code == 0, generated  # only new files, which pre-commit does not count as changes
    assert "6 created, 0 updated, 0 unchanged" in generated
    # The wheel pre-commit built carries the bundled extractor: nothing to install at hook time.
    assert NOTICE.search(generated) is None, generated
    assert (project / "skills" / "nodes" / "trim-video.md").is_file()

    code, output = commit(project, hook_env, "nodes and their skills")
    assert code == 0, output
    assert NOTICE.search(output) is None, output

    nodes = project / "src" / "nodes.ts"
    nodes.write_text(NODES_TS.replace("Start offset in seconds.", "Start offset in frames."),
                     encoding="utf-8")
    code, output = commit(project, hook_env, "count frames, skills not regenerated")
    assert code == 1, output
    assert "pygen check" in output and "Failed" in output
    assert "+- `start: number` — Start offset in frames." in output
    assert "stale: skills/nodes/trim-video.md" in output
    assert DRIFT in output
    assert commits(project, hook_env) == 1

    code, output = regenerate(project, hook_env)
    assert code == 1, output
    assert "files were modified by this hook" in output
    assert "0 created, 3 updated, 3 unchanged" in output
    code, output = commit(project, hook_env, "count frames")
    assert code == 0, output
    assert commits(project, hook_env) == 2
    assert git(project, hook_env, "status", "--porcelain") == ""


@pytest.mark.slow
def test_commits_that_touch_neither_sources_nor_skills_skip_the_check(
        project: Path, hook_env: Mapping[str, str]) -> None:
    # Skills never generated: the check would fail if it ran at all.
    nodes = project / "src" / "nodes.ts"
    nodes.rename(project / "nodes.txt")
    (project / "pygen.toml").rename(project / "pygen.txt")
    code, output = commit(project, hook_env, "no TypeScript, no skills")
    assert code == 0, output
    assert "(no files to check)Skipped" in output
