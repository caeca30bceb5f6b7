"""pygen installed from its wheel into a fresh virtualenv, as pipx and pre-commit install it:
no checkout and no node_modules anywhere. The wheel's single-file bundle of the extractor and
ts-morph runs with nothing to install; without the bundle, ts-morph comes from a one-time
install into the user cache, announced in one line.

The helpers at the top (snapshot of the checkout, wheelhouse, isolated environment) are shared
with test_precommit.py; they build once per session under pytest's base temp dir.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from pygen.extract.noderuntime import cache_home

REPO = Path(__file__).resolve().parents[2]
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
    """The session's snapshot, wheel and wheelhouse; built by whichever test asks first."""
    base = factory.getbasetemp() / "pygen-packaging"
    if base not in _BUILT:
        env = isolated_env(base)
        checkout = base / "checkout"
        checkout.mkdir()
        rev = snapshot(checkout, env)
        wheelhouse = base / "wheelhouse"
        # The only step that downloads: pygen's dependencies and hatchling for later builds.
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "-w", wheelhouse, checkout,
             "hatchling"], env=env)
        wheel, = wheelhouse.glob("pygen-*.whl")
        _BUILT[base] = Packaging(checkout, rev, wheel, wheelhouse, env)
    return _BUILT[base]


def write_project(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(NODES_TS, encoding="utf-8")
    (root / "pygen.toml").write_text(PYGEN_TOML, encoding="utf-8")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Packaging:
    return build_packaging(tmp_path_factory)


@pytest.fixture(scope="module")
def venv(built: Packaging, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with pygen installed from the wheel and nothing else of ours."""
    root = tmp_path_factory.mktemp("venv")
    env = offline(built.env, built.wheelhouse)
    # No pip inside: this pip installs into it (as pipx does), several times faster.
    run([sys.executable, "-m", "venv", "--without-pip", root], env=env)
    run([sys.executable, "-m", "pip", "--python", root / "bin" / "python", "install", "--quiet",
         built.wheel], env=env)
    return root


def test_cache_home_is_pygen_cache_home_as_given(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("PYGEN_CACHE_HOME", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_home() == tmp_path / "mine"


def test_cache_home_falls_back_to_xdg_then_home(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.delenv("PYGEN_CACHE_HOME", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_home() == tmp_path / "xdg" / "pygen"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_home() == tmp_path / "home" / ".cache" / "pygen"


@pytest.mark.slow
def test_wheel_carries_the_node_script_and_lock_but_no_node_modules(built: Packaging) -> None:
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        packaged = {name: wheel.read(f"pygen/_js/{name}") for name in PACKAGED_JS}
    assert [n for n in names if "node_modules" in n] == []
    assert BUNDLE in names
    for name, source in PACKAGED_FROM.items():
        assert packaged[name] == (built.checkout / source).read_bytes(), name


@pytest.mark.slow
def test_installed_wheel_runs_from_site_packages(venv: Path, built: Packaging) -> None:
    done = run([venv / "bin" / "python", "-c", "import pygen; print(pygen.__file__)"],
               env=built.env, cwd=venv)
    assert Path(done.stdout.strip()).is_relative_to(venv)


@pytest.mark.slow
def test_installed_wheel_generates_from_its_bundle_with_nothing_to_install(
        venv: Path, built: Packaging, tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_project(project)
    assert not [p for p in (project, *project.parents) if (p / "node_modules").exists()]
    cache = tmp_path / "pygen-cache"
    env = {**built.env, "PYGEN_CACHE_HOME": str(cache)}
    done = run([venv / "bin" / "pygen", "gen"], env=env, cwd=project)
    assert NOTICE.search(done.stderr) is None, done.stderr
    assert not cache.exists()
    trim = (project / "skills/nodes/trim-video.md").read_text(encoding="utf-8")
    assert "`end: number` — End offset in seconds; -1 keeps the rest of the clip." in trim


@pytest.mark.slow
def test_without_the_bundle_ts_morph_is_installed_once_and_generates(
        venv: Path, built: Packaging, tmp_path: Path) -> None:
    bare = tmp_path / "bare-venv"
    shutil.copytree(venv, bare, symlinks=True)
    site = next(bare.glob("lib/python*/site-packages"))
    (site / BUNDLE).unlink()
    project = tmp_path / "project"
    write_project(project)
    cache = tmp_path / "pygen-cache"
    env = {**built.env, "PYGEN_CACHE_HOME": str(cache)}
    pygen = [bare / "bin" / "python", "-m", "pygen"]

    first = run([*pygen, "gen"], env=env, cwd=project)
    installed = NOTICE.findall(first.stderr)
    assert len(installed) == 1, first.stderr
    assert Path(installed[0]).parent == cache
    assert (Path(installed[0]) / "node_modules" / "ts-morph" / "package.json").is_file()
    for name in SKILL_FILES:
        assert (project / name).is_file(), name
    trim = (project / "skills/nodes/trim-video.md").read_text(encoding="utf-8")
    assert "# Trim Video" in trim

    second = run([*pygen, "gen"], env=env, cwd=project)
    assert NOTICE.search(second.stderr) is None, second.stderr
    assert "0 created, 0 updated, 5 unchanged" in second.stdout
    checked = run([*pygen, "check"], env=env, cwd=project)
    assert NOTICE.search(checked.stderr) is None, checked.stderr
