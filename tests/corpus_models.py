"""Models of the TS fixture corpus (tests/fixtures/ts/<case>/expected.json) for tests that
need a realistic model without running Node."""

from __future__ import annotations

import json
from pathlib import Path

from pygen.model import Model

CORPUS = Path(__file__).resolve().parent / "fixtures" / "ts"


def expected_model(case: str) -> Model:
    """The nodes a corpus case's expected snapshot holds, as a model."""
    expected = json.loads((CORPUS / case / "expected.json").read_text(encoding="utf-8"))
    return Model.model_validate({"nodes": expected["nodes"]})
