"""Command-line entry point: thin click commands over plain functions.

Exit codes for every command: 0 success, 1 drift or invalid input data, 2 error.
Subcommands are imported only when invoked, so `pygen check` does not pay for the MCP SDK.
"""

from __future__ import annotations

import importlib

import click

from pygen import __version__
from pygen.commands import COMMANDS
from pygen.commands.common import handle_errors

__all__ = ["handle_errors", "main"]


class LazyGroup(click.Group):
    """A group whose subcommands live in modules named by COMMANDS, loaded on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pygen")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def main(debug: bool) -> None:
    """Keep agent skill files in lockstep with TypeScript node definitions."""
