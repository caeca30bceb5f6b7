"""Does the Agent Skills package's bundled script give the server's verdict?

`python -m bench.package_parity [--schemas FILE]`

Each plant changes one thing in the embedded example's saved workflow
(examples/studio/workflows/trailer.json, clean on both sides) and both judge the result: the
server's `validate_workflow_json` (the same `validate_workflow` over the catalog read from the
package's `nodes.schema.json`) and `scripts/validate_workflow.py` run by a plain `python -I`
beside that schema file. They agree when both call the workflow valid, or both call it
invalid and the script names an error the server names (the same JSON path and rule id).
Parity is the share of plants they agree on; "exact" counts those whose errors are the same.
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen.validation.catalog import Catalog
from pygen.validation.workflow import validate_workflow

REPO = Path(__file__).resolve().parents[1]
WORKFLOW = REPO / "examples" / "studio" / "workflows" / "trailer.json"
SCHEMAS = REPO / "skills" / "schemas" / "nodes.schema.json"
Workflow = dict[str, Any]


def _node(w: Workflow, node_id: str) -> dict[str, Any]:
    return next(n for n in w["nodes"] if n["id"] == node_id)


def _data(w: Workflow, node_id: str) -> dict[str, Any]:
    data = _node(w, node_id)["data"]
    assert isinstance(data, dict)
    return data


def _edge(w: Workflow, edge_id: str) -> dict[str, Any]:
    return next(e for e in w["edges"] if e["id"] == edge_id)


def _add_edge(w: Workflow, source: str, out: str, target: str, into: str) -> Workflow:
    w["edges"].append({"id": f"e{len(w['edges']) + 1}", "source": source,
                       "sourceHandle": out, "target": target, "targetHandle": into})
    return w


def _add_node(w: Workflow, node: dict[str, Any]) -> Workflow:
    w["nodes"].append({"position": {"x": 0, "y": 480}, **node})
    return w


# name → the one change; each leaves every other part of the workflow as saved.
PLANTS: dict[str, Callable[[Workflow], object]] = {
    "clean": lambda w: None,
    "unknown-node-type": lambda w: _node(w, "script").update(type="text-promt"),
    "node-type-missing": lambda w: _node(w, "score").pop("type"),
    "duplicate-node-id": lambda w: _node(w, "score").update(id="shot-1"),
    "node-id-missing": lambda w: _node(w, "score").pop("id"),
    "data-not-object": lambda w: _node(w, "final").update(data="Final cut"),
    "position-missing": lambda w: _node(w, "final").pop("position"),
    "position-not-numbers": lambda w: _node(w, "final").update(position={"x": "a", "y": 0}),
    "enum-value": lambda w: _data(w, "shot-1").update(provider="flux-2"),
    "wrong-type-string": lambda w: _data(w, "shot-1").update(style=35),
    "wrong-type-number": lambda w: _data(w, "shot-1").update(seed="many"),
    "below-minimum": lambda w: _data(w, "shot-1").update(seed=-5),
    "nested-above-maximum": lambda w: _data(w, "shot-1-clip")["camera"].update(strength=5),
    "nested-enum": lambda w: _data(w, "shot-1-clip")["camera"].update(motion="zoom"),
    "nested-required": lambda w: _data(w, "shot-1-clip")["camera"].pop("motion"),
    "required-emptied": lambda w: _data(w, "script").update(text=""),
    "field-mappings-emptied": lambda w: _data(w, "shot-1").update(fieldMappings={}),
    "field-mapping-to-unknown-field": lambda w: _data(w, "shot-1")["fieldMappings"].update(
        {"in": "promt"}),
    "field-mapping-of-unwired-handle": lambda w: _data(w, "shot-1-clip")[
        "fieldMappings"].update({"in": "prompt"}),
    "edge-to-missing-node": lambda w: _edge(w, "e2").update(target="shot-2-clip"),
    "edge-from-missing-node": lambda w: _edge(w, "e4").update(source="music"),
    "edge-unknown-source-handle": lambda w: _edge(w, "e1").update(sourceHandle="out"),
    "edge-unknown-target-handle": lambda w: _edge(w, "e3").update(targetHandle="clip"),
    "duplicate-edge-id": lambda w: _edge(w, "e4").update(id="e3"),
    "two-edges-into-single-input": lambda w: (
        _add_node(w, {"id": "score-2", "type": "generate-music",
                      "data": {"label": "Score 2", "prompt": "drums"}}),
        _add_edge(w, "score-2", "audio", "final", "audio")),
    "wire-between-different-types": lambda w: _add_edge(w, "script", "text", "final", "video"),
    "self-loop": lambda w: (
        _add_node(w, {"id": "up", "type": "upscale-image",
                      "data": {"label": "Up", "fieldMappings": {"image": "sourceImageUrl"}}}),
        _add_edge(w, "up", "image", "up", "image")),
    "cycle": lambda w: (
        _add_node(w, {"id": "up", "type": "upscale-image",
                      "data": {"label": "Up", "fieldMappings": {"image": "sourceImageUrl"}}}),
        _add_node(w, {"id": "up-2", "type": "upscale-image",
                      "data": {"label": "Up 2", "fieldMappings": {"image": "sourceImageUrl"}}}),
        _add_edge(w, "up", "image", "up-2", "image"),
        _add_edge(w, "up-2", "image", "up", "image")),
    "node-id-reference-to-missing-node": lambda w: (
        _add_node(w, {"id": "join", "type": "combine-videos",
                      "data": {"label": "Join", "order": ["shot-1-clip", "shot-9-clip"]}}),
        _add_edge(w, "shot-1-clip", "video", "join", "videos")),
    "settings-enum": lambda w: w["settings"].update(defaultAspectRatio="16x9"),
    "settings-missing": lambda w: w.pop("settings"),
    "unknown-field-warning-only": lambda w: _data(w, "score").update(tempo=120),
}


@dataclass(frozen=True)
class Verdict:
    errors: frozenset[tuple[str, str]]  # (path, rule id) of each error

    @property
    def valid(self) -> bool:
        return not self.errors


def planted() -> dict[str, Workflow]:
    clean = json.loads(WORKFLOW.read_text(encoding="utf-8"))
    out = {}
    for name, plant in PLANTS.items():
        workflow = copy.deepcopy(clean)
        plant(workflow)
        out[name] = workflow
    return out


def server_verdict(workflow: Workflow, catalog: Catalog) -> Verdict:
    return Verdict(frozenset((f.path, f.rule or "") for f in validate_workflow(workflow, catalog)
                             if f.level == "error"))


def script_verdicts(workflows: dict[str, Workflow], script: Path) -> dict[str, Verdict]:
    """The bundled script's verdicts, each a run of `python -I` (no pygen to import)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, workflow in workflows.items():
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(workflow), encoding="utf-8")
            done = subprocess.run([sys.executable, "-I", str(script), str(path)],
                                  capture_output=True, text=True, check=False)
            if done.returncode not in (0, 1):
                raise RuntimeError(f"{script} on {name}: exit {done.returncode}: "
                                   f"{done.stderr.strip()}")
            out[name] = Verdict(frozenset(_error(line) for line in done.stdout.splitlines()
                                          if line.startswith("error: ")))
    return out


def _error(line: str) -> tuple[str, str]:
    """(path, rule) of the script's `error: PATH: message [rule]` (no rule: "")."""
    path = line.removeprefix("error: ").split(": ", 1)[0]
    rule = line.rsplit(" [", 1)[1].rstrip("]") if line.endswith("]") and " [" in line else ""
    return path, rule


def agree(server: Verdict, script: Verdict) -> bool:
    if server.valid or script.valid:
        return server.valid == script.valid
    return bool(server.errors & script.errors)


def package_dir(schemas: Path, into: Path) -> Path:
    """A package's workflow-editor skill with the bundled script beside `schemas`: the script
    as `gen` writes it."""
    from pygen.skills.agent_skills_script import SCRIPT
    editor = into / "workflow-editor"
    (editor / "references").mkdir(parents=True)
    (editor / "scripts").mkdir()
    (editor / "references" / "nodes.schema.json").write_bytes(schemas.read_bytes())
    (editor / "scripts" / "validate_workflow.py").write_text(SCRIPT, encoding="utf-8")
    return editor / "scripts" / "validate_workflow.py"


def measure(schemas: Path = SCHEMAS) -> dict[str, tuple[Verdict, Verdict]]:
    catalog = Catalog.from_json(schemas.read_bytes(), str(schemas))
    workflows = planted()
    with tempfile.TemporaryDirectory() as tmp:
        script = package_dir(schemas, Path(tmp))
        scripts = script_verdicts(workflows, script)
    return {name: (server_verdict(w, catalog), scripts[name]) for name, w in workflows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.package_parity")
    parser.add_argument("--schemas", type=Path, default=SCHEMAS)
    args = parser.parse_args(argv)
    results = measure(args.schemas)
    same = 0
    print(f"{'plant':36} {'server':8} {'script':8} same")
    for name, (server, script) in results.items():
        ok = agree(server, script)
        same += ok
        print(f"{name:36} {'valid' if server.valid else 'invalid':8} "
              f"{'valid' if script.valid else 'invalid':8} {'yes' if ok else 'NO'}"
              + ("" if ok else f"  server {sorted(server.errors)} script "
                               f"{sorted(script.errors)}"))
    exact = sum(server == script for server, script in results.values())
    mistakes = [n for n, (server, _) in results.items() if not server.valid]
    caught = sum(not results[n][1].valid for n in mistakes)
    print(f"parity: {same} of {len(results)} ({100 * same / len(results):.0f}%); the script "
          f"finds {caught} of the {len(mistakes)} plants the server calls invalid; the same "
          f"errors on {exact}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
