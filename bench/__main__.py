"""`python -m bench [NAME ...]`: run the benchmarks (all of them by default), one after another."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

# Benchmarks that download packages (hundreds of MB): run only when named.
OPT_IN = frozenset({"real_catalogs", "heavy_extract", "big_catalog"})


def names() -> list[str]:
    folder = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(folder)])
                  if not m.name.startswith("_") and m.name not in OPT_IN)


def run(selected: list[str]) -> None:
    for name in selected or names():
        module = importlib.import_module(f"bench.{name}")
        if hasattr(module, "main"):
            print(f"== bench.{name}", flush=True)
            # Each benchmark parses its own options; run it with its defaults.
            sys.argv = [f"python -m bench.{name}"]
            module.main()


if __name__ == "__main__":
    run(sys.argv[1:])
