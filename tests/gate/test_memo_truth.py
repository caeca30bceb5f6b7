"""A memo remembers only what its run read: an edit made while a check runs, a file that
appears where module resolution looked, a cache from another checkout, a cache file that is
not a file: the next check always answers as `check --no-cache` does."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cached_project import MODES_TS, config, make_project, run

from pygen.extract import cache, cachefile
from pygen.skills import plan as planning

STALE_MODES_TS = MODES_TS.replace('"slow"', '"slod"')


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path, monkeypatch)
    assert run(root, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    return root


def verdicts(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The next check's exit code, through the memo, and without caches."""
    memo = run(root, "check", "-q", monkeypatch=monkeypatch).exit_code
    return memo, run(root, "check", "-q", "--no-cache", monkeypatch=monkeypatch).exit_code


def after(target: Any, name: str, action: Callable[[], None],
          monkeypatch: pytest.MonkeyPatch) -> None:
    """`target.name` runs `action` once it has returned (an edit at that point of a run)."""
    real = getattr(target, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        action()
        return found

    monkeypatch.setattr(target, name, wrapped)


# The points of a check after it read the sources: the extractor has replied, the skills
# are planned (read), the gate has run.
STAGES = [(cache, "run_extractor"), (planning, "plan"), (cache, "extraction_key")]


@pytest.mark.matrix
@pytest.mark.parametrize("seed", range(3))
def test_an_edit_while_a_check_runs_is_never_remembered(
        project: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = random.Random(seed)
    target, name = rng.choice(STAGES)
    what = rng.choice(["source", "skill"])
    modes, skill = project / "src" / "modes.ts", project / "skills" / "nodes" / "prompt.md"
    # A harmless edit first, so the check reads everything again.
    modes.write_text(MODES_TS + f"// edit {seed}\n")

    def edit() -> None:
        if what == "source":
            modes.write_text(STALE_MODES_TS)
        else:
            skill.write_text(skill.read_text().replace("- **Type:**", "- **Kind:**", 1))

    with monkeypatch.context() as patched:
        after(target, name, edit, patched)
        during = run(project, "check", "-q", monkeypatch=monkeypatch)
    assert verdicts(project, monkeypatch) == (1, 1), (target, name, what)
    assert "changed while pygen read it" in during.output, (target, name, what)


@pytest.mark.slow
def test_a_file_that_shadows_an_import_is_an_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path, monkeypatch)
    (root / "src" / "modes").mkdir()
    (root / "src" / "modes.ts").rename(root / "src" / "modes" / "index.ts")
    assert run(root, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert run(root, "check", "-q", monkeypatch=monkeypatch).exit_code == 0  # the memo's
    (root / "src" / "modes.ts").write_text(STALE_MODES_TS)  # `./modes` now resolves here
    assert verdicts(root, monkeypatch) == (1, 1)


@pytest.mark.slow
def test_a_file_at_a_paths_fallback_is_an_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path, monkeypatch)
    (root / "src" / "nodes.ts").write_text(
        (root / "src" / "nodes.ts").read_text().replace('"./modes"', '"@lib/modes"'))
    (root / "src" / "lib2").mkdir()
    (root / "src" / "modes.ts").rename(root / "src" / "lib2" / "modes.ts")
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true, "baseUrl": ".", '
                                        '"paths": {"@lib/*": ["src/lib/*", "src/lib2/*"]}}}\n')
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\ntsconfig = "tsconfig.json"\n')
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert run(root, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    (root / "src" / "lib").mkdir()
    (root / "src" / "lib" / "modes.ts").write_text(STALE_MODES_TS)  # the first candidate
    assert verdicts(root, monkeypatch) == (1, 1)


def test_the_missing_paths_a_lookup_probed_are_recorded(project: Path) -> None:
    """A nearer tsconfig.json (and the other resolution candidates) is watched for."""
    entry = cachefile.read_entry(project / ".pygen-cache" / "extract.json",
                             cache.extraction_key(config(project)))
    assert entry is not None
    assert str(project / "src" / "tsconfig.json") in entry["absent"]
    assert str(project / "src" / "modes.tsx") not in entry["absent"]  # modes.ts came first


@pytest.mark.slow
def test_a_cache_from_another_checkout_is_never_trusted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forged "passed" committed with its key: a fresh clone ignores it (`--no-tools`, the
    mode for untrusted pull requests, included)."""
    (tmp_path / "pr").mkdir()
    project = make_project(tmp_path / "pr", monkeypatch)
    # The memo of a check without tools, as the pull request's author makes it.
    with (project / "pygen.toml").open("a") as toml:
        toml.write("run_tools = false\n")
    assert run(project, "check", "-q", "--no-tools", monkeypatch=monkeypatch).exit_code == 0
    memo = project / ".pygen-cache" / "check.json"
    stored = cachefile.read_entry(memo, _memo_key(project))
    assert stored is not None
    modes = project / "src" / "modes.ts"
    modes.write_text(STALE_MODES_TS)
    # The forger records the stale source as checked, signed as this checkout signs.
    sha = cachefile.sha256_of(modes)
    stored["inputs"] = [[p, sha if p == str(modes) else d] for p, d in stored["inputs"]]
    cachefile.write_entry(memo, stored)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "-A", "-f", "."], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "pr"], cwd=project, check=True)
    # A fresh clone at the same path (CI's checkout path is no secret).
    origin = tmp_path / "origin"
    project.rename(origin)
    clone = project
    subprocess.run([*git, "clone", "-q", str(origin), str(clone)], check=True)
    assert (clone / ".pygen-cache" / "check.json").is_file()
    result = run(clone, "check", "-q", "--no-tools", monkeypatch=monkeypatch)
    assert result.exit_code == 1, result.output


def _memo_key(root: Path) -> str:
    from pygen.gate import check_memo

    conf = config(root)
    key = check_memo._key(conf, False, check_memo._skill_files(conf))
    assert key is not None
    return key


MEMOS = ["check.json", "extract.json", "render.json", "texts.json", "examples.json",
         "schema_text.json"]


def _replace(path: Path, kind: str, forged: bytes) -> None:
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "random":
        path.write_bytes(random.Random(7).randbytes(4096))
    else:
        path.write_bytes(forged)


@pytest.mark.matrix
@pytest.mark.parametrize("kind", ["fifo", "zero", "folder", "random", "forged"])
def test_memo_files_that_are_not_memos_are_ignored_and_rebuilt(
        project: Path, kind: str) -> None:
    """Every memo file at once: the check ends in its normal time, exits as `--no-cache`
    (here 1: the source is stale), says so for what is not a file, and rebuilds the memos."""
    folder = project / ".pygen-cache"
    (project / "src" / "modes.ts").write_text(STALE_MODES_TS)
    for name in MEMOS:
        # A well-formed entry whose signature is not this checkout's.
        forged = re.sub(rb'("(?:mac|checksum)":")[0-9a-f]{64}', rb"\g<1>" + b"0" * 64,
                        (folder / name).read_bytes(), count=1)
        _replace(folder / name, kind, forged)
    done = subprocess.run([sys.executable, "-m", "pygen", "check", "-q"], cwd=project,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    if kind in ("fifo", "zero", "folder"):
        assert sum("warning:" in line for line in done.stderr.splitlines()) >= 1
    (project / "src" / "modes.ts").write_text(MODES_TS)
    again = subprocess.run([sys.executable, "-m", "pygen", "check", "-q"], cwd=project,
                           capture_output=True, text=True, timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert (folder / "check.json").is_file() and not (folder / "check.json").is_symlink()


def test_verify_memo_agrees_on_a_sound_memo(project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(project, "check", "--verify-memo", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert "Memo verified: the check memo (a clean check)" in result.output


@pytest.mark.slow
def test_verify_memo_finds_a_memo_that_lies(project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo bug, played by an entry that records the stale source as checked: plain
    `check` trusts it; `--verify-memo` exits 2 and says what differed."""
    memo = project / ".pygen-cache" / "check.json"
    stored = cachefile.read_entry(memo, _memo_key(project))
    assert stored is not None
    modes = project / "src" / "modes.ts"
    modes.write_text(STALE_MODES_TS)
    sha = cachefile.sha256_of(modes)
    stored["inputs"] = [[p, sha if p == str(modes) else d] for p, d in stored["inputs"]]
    cachefile.write_entry(memo, stored)
    assert run(project, "check", "-q", monkeypatch=monkeypatch).exit_code == 0
    result = run(project, "check", "--verify-memo", monkeypatch=monkeypatch)
    assert result.exit_code == 2
    assert "memo disagrees: the check memo says the skills are current" in result.output
    assert shutil.which("git")  # (the clone test above needs it too)
