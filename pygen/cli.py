"""Command-line entry point: thin click commands over plain functions.

Exit codes for every command: 0 success, 1 drift or invalid input data, 2 error.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from pygen import __version__
from pygen.errors import PygenError
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pygen")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def main(debug: bool) -> None:
    """Keep agent skill files in lockstep with TypeScript node definitions."""


def register() -> None:
    """Attach the subcommands; each lives in its own module under pygen.commands."""
    from pygen.commands import COMMANDS

    for command in COMMANDS:
        main.add_command(command)


register()
