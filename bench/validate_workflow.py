"""Validate a 500-node, 500-edge workflow; target: median under 100 ms.

Run with `.venv/bin/python -m bench.validate_workflow`. The node types are synthetic but shaped
like real ones (enums, nested objects, arrays of objects, records, optional fields), and every
node carries full data, so each one exercises its whole schema.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from pygen.model import DataField, DataType, Handle, Location, Model, NodeDef, TypeRef
from pygen.validation.catalog import Catalog, build_catalog
from pygen.validation.workflow import validate_workflow

NODES = 500
TYPES = 12
RUNS = 15
TARGET_MS = 100.0


def _field(name: str, ref: TypeRef, optional: bool = False) -> DataField:
    return DataField(name=name, type_text=ref.kind, type=ref, optional=optional,
                     description=f"The {name}.")


def _enum(*values: str) -> TypeRef:
    return TypeRef(kind="union", types=tuple(TypeRef(kind="literal", value=v) for v in values))


STRING, NUMBER, BOOLEAN = TypeRef(kind="string"), TypeRef(kind="number"), TypeRef(kind="boolean")
RESULT = TypeRef(kind="object", name="GeneratedResult", fields=(
    _field("url", STRING), _field("jobId", STRING), _field("createdAt", STRING)))
FIELDS = (
    _field("label", STRING),
    _field("prompt", STRING),
    _field("provider", _enum("flux", "flux-pro", "flux-kontext", "nano-banana-pro", "ideogram")),
    _field("model", STRING),
    _field("aspectRatio", _enum("1:1", "16:9", "9:16", "4:3", "3:4", "21:9")),
    _field("negativePrompt", STRING),
    _field("fieldMappings", TypeRef(kind="record", items=STRING)),
    _field("camera", TypeRef(kind="object", fields=(
        _field("motion", _enum("static", "pan-left", "zoom-in", "orbit")),
        _field("strength", NUMBER)))),
    _field("seed", NUMBER, optional=True),
    _field("locked", BOOLEAN, optional=True),
    _field("executionStatus", _enum("idle", "queued", "running", "completed", "failed"), True),
    _field("generatedResults", TypeRef(kind="array", items=RESULT), optional=True),
    _field("tags", TypeRef(kind="array", items=STRING), optional=True),
)
DATA: dict[str, Any] = {
    "label": "Scene", "prompt": "A lighthouse at dusk", "provider": "flux", "model": "m1",
    "aspectRatio": "16:9", "negativePrompt": "", "fieldMappings": {"in": "prompt"},
    "camera": {"motion": "orbit", "strength": 0.5}, "seed": 7, "locked": False,
    "executionStatus": "completed",
    "generatedResults": [{"url": "https://x/1.png", "jobId": "j1", "createdAt": "2026-01-01"}],
    "tags": ["a", "b"],
}


def model() -> Model:
    where = Location(file="nodes.ts", line=1)
    return Model(nodes=tuple(
        NodeDef(type=f"node-{i}", label=f"Node {i}", source=where,
                inputs=(Handle(id="in"), Handle(id="image")), outputs=(Handle(id="out"),),
                default_data=DATA,
                data_type=DataType(name=f"Node{i}Data", via="name", fields=FIELDS))
        for i in range(TYPES)))


def workflow() -> dict[str, Any]:
    nodes = [{"id": f"n{i}", "type": f"node-{i % TYPES}", "position": {"x": i * 10, "y": 0},
              "data": {**DATA, "label": f"Scene {i}"}} for i in range(NODES)]
    edges = [{"id": f"e{i}", "source": f"n{i}", "sourceHandle": "out", "target": f"n{i + 1}",
              "targetHandle": "in" if i % 2 else "image"} for i in range(NODES - 1)]
    edges.append({"id": "e-last", "source": f"n{NODES - 1}", "sourceHandle": "out",
                  "target": "n0", "targetHandle": "in"})
    return {"nodes": nodes, "edges": edges}


def broken(doc: dict[str, Any]) -> dict[str, Any]:
    """The same workflow with one wrong enum value per node: the slow, reporting path."""
    nodes = [{**n, "data": {**n["data"], "provider": "flx"}} for n in doc["nodes"]]
    return {**doc, "nodes": nodes}


def timed(doc: dict[str, Any], catalog: Catalog) -> list[float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        validate_workflow(doc, catalog)
        times.append((time.perf_counter() - start) * 1000)
    return times


def loading(source: Model, doc: dict[str, Any]) -> None:
    """The catalog from the schema document gen writes, parsed whole and through its index,
    then one validation (what a `validate-workflow --schemas` call pays besides starting)."""
    from pygen.schema.doc_index import DocumentIndex, index_text
    from pygen.schema.document import document, dump_document

    data = document(source)
    text = dump_document(data)
    raw, index = text.encode(), index_text(data, text).encode()
    def whole() -> Catalog:
        return Catalog.from_json(raw, "bench")

    def indexed() -> Catalog:
        return Catalog.from_index(DocumentIndex.open(raw, index), "bench")

    for name, load in (("parsed whole", whole), ("through the index", indexed)):
        start = time.process_time()
        validate_workflow(doc, load())
        print(f"  document load + first validation, {name}: "
              f"{(time.process_time() - start) * 1000:.1f} ms CPU")


def main() -> int:
    catalog, doc = build_catalog(model()), workflow()
    start = time.perf_counter()
    findings = validate_workflow(doc, catalog)  # first run compiles one validator per type
    cold = (time.perf_counter() - start) * 1000
    assert not findings, findings
    assert len(validate_workflow(broken(doc), catalog)) == NODES
    print(f"validate_workflow: {NODES} nodes, {len(doc['edges'])} edges, {TYPES} node types")
    print(f"  first run (compiles validators): {cold:.1f} ms")
    valid, errors = timed(doc, catalog), timed(broken(doc), catalog)
    for name, times in (("valid", valid), (f"with {NODES} errors", errors)):
        print(f"  {name}: median of {RUNS} runs {statistics.median(times):.1f} ms "
              f"(min {min(times):.1f}, max {max(times):.1f})")
    loading(model(), doc)
    median = statistics.median(valid)
    verdict = "ok" if median < TARGET_MS else "SLOW"
    print(f"  target: valid workflow < {TARGET_MS:.0f} ms: {verdict}")
    return 0 if median < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
