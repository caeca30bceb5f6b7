"""`pygen schema [TYPE]`: the JSON Schema of node data, from the extracted types."""

from __future__ import annotations

from pathlib import Path

import click

from pygen.commands.common import config_from, config_options
from pygen.output import console


@click.command("schema")
@click.argument("node_type", metavar="[TYPE]", required=False)
@config_options
def schema(node_type: str | None, config_path: Path | None, nodes_file: Path | None,
           skills_dir: Path | None) -> int:
    """Print the JSON Schema (draft 2020-12) of one node type's data, or of all of them.

    TYPE may name a variant (`tool.search`, with variant_field). Without TYPE, prints the
    document `pygen gen` writes to schemas/nodes.schema.json: every type's and variant's
    schema under `$defs`, their handle ids under `x-handles` (the file also keeps the tools'
    names under `x-tool-names` and retired names under `x-retired`).
    """
    from pygen.tools import merge
    from pygen.validation.catalog import build_catalog, node_schema_text

    catalog = build_catalog(merge.load_model(config_from(config_path, nodes_file, skills_dir)))
    text = catalog.to_json() if node_type is None else node_schema_text(catalog, node_type)
    console.out(text, end="", highlight=False)
    return 0
