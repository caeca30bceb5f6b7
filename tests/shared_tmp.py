"""The temp folder every xdist worker of this test session shares (each worker's own temp dir
is a folder inside it), for work done once per session whichever worker asks first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def shared_tmp(factory: pytest.TempPathFactory, name: str) -> Path:
    """`name` in the session's shared temp folder (created); without xdist, in the temp dir."""
    base = factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    folder.mkdir(exist_ok=True)
    return folder
