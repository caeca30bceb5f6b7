"""Connection rules the definitions state (`accepts` on an input, `connectsTo` on an output or
a node): extracted by the real extractor, written into the schema document, enforced by
`pygen validate-workflow` (no mechanical fix: the agent rewires)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.config import Config, Settings
from pygen.model import Handle, Location, NodeDef
from pygen.schema.document import connection_rules
from pygen.skills.minimal_detail import render_minimal
from pygen.skills.wired_example import wired_example
from pygen.tools import merge
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_workflow

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "ts" / "connection-rules"


def node(node_id: str, node_type: str, x: int, **data: Any) -> dict[str, Any]:
    return {"id": node_id, "type": node_type, "position": {"x": x, "y": 0}, "data": data}


def edge(j: int, source: str, out: str, target: str, into: str) -> dict[str, Any]:
    return {"id": f"e{j}", "source": source, "sourceHandle": out, "target": target,
            "targetHandle": into}


NODES = [
    node("brief", "prompt", 0, text="Replace the sky with a sunset"),
    node("cut", "segment-subject", 0, subject="sky"),
    node("fix", "inpaint", 320, prompt="", strength=0.6),
    node("big", "upscale-image", 640, factor=4),
    node("alt", "caption-image", 640, style="alt-text"),
    node("out", "export-image", 960, format="png"),
]
GOOD = [edge(1, "brief", "text", "fix", "prompt"), edge(2, "cut", "mask", "fix", "mask"),
        edge(3, "fix", "image", "big", "image"), edge(4, "big", "image", "out", "image")]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(CASE, tmp_path / "app", ignore=shutil.ignore_patterns("expected.*"))
    shutil.copy(CASE.parent / "tsconfig.json", tmp_path / "tsconfig.json")
    (tmp_path / "app" / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path / "app")
    return tmp_path / "app"


def validate(project: Path, edges: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    (project / "wf.json").write_text(json.dumps({"nodes": NODES, "edges": edges}),
                                     encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", "wf.json", "--json"])
    return result.exit_code, json.loads(result.stdout)["findings"]


def test_the_rules_in_the_definitions_are_enforced(project: Path) -> None:
    assert validate(project, GOOD) == (0, [])
    code, findings = validate(project, [
        *GOOD,
        # A caption is text, like a prompt, but the inpaint prompt accepts only `prompt`.
        edge(5, "alt", "text", "fix", "prompt"),
        # Inpaint's outputs (node-level connectsTo) go to upscaling or export only.
        edge(6, "fix", "image", "cut", "image"),
        # The upscaled image (its own connectsTo) goes to export only.
        edge(7, "big", "image", "alt", "image"),
        # The preview's rule was unreadable (a warning at extraction): nothing is enforced.
        edge(8, "big", "preview", "alt", "image"),
    ])
    assert code == 1
    assert [(f["rule"], f["path"], f.get("fix")) for f in findings] == [
        ("connection-accepts", "$.edges[4].targetHandle", None),
        ("connection-connects-to", "$.edges[5].targetHandle", None),
        ("connection-connects-to", "$.edges[6].targetHandle", None),
    ]
    assert findings[0]["message"] == (
        'input "prompt" of inpaint accepts only prompt; wire one of those into it, not '
        'caption-image (output "text", text)')
    assert findings[1]["message"] == (
        'inpaint output "image" connects only to upscale-image, export-image; not to '
        'segment-subject (input "image", image)')


def test_variants_keep_a_rule_only_when_every_variant_states_one() -> None:
    def variant(name: str, accepts: tuple[str, ...], connects: tuple[str, ...],
                own: tuple[str, ...] = ()) -> NodeDef:
        return NodeDef(type="gen", label="Gen", variant=name, source=Location(file="n", line=1),
                       inputs=(Handle(id="in", accepts=accepts),),
                       outputs=(Handle(id="image", connects_to=own), Handle(id="mask")),
                       connects_to=connects)

    both = connection_rules([variant("a", ("text",), ("up",)), variant("b", ("prompt",), ("ex",))])
    assert both == {"accepts": {"in": ["text", "prompt"]}, "connectsTo": {"*": ["up", "ex"]}}
    # One variant without a rule: none, so no wire that variant allows is refused.
    assert connection_rules([variant("a", ("text",), ("up",)), variant("b", (), ())]) == {}
    # A handle's own rule beats the node's; it is written only where it differs.
    assert connection_rules([variant("a", (), ("up",), own=("ex",))]) == {
        "connectsTo": {"image": ["ex"], "*": ["up"]}}


def test_docs_state_the_rules_and_worked_examples_keep_them() -> None:
    model = merge.load_model(Config(settings=Settings(nodes_file="nodes.ts"), source=None,
                                    root=CASE))
    inpaint = model.node("inpaint")
    assert inpaint is not None
    # By handle name alone segment-subject's `image` would come first; inpaint's connectsTo
    # rules it out, and no upstream output may feed `image` (upscale's output goes to export).
    example = wired_example(inpaint, model)
    assert [n["type"] for n in example["nodes"]] == ["inpaint", "upscale-image"]
    catalog = build_catalog(model)
    found = [(f.rule, f.path) for f in validate_workflow(example, catalog, "runtime")]
    # (These data types declare no `label`, which the example sets on every node.)
    assert [rule for rule, path in found if not path.endswith(".data.label")] == []
    spec = catalog.specs["inpaint"]
    minimal = render_minimal("inpaint", spec.schema, spec.handles, {"label": "Inpaint"})
    assert minimal.splitlines()[2] == ("wire only: image ← image; mask ← mask|segment-subject; "
                                       "prompt ← prompt; outputs → upscale-image|export-image")
