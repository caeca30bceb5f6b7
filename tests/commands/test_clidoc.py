from __future__ import annotations

from pathlib import Path

from pygen import clidoc
from pygen.skills import markers

README = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def test_readme_command_reference_is_current() -> None:
    blocks = markers.bodies(README.read_text(encoding="utf-8"), str(README))
    assert blocks[clidoc.BLOCK] == markers.format_body(clidoc.render(), "\n"), (
        "docs/commands.md is stale: run `.venv/bin/python -m pygen.clidoc`")


def test_reference_covers_every_command_and_subcommand() -> None:
    text = clidoc.render()
    for name in ("gen", "check", "extract", "serve", "protocol plan", "validate-workflow"):
        assert f"### `pygen {name}`" in text
