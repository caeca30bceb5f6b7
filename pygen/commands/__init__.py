"""One module per subcommand; COMMANDS is the list the CLI attaches."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
