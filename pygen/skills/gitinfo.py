"""The short SHA of HEAD for `generated_from`; `unknown` outside a git repository."""

from __future__ import annotations

from pathlib import Path


def short_sha(folder: Path) -> str:
    try:
        import git

        repo = git.Repo(folder, search_parent_directories=True)
        return str(repo.head.commit.hexsha[:7])
    except Exception:  # no git, no repo, no commit yet: all mean "unknown"
        return "unknown"
