"""`gen` killed while staging, and two `gen` runs at once on one skills_dir.

After `kill -9` mid-staging every skill file is its old or its new text, `check` reports the
leftover temp files, and the next run removes them. Two runs with different inputs never
interleave: the final set is one run's output, and the other run says it waited or failed.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from studio_project import studio_config

from pygen import lock

REPO = Path(__file__).resolve().parents[1]
NODES = "examples/studio/src/types/nodes.ts"
# Runs `pygen gen` with staging slowed down, so the kill lands while temp files exist: the
# product code is untouched, only the child's copy of files._stage sleeps after each file.
SLOW_STAGING = """
import sys, time
from pygen import files
real = files._stage
def slow(path, text):
    staged = real(path, text)
    print("staged", path, flush=True)
    time.sleep(0.2)
    return staged
files._stage = slow
from pygen.cli import main
main(["gen"])
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def _pygen(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pygen", *argv], cwd=project, env=_env(),
                          capture_output=True, text=True, timeout=180, check=False)


def _project(root: Path, variant: str = "", skills: str = "skills") -> Path:
    shutil.copytree(REPO / "examples" / "studio", root / "examples" / "studio",
                    ignore=shutil.ignore_patterns("__pycache__"))
    if variant:
        nodes = root / NODES
        nodes.write_text(re.sub(r'(description: "[^"]*)"', rf'\1 {variant}"',
                                nodes.read_text()))
    # A shared skills_dir lies outside both projects: that needs the key.
    outside = "external_skills_dir = true\n" if skills != "skills" else ""
    (root / "pygen.toml").write_text(studio_config(skills) + outside)
    return root


def _skill_files(skills: Path) -> dict[str, bytes]:
    return {str(p.relative_to(skills)): p.read_bytes()
            for p in sorted(skills.rglob("*")) if p.is_file()}


# The example as it is, and with every node description edited.
VARIANTS = ("", "(edited)")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The skills folder `gen` writes for each variant, made once for the tests that compare
    a run's files with them."""
    base = tmp_path_factory.mktemp("generated")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(base / "home"))
        patch.setenv("XDG_CACHE_HOME", str(base / "home" / ".cache"))
        patch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # the date every test runs at (conftest)
        folders = {}
        for number, variant in enumerate(VARIANTS):
            project = _project(base / str(number), variant)
            shutil.copytree(REPO / "skills", project / "skills",
                            ignore=shutil.ignore_patterns("nodes", "schemas"))
            done = _pygen(project, "gen", "-q")
            assert done.returncode == 0, done.stderr
            folders[variant] = project / "skills"
    return folders


@pytest.mark.slow
def test_kill_9_while_staging_then_a_normal_run(tmp_path: Path,
                                                generated: dict[str, Path]) -> None:
    old, new = (_skill_files(generated[variant]) for variant in VARIANTS)
    project = _project(tmp_path / "p", VARIANTS[1])
    shutil.copytree(generated[VARIANTS[0]], project / "skills")
    child = subprocess.Popen([sys.executable, "-c", SLOW_STAGING], cwd=project, env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    staged = 0
    while staged < 3:  # the cache is written first; count skill files only
        line = child.stdout.readline()
        assert line.startswith("staged"), line
        staged += f"{os.sep}skills{os.sep}" in line
    os.kill(child.pid, signal.SIGKILL)
    child.wait()

    temps = sorted(str(p.relative_to(project)) for p in project.rglob("*.pygen-tmp"))
    assert len(temps) >= 3
    for name, data in _skill_files(project / "skills").items():
        if not name.endswith(".pygen-tmp"):
            assert data in (old.get(name), new.get(name)), name
    check = _pygen(project, "check")
    assert check.returncode == 1
    assert all(temp in check.stdout + check.stderr for temp in temps)

    done = _pygen(project, "gen")
    assert done.returncode == 0, done.stderr
    assert not list(project.rglob("*.pygen-tmp"))
    assert _skill_files(project / "skills") == new


@pytest.mark.slow
def test_two_gen_runs_on_one_skills_dir_never_interleave(tmp_path: Path,
                                                        generated: dict[str, Path]) -> None:
    outputs = {variant: _skill_files(generated[variant]) for variant in VARIANTS}
    shared = tmp_path / "shared-skills"
    shutil.copytree(REPO / "skills", shared, ignore=shutil.ignore_patterns("nodes", "schemas"))
    a = _project(tmp_path / "a", VARIANTS[0], str(shared))
    b = _project(tmp_path / "b", VARIANTS[1], str(shared))
    first = subprocess.Popen([sys.executable, "-m", "pygen", "gen"], cwd=a, env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    # The holder's line is written beside the lock once the lock is taken.
    while not lock.holder_path(shared).is_file() or not lock.holder_path(shared).read_text():
        assert time.monotonic() < deadline and first.poll() is None
        time.sleep(0.01)
    second = _pygen(b, "gen")
    _out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    said = second.stderr
    assert ("for another pygen run" in said and f"pid {first.pid}" in said) \
        or "held the lock" in said, said
    assert outputs[VARIANTS[0]] != outputs[VARIANTS[1]]
    assert _skill_files(shared) in (outputs[VARIANTS[0]], outputs[VARIANTS[1]])


@pytest.mark.parametrize("command", ["gen"])
def test_a_held_lock_fails_a_run_naming_the_holder(tmp_path: Path, command: str) -> None:
    project = _project(tmp_path / "p")
    (project / "pygen.toml").write_text((project / "pygen.toml").read_text()
                                        + "lock_timeout = 0.2\n")
    (project / "skills").mkdir()
    with lock.hold(project / "skills", 1):
        done = _pygen(project, command)
    assert done.returncode == 2
    assert f"pid {os.getpid()}" in done.stderr and "held the lock after 0.2 s" in done.stderr
    assert done.stderr.count("\n") == 1
    assert not (project / "skills" / "nodes").exists()


@pytest.mark.slow
def test_a_skill_file_with_a_bom_keeps_one_frontmatter_and_its_bom(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    assert _pygen(project, "gen", "-q").returncode == 0
    skill = project / "skills" / "nodes" / "loop.md"
    edited = skill.read_text().replace("\n## ", "\nProse a person wrote.\n\n## ", 1)
    skill.write_bytes(b"\xef\xbb\xbf" + edited.encode())
    nodes = project / NODES
    nodes.write_text(nodes.read_text().replace("once per incoming list entry",
                                               "once per list entry"))
    done = _pygen(project, "gen", "-q")
    assert done.returncode == 0, done.stderr
    data = skill.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\n") and data.count(b"\n---\n") == 1
    assert b"once per list entry" in data and b"Prose a person wrote." in data
    assert _pygen(project, "check").returncode == 0


class _Killed(BaseException):
    """Stands for a kill: no handler of the run sees it (they catch OSError, Exception)."""


def test_a_run_killed_between_renames_is_reported_by_check_and_finished_by_gen(
        studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cli_run import run

    from pygen import files

    assert run(studio, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    nodes = studio / NODES
    nodes.write_text(re.sub(r'(description: "[^"]*)"', r'\1 (edited)"', nodes.read_text()))
    renamed: list[str] = []

    def kill_after_two(step: str) -> None:
        # (the caches' one-file writes keep no journal: count the skill set's renames)
        if step == "journal" or renamed:
            renamed.append(step)
        if renamed.count("renamed") == 2:
            raise _Killed

    with monkeypatch.context() as patch:
        patch.setattr(files, "_at", kill_after_two)
        with pytest.raises(_Killed):
            run(studio, "gen", "-q", monkeypatch=monkeypatch)
    assert (studio / "skills" / files.JOURNAL).is_file()
    check = run(studio, "check", monkeypatch=monkeypatch)
    assert check.exit_code == 1
    assert "left a set of files half replaced; `pygen gen` finishes or undoes it" in check.output
    done = run(studio, "gen", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    assert "finished the set of" in done.output
    assert not list(studio.rglob(f"*{files.TEMP_SUFFIX}"))
    assert not (studio / "skills" / files.JOURNAL).exists()
    assert run(studio, "check", monkeypatch=monkeypatch).exit_code == 0
