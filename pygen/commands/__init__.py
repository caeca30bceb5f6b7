"""One module per subcommand; COMMANDS is the list the CLI attaches."""

from __future__ import annotations

import click

from pygen.commands.generate import check, extract_cmd, gen

COMMANDS: list[click.Command] = [gen, check, extract_cmd]

from pygen.commands.serve import serve  # noqa: E402

COMMANDS.append(serve)

from pygen.commands.protocol import protocol  # noqa: E402

COMMANDS.append(protocol)

from pygen.commands.schema import schema  # noqa: E402
from pygen.commands.validate_workflow import validate_workflow_cmd  # noqa: E402

COMMANDS += [schema, validate_workflow_cmd]

from pygen.commands.doctor import doctor_cmd  # noqa: E402

COMMANDS.append(doctor_cmd)
