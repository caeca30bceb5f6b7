"""`pygen extract`: print the merged model, for debugging and tools."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pygen.commands.common import config_from, config_options, print_diagnostics, verbose_option
from pygen.progress import progress
from pygen.tools import merge


@click.command("extract")
@config_options
@click.option("--json", "as_json", is_flag=True, default=True,
              help="Print the merged model as JSON (the default).")
@click.option("--no-cache", is_flag=True, help="Run the extraction even if nothing changed.")
@verbose_option
def extract_cmd(config_path: Path | None, nodes_file: Path | None, skills_dir: Path | None,
                as_json: bool, no_cache: bool, verbose: bool) -> int:
    """Print the merged model that rendering uses, for debugging and tools.

    The model carries every warning; stderr shows their summary. Through the extraction
    cache, as `gen` and `check`: on a big app (sim, 336 blocks) an `extract` then `gen` read
    the whole program twice.
    """
    config = config_from(config_path, nodes_file, skills_dir)
    with progress(verbose=verbose) as steps:
        steps.step(f"extracting the catalog ({config.definitions_label})")
        model = merge.load_model(config, use_cache=not no_cache, note=steps.step)
    print_diagnostics(model.diagnostics, quiet=False, verbose=verbose)
    sys.stdout.write(model.model_dump_json(indent=2) + "\n")
    return 0
