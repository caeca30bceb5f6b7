"""Options and helpers shared by the commands."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from pygen.config import Config, load_config
from pygen.model import Diagnostic
from pygen.output import err_console

F = TypeVar("F", bound=Callable[..., Any])


def config_options(fn: F) -> F:
    """--config plus the flags that override config keys."""
    fn = click.option("--skills-dir", type=click.Path(path_type=Path),
                      help="Override skills_dir.")(fn)
    fn = click.option("--nodes-file", type=click.Path(path_type=Path),
                      help="Override nodes_file.")(fn)
    fn = click.option("--config", "config_path", type=click.Path(path_type=Path),
                      help="Config file (pyproject.toml with [tool.pygen], or pygen.toml).")(fn)
    return fn


def config_from(config_path: Path | None, nodes_file: Path | None,
                skills_dir: Path | None, **extra: Any) -> Config:
    overrides: dict[str, Any] = dict(extra)
    # Flags are relative to where the user typed them, not to the config file.
    if nodes_file is not None:
        overrides["nodes_file"] = str(nodes_file.resolve())
    if skills_dir is not None:
        overrides["skills_dir"] = str(skills_dir.resolve())
    return load_config(config_path, overrides)


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path) if path.is_absolute() and not os.path.relpath(
            path).startswith("..") else str(path)
    except ValueError:
        return str(path)


def print_diagnostics(diagnostics: tuple[Diagnostic, ...], quiet: bool) -> None:
    if quiet:
        return
    for diagnostic in diagnostics:
        err_console.print(f"[yellow]{diagnostic.level}:[/yellow] {diagnostic}", highlight=False,
                          markup=True)
