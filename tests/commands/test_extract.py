"""`pygen extract` end to end: the merged model as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main


def test_extract_json_is_the_model(studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(studio)
    result = CliRunner().invoke(main, ["extract", "--json"], catch_exceptions=False)
    model = json.loads(result.output)
    image = next(n for n in model["nodes"] if n["type"] == "generate-image")
    assert image["data_type"]["name"] == "GenerateImageData"
    assert image["data_type"]["via"] == "name"
    assert image["default_data"]["seed"] == -1
    assert any(s["path"].endswith("providers.ts") for s in model["sources"])
