"""Hostile paths through the real CLI: writes stay inside the project, a failed rename leaves
the old set, and no pipe, device or folder is ever read as a file. Each refusal is one line
naming the file, exit 1 or 2, and the project unchanged (test_hostile_corpus.assert_refused).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from studio_project import studio_config
from test_hostile_corpus import Case, _snapshot, assert_refused, generated, run_pygen

from pygen import files
from pygen.errors import PygenError

__all__ = ["generated"]  # the module-scoped fixture, shared with test_hostile_corpus
NODES_TS = "examples/studio/src/types/nodes.ts"
VICTIM = b"a file outside the project\n"


@pytest.fixture
def project(generated: Path, tmp_path: Path) -> Path:
    """A generated studio project of its own, beside a victim file outside it."""
    root = tmp_path / "studio"
    shutil.copytree(generated, root, symlinks=True)
    (tmp_path / "victim.txt").write_bytes(VICTIM)
    return root


def _with(lines: str) -> Callable[[Path], None]:
    """Setup: the studio config plus the given lines (replacing a key it already has)."""
    def write(project: Path) -> None:
        keys = {line.split("=")[0].strip() for line in lines.splitlines()}
        kept = [line for line in studio_config().splitlines()
                if line.split("=")[0].strip() not in keys]
        (project / "pygen.toml").write_text("\n".join(kept) + "\n" + lines)
    return write


def _fifo(name: str) -> Callable[[Path], None]:
    def make(project: Path) -> None:
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    return make


def _null_device(path: Path) -> None:
    """A character device like /dev/null inside the project (as root), else a skip."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device needs root")


def _both(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def run(project: Path) -> None:
        for step in steps:
            step(project)
    return run


WRITES = {
    "fallback-outside": Case(["gen"], "victim.txt: fallback_file is outside the project",
                             setup=_with('fallback_file = "../victim.txt"\n')),
    "fallback-device": Case(["gen"], "dev/null: is a character device; expected a regular",
                            setup=_both(_with('fallback_file = "dev/null"\n'),
                                        lambda p: _null_device(p / "dev" / "null"))),
    "fallback-source": Case(["gen"], "nodes.ts: fallback_file names a file pygen did not write",
                            setup=_with(f'fallback_file = "{NODES_TS}"\n')),
    "fallback-fifo": Case(["gen"], "fallback.md: is a named pipe (FIFO); expected a regular",
                          setup=_both(_with('fallback_file = "fallback.md"\n'),
                                      _fifo("fallback.md"))),
    "skills-dir-parent": Case(["gen"], "/x: skills_dir is outside the project",
                              setup=_with('skills_dir = "../x"\n')),
    "skills-dir-absolute": Case(["gen", "--prune"], "/elsewhere: skills_dir is outside",
                                setup=lambda p: _with(f'skills_dir = "{p.parent}/elsewhere"\n')(p)),
    "skills-dir-flag": Case(["gen", "--skills-dir", "../x"], "/x: skills_dir is outside"),
    "target-is-a-folder": Case(["gen"], "skills/nodes/list.md: is a folder; expected",
                               setup=lambda p: ((p / "skills/nodes/list.md").unlink(),
                                                (p / "skills/nodes/list.md").mkdir())),
}


@pytest.mark.matrix
@pytest.mark.parametrize("name", sorted(WRITES))
def test_writes_stay_inside_the_project(project: Path, name: str) -> None:
    assert_refused(project, WRITES[name])
    assert (project.parent / "victim.txt").read_bytes() == VICTIM
    assert not (project.parent / "x").exists()
    assert not (project.parent / "elsewhere").exists()


@pytest.mark.slow
def test_a_skills_dir_in_the_git_work_tree_is_inside(project: Path) -> None:
    """The project is the config's folder or the git work tree holding it."""
    (project / "config").mkdir()
    config = studio_config("../skills").replace('"examples/', '"../examples/')
    (project / "config" / "pygen.toml").write_text(config)
    (project / "pygen.toml").unlink()
    before = _snapshot(project)
    done = run_pygen(project / "config", ["gen"])
    assert done.returncode == 2 and b"skills_dir is outside the project" in done.stderr
    assert _snapshot(project) == before
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    done = run_pygen(project / "config", ["gen", "-q"])
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_prune_deletes_only_files_pygen_wrote(project: Path) -> None:
    mine = project / "skills" / "nodes" / "mine.md"
    mine.write_text("# Mine\n\n## When to use\n")  # no pygen frontmatter
    stale = project / "skills" / "nodes" / "stale.md"
    shutil.copyfile(project / "skills" / "nodes" / "list.md", stale)
    stale.write_text(stale.read_text().replace("node_type: list", "node_type: stale"))
    done = run_pygen(project, ["gen", "--prune"])
    assert mine.read_text() == "# Mine\n\n## When to use\n"
    assert not stale.exists()
    # A file pygen did not write is kept and named; gen still succeeds, check fails on it.
    assert done.returncode == 0 and b"mine.md" in done.stderr
    assert run_pygen(project, ["check"]).returncode == 1


@pytest.fixture
def immutable(project: Path) -> Iterator[Path]:
    """skills/nodes/_README.md made immutable (chattr +i: root ignores file modes)."""
    target = project / "skills" / "nodes" / "_README.md"
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(target)], capture_output=True, check=False).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        yield target
    finally:
        subprocess.run(["chattr", "-i", str(target)], check=False)


@pytest.mark.slow
def test_a_failed_rename_restores_the_set(project: Path, immutable: Path) -> None:
    nodes = project / NODES_TS
    edit = nodes.read_text().replace('description: "', 'description: "Changed. ', 1)
    case = Case(["gen"], "skills/nodes/_README.md: cannot replace",
                setup=lambda _: nodes.write_text(edit))
    line = assert_refused(project, case)
    assert "were restored from their staged copies: no file was changed" in line
    assert not list(project.rglob("*.pygen-tmp"))


def test_the_set_is_restored_whichever_rename_fails(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename boundary itself: the third of four renames fails."""
    old = {"a.md": "a\n", "b.md": "\ufeffb\n", "d.md": "d\n"}
    for name, text in old.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "b.md").chmod(0o600)
    calls: list[str] = []

    def rename(source: str, target: Path) -> None:
        calls.append(str(target))
        if len(calls) == 3:
            raise PermissionError(1, "Operation not permitted")
        os.replace(source, target)

    monkeypatch.setattr(files, "_rename", rename)
    before = _snapshot(tmp_path)
    with pytest.raises(PygenError) as info:
        files.write_all([(tmp_path / n, "new\n") for n in ("a.md", "b.md", "c.md", "d.md")])
    assert str(info.value) == (f"{tmp_path / 'c.md'}: cannot replace (Operation not "
                               "permitted); the 2 file(s) replaced before it were restored "
                               "from their staged copies: no file was changed")
    assert _snapshot(tmp_path) == before


READS = {
    "node-file-fifo": ("skills/nodes/list.md", "skills/nodes/list.md: is a named pipe"),
    "orphan-fifo": ("skills/nodes/zzz.md", "skills/nodes/zzz.md: is a named pipe"),
    "editor-fifo": ("skills/workflow-editor.md", "skills/workflow-editor.md: is a named pipe"),
}


@pytest.mark.matrix
@pytest.mark.parametrize("command", ["check", "gen", "doctor"])
@pytest.mark.parametrize("where", sorted(READS))
def test_a_pipe_among_the_skills_is_one_line(project: Path, command: str, where: str) -> None:
    name, says = READS[where]
    assert_refused(project, Case([command], says, setup=_fifo(name)))


EXTRACTOR = {
    "tsconfig-zero": ('tsconfig = "/dev/zero"\n', "/dev/zero: is a character device; "
                      "tsconfig must name a tsconfig JSON file"),
    "tsconfig-folder": ('tsconfig = "examples"\n', "examples: is a folder; tsconfig must"),
    "nodes-file-device": ('nodes_file = "/dev/null"\n', "/dev/null: is a character device; "
                          "nodes_file must name a TypeScript file"),
    "nodes-file-folder": ('nodes_file = "examples"\n', "examples: is a folder; nodes_file"),
    "nodes-file-fifo": ('nodes_file = "pipe.ts"\n', "pipe.ts: is a named pipe (FIFO); "
                        "nodes_file must"),
}


@pytest.mark.matrix
@pytest.mark.parametrize("command", ["extract", "check"])
@pytest.mark.parametrize("name", sorted(EXTRACTOR))
def test_the_extractor_inputs_are_checked_before_node_starts(project: Path, command: str,
                                                             name: str) -> None:
    lines, says = EXTRACTOR[name]
    setup = _both(_with(lines), _fifo("pipe.ts"))
    assert_refused(project, Case([command, "--no-cache"] if command == "check" else [command],
                                 says, setup=setup))


INPUTS = {
    "workflow-fifo": Case(["validate-workflow", "pipe.json"], "pipe.json: is a named pipe",
                          setup=_fifo("pipe.json")),
    "workflow-folder": Case(["validate-workflow", "skills"], "skills: is a folder"),
    "workflow-device": Case(["validate-workflow", "/dev/zero"], "/dev/zero: is a character"),
    "config-fifo": Case(["check", "--config", "pipe.toml"], "pipe.toml: is a named pipe",
                        setup=_fifo("pipe.toml")),
    "schemas-fifo": Case(["validate-workflow", "--schemas", "pipe.json", "w.json"],
                         "pipe.json: is a named pipe", {"w.json": b'{"nodes": [], "edges": []}'},
                         setup=_fifo("pipe.json")),
}


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_every_input_file_must_be_a_regular_file(project: Path, name: str) -> None:
    assert_refused(project, INPUTS[name])
