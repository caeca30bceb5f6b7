"""Command-line entry point: thin click commands over plain functions, and the one error boundary.

Exit codes for every command: 0 success, 1 drift or invalid input data, 2 error (a config,
an input, a failed extraction: something the user can fix), 3 a crash (pygen's bug; its
report is written to a file, pygen.crash). A command
returns its exit code; `LazyGroup.invoke` turns it, or the error a command raised, into the
process's exit code. Subcommands are imported only when invoked, so `pygen check` does not pay
for the MCP SDK.
"""

from __future__ import annotations

import importlib
import traceback

import click

from pygen import __version__
from pygen.commands import COMMANDS, EXTRACTING
from pygen.errors import PygenError
from pygen.output import err_console, safe

__all__ = ["main"]


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

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        # Node and TypeScript load while Python imports the command and reads the config.
        if args and args[0] in EXTRACTING and not {"-h", "--help"} & set(args):
            from pygen.extract import prestart

            prestart.start()
        if args and not args[0].startswith("-") and args[0] not in COMMANDS:
            from pygen.suggest import did_you_mean

            # click's own message names no near command; ours does, as config keys do.
            ctx.fail(f"No such command '{args[0]}'{did_you_mean(args[0], COMMANDS)}.")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> None:
        """Run the subcommand and exit with the code it returns, or with its error's code."""
        debug = bool(ctx.params.get("debug", False))
        try:
            code = super().invoke(ctx)
        except PygenError as exc:
            code = report_error(exc, debug=debug)
        except (click.exceptions.Exit, click.ClickException, SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:
            code = report_crash(exc, debug=debug)
        ctx.exit(code if isinstance(code, int) else 0)


def report_error(exc: PygenError, *, debug: bool) -> int:
    """A PygenError: one line (the traceback too with --debug); its family's exit code."""
    if debug:
        traceback.print_exc()
    err_console.print(f"[red]error:[/red] {safe(str(exc))}", highlight=False, markup=True)
    return exc.exit_code


def report_crash(exc: Exception, *, debug: bool) -> int:
    """Any other exception is a bug: exit 3, with one line naming the report written
    (pygen.crash; the traceback also printed with --debug). A package pygen imports that is
    not installed is no bug of pygen's but an install that predates a dependency: say which,
    and how to mend it (exit 2, as for every error the user can fix)."""
    if isinstance(exc, ModuleNotFoundError) and exc.name and \
            exc.name.partition(".")[0] != "pygen":
        err_console.print(
            f"[red]error:[/red] the package '{safe(exc.name.partition('.')[0])}' pygen needs "
            "is not installed in this environment; reinstall pygen with its dependencies "
            "(pip install -e '.[dev]' in a checkout, or pip install -U node-editor-skills)",
            highlight=False,
        )
        return 2
    if debug:
        traceback.print_exc()
    from pygen import crash

    path = crash.write_report(exc)
    where = (f"the report is in {safe(path)}; please attach it to a bug report" if path
             else "rerun with --debug for the traceback and report it")
    err_console.print(f"[red]internal error:[/red] {type(exc).__name__}: {safe(str(exc))} "
                      f"({where})", highlight=False)
    return crash.EXIT_CODE


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pygen")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def main(debug: bool) -> None:
    """Keep agent skill files in lockstep with TypeScript node definitions."""
