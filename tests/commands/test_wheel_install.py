"""pygen installed from its wheel (distribution `node-editor-skills`) into a fresh virtualenv,
as pipx and pre-commit install it: no checkout and no node_modules anywhere. The wheel's
single-file bundle of the extractor and ts-morph runs with nothing to install; without the
bundle, ts-morph comes from a one-time install into the user cache, announced in one line.
"""

from __future__ import annotations

import shutil
import sys
import zipfile
from collections.abc import Mapping
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from packaging_helpers import (
    BUNDLE,
    NOTICE,
    PACKAGED_FROM,
    PACKAGED_JS,
    SKILL_FILES,
    Packaging,
    build_packaging,
    offline,
    run,
    write_project,
)

from pygen.extract.noderuntime import cache_home

# The name on the package index; the import package and the command stay `pygen`.
DISTRIBUTION = "node-editor-skills"


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
def test_wheel_carries_the_license_and_the_project_metadata(built: Packaging) -> None:
    """Adoptable as published: the MIT text in .dist-info/licenses, and what an index
    shows (license expression, classifiers, keywords)."""
    with zipfile.ZipFile(built.wheel) as wheel:
        names = wheel.namelist()
        [license_name] = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        text = wheel.read(license_name).decode("utf-8")
        [meta_name] = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = wheel.read(meta_name).decode("utf-8")
    assert text == (built.checkout / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "the pygen authors" in text
    assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
    assert "Classifier: Topic :: Software Development :: Code Generators" in meta
    [keywords] = [line for line in meta.splitlines() if line.startswith("Keywords: ")]
    assert {"mcp", "agent-skills", "typescript"} <= set(keywords[len("Keywords: "):].split(","))


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
    assert "0 created, 0 updated, 6 unchanged" in second.stdout
    checked = run([*pygen, "check"], env=env, cwd=project)
    assert NOTICE.search(checked.stderr) is None, checked.stderr


@pytest.mark.slow
def test_wheel_is_published_under_its_distribution_name(venv: Path, built: Packaging) -> None:
    assert built.wheel.name.startswith(f"{DISTRIBUTION.replace('-', '_')}-")
    shown = run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "show",
                 DISTRIBUTION], env=built.env)
    assert f"Name: {DISTRIBUTION}" in shown.stdout


@pytest.mark.slow
def test_installed_wheel_runs_init_gen_check_serve_on_the_example(
        venv: Path, built: Packaging, tmp_path: Path) -> None:
    """The newcomer's path on a copy of the example app, with nothing configured."""
    project = tmp_path / "studio"
    shutil.copytree(built.checkout / "examples" / "studio", project,
                    ignore=shutil.ignore_patterns("tools", "__pycache__"))
    env = {**built.env, "PYGEN_CACHE_HOME": str(tmp_path / "pygen-cache")}
    pygen = venv / "bin" / "pygen"
    init = run([pygen, "init"], env=env, cwd=project)
    assert "src/types/nodes.ts" in (project / "pygen.toml").read_text(encoding="utf-8"), init
    run([pygen, "gen"], env=env, cwd=project)
    assert (project / "skills" / "workflow-editor.md").is_file()
    run([pygen, "check"], env=env, cwd=project)
    assert _served_tools(pygen, project, env) >= {"start_workflow_editor"}


def _served_tools(pygen: Path, project: Path, env: Mapping[str, str]) -> set[str]:
    async def main() -> set[str]:
        params = StdioServerParameters(command=str(pygen), args=["serve"], env=dict(env),
                                       cwd=project)
        with (project.parent / "serve.log").open("w") as err:
            async with stdio_client(params, errlog=err) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                return {t.name for t in (await session.list_tools()).tools}

    return anyio.run(main)
