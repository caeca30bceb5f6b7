"""The browser's libs (DOM, web worker, script host) are left out of a run that does not need
them, and nothing read changes.

A browser editor's tsconfig lists `dom` (or takes its target's default libs, which hold it):
2 MB of declarations its data types rarely name. When the catalog's own files (the nodes
file and the app files it imports) name one of their types, they are put back before
anything is read. Whatever else the catalog needs from them is read exactly, because the run
notices and reads again with every lib: a type named further away, a computed value typed
through a browser global, a global the app augments. A type of the app's own that shares a
DOM name (`Node` of a canvas library) does not need them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_run import cli_extract, extractor_reply

# lib.dom.d.ts alone is about 2 MB of text.
DOM_CHARS = 1_500_000

NODES = """{head}
/** What the card node edits. */
export interface CardData {{
  /** Title on the canvas. */
  title: string;
{fields}}}

export const NODE_DEFINITIONS = [
  {{
    type: "card",
    label: "Card",
    inputs: ["in"],
    outputs: ["out"],
    defaultData: {{ title: "Card"{defaults} }} as CardData,
  }},
];
"""


def project(root: Path, *, fields: str = "", head: str = "", defaults: str = "",
            lib: list[str] | None = None, files: dict[str, str] | None = None) -> None:
    options: dict[str, Any] = {"target": "ES2022", "module": "ESNext",
                               "moduleResolution": "bundler", "strict": True}
    if lib is not None:
        options["lib"] = lib
    (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": options}))
    (root / "pygen.toml").write_text('nodes_file = "nodes.ts"\nskills_dir = "skills"\n')
    (root / "nodes.ts").write_text(NODES.format(head=head, fields=fields, defaults=defaults))
    for rel, text in (files or {}).items():
        (root / rel).write_text(text)


# Two files away from the nodes file: only the check after the run sees what it names.
FAR = {"types.ts": 'export type { Attachment } from "./far";\n'}


def same_as_every(root: Path, *, needed: bool = False,
                  libs: str = "left out") -> tuple[dict[str, Any], dict[str, Any]]:
    """The reply as pygen runs the extractor and one with every lib: the same nodes, files
    read and diagnostics; `needed`: whether the run had to read again; `libs`: what became
    of the browser's libs in the run that answered."""
    reply = extractor_reply(root, every=False)
    every = extractor_reply(root, every=True)
    assert reply["program"]["every"] is needed
    assert reply["program"]["browser_libs"] == ("as configured" if needed else libs)
    for key in ("nodes", "workflow", "sources", "diagnostics"):
        assert reply[key] == every[key], key
    return reply, every


def fields_of(reply: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["type_text"] for f in reply["nodes"][0]["data_type"]["fields"]}


@pytest.mark.parametrize("lib", [["dom", "dom.iterable", "es2022"], None],
                         ids=["listed", "target-default"])
def test_browser_libs_are_left_out_when_nothing_names_them(
        tmp_path: Path, lib: list[str] | None) -> None:
    project(tmp_path, fields="  /** Items per page. */\n  size: number;\n", defaults=", size: 3",
            lib=lib)
    reply, every = same_as_every(tmp_path)
    assert every["program"]["chars"] - reply["program"]["chars"] > DOM_CHARS
    assert fields_of(reply) == {"title": "string", "size": "number"}


def test_a_browser_type_the_nodes_file_names_puts_them_back_before_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, fields="  /** The picked file. */\n  upload?: File;\n", lib=["dom", "es2022"])
    reply, every = same_as_every(tmp_path, libs="put back")
    assert reply["program"]["chars"] == every["program"]["chars"]
    assert fields_of(reply)["upload"] == "File"
    doc = cli_extract(tmp_path, monkeypatch)
    assert not [d for d in doc["diagnostics"] if d["kind"] == "unresolved-type"]


def test_a_browser_type_named_further_away_reads_again_with_them(tmp_path: Path) -> None:
    far = "/** A picked file. */\nexport type Attachment = File | null;\n"
    project(tmp_path, head='import type { Attachment } from "./types";\n',
            fields="  upload: Attachment;\n", lib=["dom", "es2022"], files={**FAR, "far.ts": far})
    reply, _ = same_as_every(tmp_path, needed=True)
    assert fields_of(reply)["upload"] == "Attachment"


def test_a_value_computed_from_a_browser_global_reads_again_with_them(tmp_path: Path) -> None:
    project(tmp_path, fields="  width: number;\n", defaults=", width: window.innerWidth",
            lib=["dom", "es2022"])
    reply, _ = same_as_every(tmp_path, needed=True)
    computed = reply["nodes"][0]["computed"]
    assert [c["type_text"] for c in computed] == ["number"]


def test_a_global_the_app_augments_reads_again_with_them(tmp_path: Path) -> None:
    far = ("declare global {\n  interface Blob {\n    /** Set by the editor. */\n"
           "    cardId: string;\n  }\n}\nexport type Attachment = Blob;\n")
    project(tmp_path, head='import type { Attachment } from "./types";\n',
            fields="  attachment?: Attachment;\n", lib=["dom", "es2022"],
            files={**FAR, "far.ts": far})
    reply, _ = same_as_every(tmp_path, needed=True)
    members = reply["nodes"][0]["data_type"]["fields"][1]["type"]["fields"]
    assert {"cardId", "size", "slice"} <= {m["name"] for m in members}


def test_an_own_type_with_a_browser_name_does_not_need_them(tmp_path: Path) -> None:
    graph = "/** A node of the graph. */\nexport interface Node {\n  id: string;\n}\n"
    project(tmp_path, head='import type { Node } from "./graph";\n',
            fields="  parent?: Node;\n", lib=["dom", "es2022"], files={"graph.ts": graph})
    reply, _ = same_as_every(tmp_path)
    assert fields_of(reply)["parent"] == "Node"


def test_a_file_that_references_the_dom_lib_keeps_it(tmp_path: Path) -> None:
    # Left out of the options, loaded by the directive: the run needs nothing more.
    head = '/// <reference lib="dom" />\nimport type { Attachment } from "./types";\n'
    project(tmp_path, head=head, fields="  upload: Attachment;\n", lib=["dom", "es2022"],
            files={**FAR, "far.ts": "export type Attachment = File | null;\n"})
    reply, every = same_as_every(tmp_path)
    assert reply["program"]["chars"] == every["program"]["chars"]
    assert fields_of(reply)["upload"] == "Attachment"


def test_a_property_keyed_by_a_symbol_is_named_alike_in_a_run_read_again(tmp_path: Path) -> None:
    # Inside the checker such a property is `__@iterator@<n>`, n counted over the process: a
    # run read again after a first one named it otherwise than a fresh run.
    field = ("  upload: Attachment;\n"
             "  list: { [Symbol.iterator](): Iterator<string>; size: number };\n")
    project(tmp_path, head='import type { Attachment } from "./types";\n', fields=field,
            lib=["dom", "es2022"],
            files={**FAR, "far.ts": "export type Attachment = File | null;\n"})
    reply, _ = same_as_every(tmp_path, needed=True)
    members = reply["nodes"][0]["data_type"]["fields"][2]["type"]["fields"]
    assert sorted(m["name"] for m in members) == ["[Symbol.iterator]", "size"]
