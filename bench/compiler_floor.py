"""The TypeScript compiler alone on the program pygen builds: the floor of any extraction that
resolves types through the checker on those files (bench/compiler_floor.cjs does the work).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from bench.extraction import Timing, check, measure
from pygen.config import load_config
from pygen.extract import noderuntime
from pygen.extract.noderuntime import NODE_FLAGS, node_env
from pygen.extract.runner import request_for

HERE = Path(__file__).resolve().parent.parent
FLOOR = Path(__file__).with_name("compiler_floor.cjs")


def compiler(config: Path, repeat: int) -> tuple[Timing, dict[str, int]]:
    """The compiler alone on pygen's program, reading the data types pygen's extract names."""
    app = config.parent
    document = json.loads(check([sys.executable, "-m", "pygen", "extract", "--config",
                                 str(config)], cwd=app,
                                env={**os.environ, "PYTHONPATH": str(HERE)}))
    names = sorted({n["data_type"]["name"] for n in document["nodes"] if n["data_type"]})
    request = json.dumps({**request_for(load_config(config)), "dataTypeNames": names})
    script = noderuntime.extractor()
    cmd = [str(script.node), *NODE_FLAGS, str(FLOOR)]
    replies: list[dict[str, int]] = []
    took = measure(lambda: replies.append(json.loads(check(cmd, stdin=request, cwd=app,
                                                           env=node_env(script)))), repeat)
    return took, replies[-1]
