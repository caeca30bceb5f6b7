"""`pygen protocol`: plan, validate and apply Skill Call Protocol JSON. JSON in, JSON out.

Every file argument may be `-` for stdin. Exit codes: 0 ok, 1 the result breaks a rule
(`validate`), 2 an error (unreadable input, unknown skill or output kind, bad registry).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from pygen import files, layout
from pygen.config import find_config, load_config
from pygen.errors import PygenError
from pygen.output import console, visible, visible_json
from pygen.protocol import (
    ProtocolError,
    Registry,
    apply_patches,
    load_registry,
    plan,
    protocol_schema,
    to_wire,
    validate,
)
from pygen.protocol.loading import load_patches, load_request, load_result, load_scenes, parse_json
from pygen.protocol.rules import validation_report


def default_registry_path(cwd: Path) -> Path:
    """`<skills_dir>/protocol/registry.toml` of the project configured at or above cwd."""
    source = find_config(cwd)
    if source is None:
        raise ProtocolError(
            f"{cwd}: no pygen configuration found to locate the skill registry; "
            "pass --registry PATH"
        )
    return layout.protocol_registry(load_config(source, cwd=cwd).skills_dir)


def read_input(argument: str) -> tuple[Any, str]:
    """Parsed JSON from a file or, for `-`, stdin; with the name messages should use."""
    if argument == "-":
        return parse_json(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    try:
        data = files.read_bytes(argument)
    except PygenError as exc:
        raise ProtocolError(str(exc)) from None
    if data is None:
        raise ProtocolError(f"{argument}: cannot read: No such file or directory")
    return parse_json(data, argument), argument


@contextmanager
def reading(source: str) -> Iterator[None]:
    """Prefix errors about a document's fields with the document's name."""
    try:
        yield
    except ProtocolError as exc:
        raise ProtocolError(f"{source}: {exc}") from None


def emit_json(data: Any) -> None:
    # markup/emoji off: JSON text such as "[b]" or ":smile:" must print as is.
    console.print(visible_json(json.dumps(data, indent=2, ensure_ascii=False)), markup=False,
                  emoji=False, highlight=False)


def _only_one_stdin(*arguments: str) -> None:
    if sum(argument == "-" for argument in arguments) > 1:
        raise ProtocolError("only one input can be read from stdin ('-')")


def _registry(ctx: click.Context) -> Registry:
    path: Path | None = ctx.obj
    return load_registry(path if path is not None else default_registry_path(Path.cwd()))


@click.group("protocol")
@click.option(
    "--registry",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Skill registry file (default: <skills_dir>/protocol/registry.toml from the config).",
)
@click.pass_context
def protocol(ctx: click.Context, registry: Path | None) -> None:
    """Plan and check calls between skills (Skill Call Protocol, planning-only v1)."""
    ctx.obj = registry


@protocol.command("plan")
@click.argument("request_file", metavar="REQUEST.json")
@click.pass_context
def plan_command(ctx: click.Context, request_file: str) -> int:
    """Print the planned result (dryRun or planned) for a request; executes nothing."""
    registry = _registry(ctx)
    data, source = read_input(request_file)
    request = load_request(data, source)
    with reading(source):
        result = plan(request, registry)
    emit_json(to_wire(result))
    return 0


@protocol.command("validate")
@click.argument("result_file", metavar="RESULT.json")
@click.option("--request", "request_file", required=True, metavar="REQUEST.json")
@click.option("--scenes", "scenes_file", required=True, metavar="SCENES.json")
@click.option("--json", "as_json", is_flag=True, help="Print the violations as JSON.")
@click.pass_context
def validate_command(
    ctx: click.Context, result_file: str, request_file: str, scenes_file: str, as_json: bool
) -> int:
    """Check a result against its request and the scenes; exit 1 if it breaks a rule."""
    _only_one_stdin(result_file, request_file, scenes_file)
    registry = _registry(ctx)
    result_data, result_source = read_input(result_file)
    request_data, request_source = read_input(request_file)
    scenes_data, scenes_source = read_input(scenes_file)
    result = load_result(result_data, result_source)
    request = load_request(request_data, request_source)
    scenes = load_scenes(scenes_data, scenes_source)
    with reading(request_source):
        violations = validate(result, request, scenes, registry)
    if as_json:
        emit_json(validation_report(violations))
    else:
        for violation in violations:
            console.print(visible(f"{result_source}: {violation}"), markup=False, emoji=False)
        if not violations:
            console.print(visible(f"{result_source}: valid"), markup=False, emoji=False)
    return 1 if violations else 0


@protocol.command("apply")
@click.argument("scenes_file", metavar="SCENES.json")
@click.argument("patches_file", metavar="PATCHES.json")
def apply_command(scenes_file: str, patches_file: str) -> int:
    """Print the scene specs with the patches applied (the input files are not changed)."""
    _only_one_stdin(scenes_file, patches_file)
    scenes_data, scenes_source = read_input(scenes_file)
    patches_data, patches_source = read_input(patches_file)
    scenes = load_scenes(scenes_data, scenes_source)
    patches = load_patches(patches_data, patches_source)
    with reading(patches_source):
        patched = apply_patches(scenes, patches)
    emit_json([to_wire(scene) for scene in patched])
    return 0


@protocol.command("schema")
def schema_command() -> int:
    """Print the JSON Schema of the protocol's requests and results."""
    emit_json(protocol_schema())
    return 0
