"""The README names the TypeScript that reads a user's code: the one ts-morph bundles."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from pygen.extract.noderuntime import find_node

ROOT = Path(__file__).resolve().parents[1]


def test_readme_names_the_bundled_typescript() -> None:
    script = 'console.log(JSON.stringify([require("@ts-morph/common").ts.version, ' \
             'require("ts-morph/package.json").version]))'
    out = subprocess.run([str(find_node()), "-e", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    typescript, ts_morph = json.loads(out)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"**TypeScript {typescript}**, the compiler ts-morph {ts_morph.split('.')[0]} " \
           "bundles" in readme
