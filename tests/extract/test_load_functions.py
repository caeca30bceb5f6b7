"""Load-step functions named in the config are kept only where the project's text backs them."""

from __future__ import annotations

from pathlib import Path

from pygen.extract.load_functions import read_functions
from pygen.load_renames import CodeRewrite
from pygen.load_step_config import HandleFunctionStep


def test_a_function_is_kept_only_where_its_text_backs_it(tmp_path: Path) -> None:
    (tmp_path / "m.ts").write_text(
        "interface S { load: (n: N[]) => void }\n"
        "export const store = {\n"
        "  load: (nodes: N[], edges: E[]): E[] => {\n"
        "    return edges.map((e) => nodes.some((n) => n.type === \"pic\") ? "
        "{ ...e, targetHandle: \"b\" } : e)\n"
        "  },\n"
        "  other(edges: E[]) { return edges.filter((e) => e.target !== \"pic\") },\n"
        "}\n")
    kept, notes = read_functions(tmp_path, {
        "m.ts:load": HandleFunctionStep(inputs=["pic", "vid"], outputs=["pic"]),
        "m.ts:other": HandleFunctionStep(inputs=["pic"]),
        "m.ts:gone": HandleFunctionStep(inputs=["pic"])})
    # load assigns targetHandle (not sourceHandle) and names "pic", not "vid"; other assigns
    # no handle; gone is not defined.
    assert kept == {"m.ts:load": CodeRewrite(inputs=("pic",))}
    assert [n.message.split(": ", 1)[1] for n in notes] == [
        "m.ts:load never names 'vid'; its inputs are still judged",
        "m.ts:load assigns no sourceHandle; its outputs are left out",
        "m.ts:other assigns no targetHandle; its inputs are left out",
        "no function 'gone' in m.ts; it is left out"]
