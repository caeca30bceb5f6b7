"""The command reference (docs/commands.md), rendered from the CLI itself so it cannot drift.

`python -m pygen.clidoc` rewrites the block in docs/commands.md; a test fails when it is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pygen import files
from pygen.cli import main
from pygen.skills import markers

BLOCK = "cli-reference"


def _help(command: click.Command, name: str, parent: click.Context | None) -> str:
    ctx = click.Context(command, info_name=name, parent=parent, terminal_width=100,
                        max_content_width=100, help_option_names=["-h", "--help"])
    return command.get_help(ctx)


def _walk(command: click.Command, name: str, parent: click.Context | None,
          out: list[str]) -> None:
    ctx = click.Context(command, info_name=name, parent=parent)
    out += [f"### `{ctx.command_path}`", "", "```text", _help(command, name, parent), "```", ""]
    if isinstance(command, click.Group):
        for sub in sorted(command.list_commands(ctx)):
            child = command.get_command(ctx, sub)
            if child is not None and not child.hidden:
                _walk(child, sub, ctx, out)


def render() -> str:
    root = click.Context(main, info_name="pygen")
    out: list[str] = []
    for name in sorted(main.list_commands(root)):
        command = main.get_command(root, name)
        if command is not None:
            _walk(command, name, root, out)
    return "\n".join(out).rstrip("\n")


def update(readme: Path) -> bool:
    """Rewrite the reference's block; True when it changed."""
    old = files.read_text(readme) or ""
    new = markers.replace_blocks(old, {BLOCK: render()}, str(readme))
    if new != old:
        files.write_all([(readme, new)])
    return new != old


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/commands.md")
    print(f"{target} " + ("updated" if update(target) else "is current"))
