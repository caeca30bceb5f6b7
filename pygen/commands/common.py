"""Options and helpers shared by the commands."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from pygen.config import Config, load_config
from pygen.errors import PygenError
from pygen.model import Diagnostic
from pygen.output import err_console

F = TypeVar("F", bound=Callable[..., Any])


def handle_errors(fn: F) -> F:
    """Turn PygenError into one line and exit 2; anything else into exit 2 with a hint."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        debug = click.get_current_context().find_root().params.get("debug", False)
        try:
            return fn(*args, **kwargs)
        except PygenError as exc:
            if debug:
                traceback.print_exc()
            err_console.print(f"[red]error:[/red] {exc}", highlight=False, markup=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:
            if debug:
                traceback.print_exc()
            else:
                err_console.print(
                    f"[red]internal error:[/red] {type(exc).__name__}: {exc} "
                    "(rerun with --debug for the traceback and report it)",
                    highlight=False,
                )
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


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
