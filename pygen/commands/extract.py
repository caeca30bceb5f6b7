"""`pygen extract`: print the merged model, for debugging and tools."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pygen.commands.common import config_from, config_options
from pygen.tools import merge


@click.command("extract")
@config_options
@click.option("--json", "as_json", is_flag=True, default=True,
              help="Print the merged model as JSON (the default).")
def extract_cmd(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
                as_json: bool) -> int:
    """Print the merged model that rendering uses, for debugging and tools."""
    config = config_from(config_path, nodes_file, skills_dir)
    model = merge.load_model(config)
    sys.stdout.write(model.model_dump_json(indent=2) + "\n")
    return 0
