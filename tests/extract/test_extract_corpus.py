"""The extraction corpus: one small TypeScript project per construct, through real Node + ts-morph.

Each directory under tests/fixtures/ts/ is a case: its TypeScript project, an optional
`pygen.toml` (default: `nodes_file = "nodes.ts"`), and `expected.json`, which is either the
model (nodes, the exact diagnostic lines `gen` prints, the files read) or `{"error": …}` with
the exact one-line error. A case with an `expected.md` also pins the rendered
`node-data-shape` block of every node. The expected files are the spec: regenerate them with
`PYGEN_UPDATE_FIXTURES=1 .venv/bin/pytest tests/extract/test_extract_corpus.py` and read the diff.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from corpus_runs import CASES as RUN_CASES
from corpus_runs import CorpusRuns, worker_order

from pygen.config import Config, Settings, load_config
from pygen.errors import PygenError
from pygen.model import Model, NodeDef
from pygen.skills import render
from pygen.tools import merge

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
UPDATE = os.environ.get("PYGEN_UPDATE_FIXTURES") == "1"
# Each case is one Node process, mostly start-up; a few at a time keep both cores busy.
WORKERS = 3

Result = tuple[dict[str, Any], str | None]


def case_config(case: Path) -> Config:
    if (case / "pygen.toml").is_file():
        return load_config(case / "pygen.toml")
    # Built directly: looking for a config upwards would find this repo's own.
    return Config(settings=Settings(nodes_file="nodes.ts"), source=None, root=case)


def compact_node(node: NodeDef) -> dict[str, Any]:
    """The node without default-valued keys, so the expected files stay readable."""
    out = node.model_dump(mode="json", exclude_defaults=True)
    out.setdefault("data_type", {})["via"] = node.data_type.via
    return out


def snapshot(model: Model) -> dict[str, Any]:
    out: dict[str, Any] = {
        "nodes": [compact_node(n) for n in model.nodes],
        "diagnostics": [f"{d.level}: {d}" for d in model.diagnostics],
        "sources": [s.path for s in model.sources],
    }
    # Only where there are any, so the cases without them stay as they were.
    if model.stand_ins:
        out["stand_ins"] = [s.model_dump(mode="json") for s in model.stand_ins]
    if model.data_union:
        out["data_union"] = model.data_union
    return out


def markdown(model: Model, definitions: str) -> str:
    return "\n\n".join(
        f"<!-- {n.type} -->\n{render.node_data_shape(n, definitions)}" for n in model.nodes
    ) + "\n"


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with every object or list that fits on one line written on one line, for review."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= 96 or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    return "[\n" + ",\n".join(pad + dumps(v, indent + 2) for v in value) + "\n" + " " * indent + "]"


def run_case(case: Path, use_cache: bool = False) -> Result:
    config = case_config(case)
    try:
        model = merge.load_model(config, use_cache=use_cache)
    except PygenError as exc:
        # Messages name the config file by its absolute path; the case's own is enough here.
        return {"error": str(exc).replace(f"{case}{os.sep}", "")}, None
    return snapshot(model), markdown(model, config.definitions_label)


def shared_case(name: str, corpus_runs: CorpusRuns) -> Result:
    """A case that runs through is read from the session's copy after `gen`, whose Node reply
    `.pygen-cache/` holds (no second Node process); an error case is extracted here."""
    if name not in RUN_CASES:
        return run_case(CORPUS / name)
    return run_case(Path(corpus_runs.run(name).root), use_cache=True)


@pytest.fixture(scope="session")
def results(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
            corpus_runs: CorpusRuns) -> dict[str, Result]:
    """Every selected case, extracted up front in parallel."""
    here = Path(__file__).resolve()
    names = [item.callspec.params["name"] for item in request.session.items
             if Path(str(item.path)) == here and hasattr(item, "callspec")]
    home = tmp_path_factory.mktemp("corpus-home")
    with pytest.MonkeyPatch.context() as env, ThreadPoolExecutor(WORKERS) as pool:
        env.setenv("HOME", str(home))
        env.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        order = worker_order(names)
        done = dict(zip(order, pool.map(lambda n: shared_case(n, corpus_runs), order),
                        strict=True))
    return {name: done[name] for name in names}


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_case(name: str, results: dict[str, Result]) -> None:
    case = CORPUS / name
    actual, md = results[name]
    expected_json = case / "expected.json"
    expected_md = case / "expected.md"
    if UPDATE:
        expected_json.write_text(dumps(actual) + "\n", encoding="utf-8")
        if expected_md.exists() and md is not None:
            expected_md.write_text(md, encoding="utf-8")
    assert expected_json.is_file(), f"{name}: no expected.json; run with PYGEN_UPDATE_FIXTURES=1"
    assert actual == json.loads(expected_json.read_text(encoding="utf-8"))
    if expected_md.exists():
        assert md == expected_md.read_text(encoding="utf-8")


def test_corpus_is_not_empty() -> None:
    assert len(CASES) >= 20
