"""A versioned type (n8n's VersionedNodeType: one type, a variant per version) answers under
the plain type a workflow names, and an unknown type's error names at most ten types.

A hand-written schema document: `chat.send` with versions 1, 2, 2.1 … 2.4 (each variant its
own `$defs` entry, the plain type the choice among them) and fourteen other types."""

from __future__ import annotations

import json
from typing import Any

from pygen.server.node_tools import NodeCatalog, SkillAnswers
from pygen.validation.workflow import validate_workflow

VERSIONS = ("1", "2", "2.1", "2.2", "2.3", "2.4")
OTHERS = [f"tool-{n}" for n in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
                                "theta", "iota", "kappa", "lambda", "mu", "nu", "xi")]


def _data(field: str) -> dict[str, Any]:
    return {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}


def document() -> dict[str, Any]:
    defs: dict[str, Any] = {f"chat.send.{v}": _data(f"text{v.replace('.', '')}")
                            for v in VERSIONS}
    defs["chat.send"] = {"type": "object",
                         "oneOf": [{"$ref": f"#/$defs/chat.send.{v}"} for v in VERSIONS],
                         "x-variants": {"field": "version",
                                        "values": {v: f"chat.send.{v}" for v in VERSIONS},
                                        "default": "chat.send.2.4"}}
    defs.update({t: _data("value") for t in OTHERS})
    handles = {t: {"inputs": [None], "outputs": [None]} for t in defs}
    nodes = {t: {"label": "Send Message" if t.startswith("chat") else t, "category": None,
                 "tool": None} for t in defs if t != "chat.send"}
    return {"$defs": defs, "x-handles": handles, "x-nodes": nodes,
            "x-conventions": {"node_version_key": "typeVersion"}}


SKILLS = {t: f"# {t}\n\nThe {t} node.\n" for t in document()["$defs"] if t != "chat.send"}


def answers() -> SkillAnswers:
    text = json.dumps(document())
    return SkillAnswers(SKILLS, NodeCatalog.from_text(text, "nodes.schema.json", SKILLS))


def test_the_plain_type_answers_its_default_version_and_lists_the_others() -> None:
    for detail in ("minimal", "standard", "full"):
        result = answers().result("chat.send", None, detail)
        said = result.content[0].text  # type: ignore[union-attr]
        assert not result.is_error
        head, _, rest = said.partition("\n\n")
        assert head == ("Note: `chat.send` has 6 versions (`typeVersion`: 1, 2, 2.1, 2.2, 2.3, "
                        "2.4); this is version 2.4, the default. For another, ask for "
                        "`chat.send.<version>`, e.g. get_node_skill(node_type=\"chat.send.2.3\").")
        assert "chat.send.2.4" in rest.splitlines()[0] and "text23" not in rest
    # A version asked for by its type is that version alone; the label finds the plain type.
    older = answers().result("chat.send.1", None, "standard").content[0].text  # type: ignore
    assert older.startswith("# chat.send.1") and "versions" not in older
    by_label = answers().result("Send Message", None, "minimal").content[0].text  # type: ignore
    assert by_label.startswith("Note: 'Send Message' is the label of node type 'chat.send'")
    assert "this is version 2.4" in by_label


def test_an_unknown_type_names_the_nearest_ten_never_the_catalog() -> None:
    result = answers().result("chat.sned", None, "standard")
    said = result.content[0].text  # type: ignore[union-attr]
    assert result.is_error
    assert said.startswith("Unknown node_type 'chat.sned'. Did you mean: chat.send")
    assert "(the nearest of 15 types)" in said  # the plain type stands for its versions
    assert "chat.send.1" not in said
    far = answers().result("tool-omega", None, "standard").content[0].text  # type: ignore
    assert sum(t in far for t in OTHERS) <= 10 and len(far) < 400


def test_validation_names_the_nearest_ten_for_an_unknown_type() -> None:
    catalog = NodeCatalog.from_text(json.dumps(document()), "nodes.schema.json").catalog
    workflow = {"nodes": [{"id": "a", "type": "tool-omgea", "position": {"x": 0, "y": 0},
                           "data": {}}], "edges": []}
    [finding] = [f for f in validate_workflow(workflow, catalog, "runtime")
                 if f.rule == "unknown-node-type"]
    assert "the nearest of the 15 types: " in finding.message
    assert finding.message.count('"tool-') - 1 <= 10 and len(finding.message) < 400


def test_a_variant_covering_several_versions_is_named_with_them() -> None:
    from pygen.server.versions import Versions

    line = Versions("if", "if.3", "typeVersion", (("if.2", ("1", "2")), ("if.3", ("3",)))).line()
    assert line == ("Note: `if` has 2 versions (`typeVersion`: 1/2 `if.2`, 3 `if.3`); this is "
                    "version 3, the default. For another, ask for its type, e.g. "
                    "get_node_skill(node_type=\"if.2\").")


def test_the_plain_type_answers_alike_when_the_document_is_opened_through_its_index() -> None:
    # `serve` opens gen's document through its index: entries are parsed as they are read.
    from pygen.jsonvalues import pretty
    from pygen.schema.doc_index import DocumentIndex, index_text
    from pygen.server.indexed import node_catalog
    from pygen.server.search import entries_from_doc

    doc = document()
    doc["x-handles"]["tool-alpha"] = {"inputs": ["frames"], "outputs": ["clip"]}
    text = pretty(doc)
    opened = DocumentIndex.open(text.encode(), index_text(doc, text).encode())
    indexed = NodeCatalog(*node_catalog(opened, "nodes.schema.json", SKILLS))
    whole = answers()
    lazy = SkillAnswers(SKILLS, indexed)
    assert lazy.versions == whole.versions and "chat.send" in lazy.valid
    for detail in ("minimal", "standard", "full"):
        assert (lazy.result("chat.send", None, detail).content[0].text  # type: ignore
                == whole.result("chat.send", None, detail).content[0].text)  # type: ignore
    # Search reads each type's handles from the lazy document too.
    entries = entries_from_doc(indexed.doc)
    assert entries == entries_from_doc(json.loads(text))
    assert next(e.handles for e in entries if e.type == "tool-alpha") == ("frames", "clip")
