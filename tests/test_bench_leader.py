"""The n8n bench's comparison with the leading n8n MCP server's node database
(bench/leader_db.py): a database of the same shape and loader records, written here by hand."""

from __future__ import annotations

import base64
import gzip
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bench import leader_db, real_catalogs

FIELDS: list[dict[str, Any]] = [
    {"name": "resource", "type": "options", "options": [{"name": "Issue", "value": "issue"}]},
    {"name": "tip", "type": "notice", "displayName": "Read this", "default": ""},
    {"name": "title", "type": "string", "displayOptions": {"show": {"@version": [1]}}},
    {"name": "title", "type": "string", "displayOptions": {"show": {"@version": [2]}}},
    {"name": "additionalFields", "type": "collection", "default": {}, "options": [
        {"name": "labels", "type": "string"},
        {"name": "inner", "type": "collection", "options": [{"name": "deep", "type": "boolean"}]},
    ]},
    {"name": "headers", "type": "fixedCollection", "options": [
        {"name": "values", "displayName": "Values", "values": [
            {"name": "key", "type": "string"}, {"name": "value", "type": "string"}]}]},
    {"name": "old", "type": "collection", "displayOptions": {"show": {"@version": [1]}},
     "options": [{"name": "since", "type": "string"}]},
]
# The leader's copy of the same node, from a release with one more parameter.
THEIRS = [*FIELDS, {"name": "extra", "type": "string"}]
MULTI_V1 = [{"name": "mode", "type": "string"}]
MULTI_V2 = [{"name": "mode", "type": "string"}, {"name": "limit", "type": "number"}]

RECORDS: list[dict[str, Any]] = [
    {"file": "dist/nodes/Acme/Acme.node.js", "type": "n8n-nodes-base.acme", "label": "Acme",
     "version": [1, 2], "versions": [1, 2], "latest": True, "default_version": None,
     "fields": FIELDS},
    {"file": "dist/nodes/Multi/Multi.node.js", "type": "n8n-nodes-base.multi", "label": "M",
     "version": 1, "versions": [1, 2], "latest": False, "default_version": 2,
     "fields": MULTI_V1},
    {"file": "dist/nodes/Multi/Multi.node.js", "type": "n8n-nodes-base.multi", "label": "M",
     "version": 2, "versions": [1, 2], "latest": True, "default_version": 2,
     "fields": MULTI_V2},
]


def packed(value: Any) -> str:
    return base64.b64encode(gzip.compress(json.dumps(value).encode())).decode()


def make_db(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE nodes (node_type TEXT PRIMARY KEY, package_name TEXT, "
                     "version TEXT, properties_schema TEXT, is_tool_variant INTEGER, "
                     "is_community INTEGER)")
        conn.executemany("INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?)", [
            ("nodes-base.acme", "n8n-nodes-base", "2", packed(THEIRS), 0, 0),
            ("nodes-base.multi", "n8n-nodes-base", "2", json.dumps(MULTI_V2), 0, 0),
            ("nodes-base.gone", "n8n-nodes-base", "1", json.dumps(MULTI_V1), 0, 0),
            ("nodes-base.acmeTool", "n8n-nodes-base", "2", packed(THEIRS), 1, 0),
            ("nodes-langchain.agent", "@n8n/n8n-nodes-langchain", "1", "[]", 0, 0),
            ("n8n-nodes-x.other", "n8n-nodes-base", "1", json.dumps(MULTI_V1), 0, 1),
        ])
    return path


def test_counts_follow_the_leaders_definition() -> None:
    # Top level: every descriptor (the notice and both `title`s included); nested: typed
    # collection options and group values, recursively; the group itself is not counted.
    assert leader_db.count(FIELDS) == (7, 6)
    paths = [p for p, _ in leader_db.param_paths(FIELDS)]
    assert ("headers", "values", "key") in paths
    assert ("additionalFields", "inner", "deep") in paths
    assert ("headers", "values") not in paths


def test_the_database_keeps_core_nodes_without_tool_variants(tmp_path: Path) -> None:
    nodes = leader_db.leader_nodes(make_db(tmp_path / "nodes.db"))
    assert sorted(nodes) == ["n8n-nodes-base.acme", "n8n-nodes-base.gone",
                             "n8n-nodes-base.multi"]
    assert nodes["n8n-nodes-base.acme"] == ("2", THEIRS)


def test_comparison_says_what_pygen_read_and_why_not_the_rest(tmp_path: Path) -> None:
    found = real_catalogs.tally("n8n", RECORDS)
    t = leader_db.compare(make_db(tmp_path / "nodes.db"), RECORDS, found.nodes)
    assert (t.leader["top"], t.leader["nested"]) == (8 + 2 + 1, 6)
    assert (t.ours["top"], t.ours["nested"]) == (7 + 2, 6)
    # acme: resource, title (v2), additionalFields, headers; multi: mode, limit (version 2).
    assert (t.read["top"], t.read["nested"]) == (6, 5)
    assert t.gap == {"notices (no value)": 1, "hidden in the latest version by @version": 3,
                     "not in the installed package (another release)": 1,
                     "node not read": 1, "other": 0}
    assert t.missing_nodes == ["n8n-nodes-base.gone"]
    assert t.other_versions == []


def test_printed_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = real_catalogs.tally("n8n", RECORDS)
    leader_db.print_comparison(None, RECORDS, found.nodes)
    assert "skipped" in capsys.readouterr().out
    leader_db.print_comparison(make_db(tmp_path / "nodes.db"), RECORDS, found.nodes)
    out = capsys.readouterr().out
    assert "3 nodes, 11 top-level + 6 nested = 17 parameters" in out
    assert "all parameters 11 of 17 (64.7%)" in out
    assert "@n8n/n8n-nodes-langchain (not installed here): 1 nodes, 0 top-level" in out
    bad = tmp_path / "other.db"
    sqlite3.connect(bad).execute("CREATE TABLE t (x)").connection.commit()
    leader_db.print_comparison(bad, RECORDS, found.nodes)
    assert "cannot read" in capsys.readouterr().out
