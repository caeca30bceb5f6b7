"""Shared by the packaging tests (wheel install, pre-commit): a snapshot of the checkout, the
wheel and a wheelhouse built once per session under pytest's base temp dir, and an isolated
environment so installs under test never touch the real home or hit an index."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import filelock
import pytest
from shared_tmp import shared_tmp

REPO = Path(__file__).resolve().parents[1]
# Installs and the first ts-morph install reach the registries; generous, never unbounded.
TIMEOUT = 600.0
NOTICE = re.compile(r"^pygen: installing ts-morph into (.+) \(first use only\)$", re.MULTILINE)
PACKAGED_JS = ("extract.cjs", "package.json", "package-lock.json")
BUNDLE = "pygen/_js/extract.bundle.cjs"
PACKAGED_FROM = {"extract.cjs": "js/extract.cjs", "package.json": "package.json",
                 "package-lock.json": "package-lock.json"}

NODES_TS = """\
export interface TextPromptData {
  /** The prompt sent to the model. */
  prompt: string;
  /** Sampling temperature. */
  temperature?: number;
}

export interface TrimVideoData {
  /** Start offset in seconds. */
  start: number;
  /** End offset in seconds; -1 keeps the rest of the clip. */
  end: number;
}

export const NODE_DEFINITIONS = [
  {
    type: "text-prompt",
    label: "Text Prompt",
    category: "text",
    creditCost: 1,
    inputs: [],
    outputs: ["text"],
    defaultData: { prompt: "", temperature: 0.7 } as TextPromptData,
  },
  {
    type: "trim-video",
    label: "Trim Video",
    category: "video",
    creditCost: 2,
    inputs: ["video"],
    outputs: ["video"],
    defaultData: { start: 0, end: -1 } as TrimVideoData,
  },
] as const;
"""
PYGEN_TOML = 'nodes_file = "src/nodes.ts"\nskills_dir = "skills"\n'
SKILL_FILES = ("skills/nodes/text-prompt.md", "skills/nodes/trim-video.md",
               "skills/workflow-editor.md", "skills/schemas/nodes.schema.json")


@dataclass(frozen=True)
class Packaging:
    checkout: Path  # a git repo holding this checkout's files at one commit
    rev: str
    wheel: Path
    wheelhouse: Path  # the wheel, its dependencies and the build backend, for offline installs
    env: Mapping[str, str]  # every cache and home inside the session's temp dir


_BUILT: dict[Path, Packaging] = {}


def run(cmd: Sequence[str | Path], *, env: Mapping[str, str], cwd: Path | None = None,
        check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(part) for part in cmd], cwd=cwd, env=dict(env), text=True,
                          capture_output=True, timeout=TIMEOUT, check=False)
    if check and done.returncode != 0:
        pytest.fail(f"{cmd} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def isolated_env(base: Path) -> dict[str, str]:
    """This process's environment with home, caches and tool state moved under base."""
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GIT_", "PRE_COMMIT", "PYGEN_"))
           and k not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"}}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        PIP_CACHE_DIR=str(base / "pip-cache"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        VIRTUALENV_OVERRIDE_APP_DATA=str(base / "virtualenv"),
        npm_config_cache=str(base / "npm-cache"),
        npm_config_update_notifier="false",
        npm_config_audit="false",
        npm_config_fund="false",
    )
    return env


def offline(env: Mapping[str, str], wheelhouse: Path) -> dict[str, str]:
    """env with pip limited to the wheelhouse, so installs under test never hit an index."""
    return {**env, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse)}


def snapshot(dest: Path, env: Mapping[str, str]) -> str:
    """Commit the checkout's files as they stand (tracked and new, not ignored) in dest."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                 env=env, cwd=REPO).stdout
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():  # tracked but deleted in the work tree: leave it out
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git = ["git", "-c", "user.name=pygen tests", "-c", "user.email=tests@pygen.invalid",
           "-c", "commit.gpgsign=false"]
    run([*git, "init", "-q", "-b", "main"], env=env, cwd=dest)
    run([*git, "add", "-A"], env=env, cwd=dest)
    run([*git, "commit", "-q", "-m", "snapshot of the working tree"], env=env, cwd=dest)
    return run(["git", "rev-parse", "HEAD"], env=env, cwd=dest).stdout.strip()


def build_packaging(factory: pytest.TempPathFactory) -> Packaging:
    """The session's snapshot, wheel and wheelhouse; built once by whichever test asks first,
    in the folder every xdist worker shares (the others wait on its lock, then read it)."""
    base = shared_tmp(factory, "pygen-packaging")
    if base not in _BUILT:
        env = isolated_env(base)
        checkout, wheelhouse = base / "checkout", base / "wheelhouse"
        record = base / "rev.txt"
        with filelock.FileLock(str(base / "build.lock")):
            if not record.is_file():
                # A build another worker left half done is started again.
                shutil.rmtree(checkout, ignore_errors=True)
                shutil.rmtree(wheelhouse, ignore_errors=True)
                checkout.mkdir()
                rev = snapshot(checkout, env)
                # The only step that downloads: pygen's dependencies and hatchling for later
                # builds.
                run([sys.executable, "-m", "pip", "wheel", "--quiet", "-w", wheelhouse,
                     checkout, "hatchling"], env=env)
                record.write_text(rev, encoding="utf-8")
        wheel, = wheelhouse.glob("node_editor_skills-*.whl")
        _BUILT[base] = Packaging(checkout, record.read_text(encoding="utf-8"), wheel,
                                 wheelhouse, env)
    return _BUILT[base]


def write_project(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS, encoding="utf-8")
    (root / "pygen.toml").write_text(PYGEN_TOML, encoding="utf-8")
