"""What an agent reads to build a workflow from the Agent Skills package, beside the MCP route.

`python -m bench.package_flow [--skills DIR]`: writes the package `gen` would write for the
skills folder (default: this repo's) into a temporary folder and counts, for the five- and
twelve-node flows of bench.agent_flow, what an agent with no server reads: SKILL.md, the
minimal index it is told to read first, and the bundled script's output on the slipped
workflow, then again on the repaired one (the package has no autofix: the agent mends and
runs it again; the twelve-node flow has no repaired copy, so its second run reads the slipped
one again, which overcounts). The same flows over `pygen serve` (bench.agent_flow, at minimal
and standard) are measured in the same run, and the ratios are printed side by side.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import agent_flow
from pygen import layout
from pygen.skills.agent_skills import EDITOR, package_files

REPO = Path(__file__).resolve().parents[1]
Reads = list[tuple[str, int]]


def write_package(skills: Path, into: Path) -> Path:
    """The package of `skills` as gen writes it (from the folder's current texts)."""
    texts = {p: p.read_text(encoding="utf-8") for p in skills.rglob("*")
             if p.is_file() and p.suffix in (".md", ".json")}
    schema = json.loads(texts[layout.schema_file(skills)])
    for path, text in package_files(into, skills, texts, list(schema["$defs"]), schema).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return into / EDITOR


def _script_output(editor: Path, workflow: dict[str, Any]) -> str:
    done = subprocess.run([sys.executable, "-I", str(editor / "scripts" / "validate_workflow.py"),
                           "-"], input=json.dumps(workflow), capture_output=True, text=True,
                          check=False)
    return done.stdout + done.stderr


def package_reads(editor: Path, slipped: dict[str, Any], repaired: dict[str, Any]) -> Reads:
    """SKILL.md, references/index.md, then the script on the slipped and repaired workflows."""
    reads = [(name, len((editor / name).read_text(encoding="utf-8")))
             for name in ("SKILL.md", "references/index.md")]
    reads.append(("validate (slipped)", len(_script_output(editor, slipped))))
    reads.append(("validate (again)", len(_script_output(editor, repaired))))
    return reads


def _total(reads: Reads) -> int:
    return sum(chars for _, chars in reads)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.package_flow")
    parser.add_argument("--skills", type=Path, default=REPO / "skills")
    args = parser.parse_args()
    skills = args.skills.resolve()
    five_ok = agent_flow.editor_workflow(skills)
    flows = {"five-node": (agent_flow.broken_workflow(skills), five_ok),
             "twelve-node": (agent_flow.twelve_node_workflow(), None)}
    served = {detail: agent_flow.measure(REPO, skills, detail)
              for detail in ("minimal", "standard")}
    with tempfile.TemporaryDirectory() as tmp:
        editor = write_package(skills, Path(tmp))
        for i, (title, (slipped, repaired)) in enumerate(flows.items()):
            reads = package_reads(editor, slipped, repaired or slipped)
            print(f"{title} flow, package route")
            for name, chars in reads:
                print(f"  {name:24} {chars:7} chars ~{chars // 4:6} tokens")
            total = _total(reads)
            row = [f"  {'total':24} {total:7} chars ~{total // 4:6} tokens"]
            for detail, measured in served.items():
                mcp = _total(measured[0] if i == 0 else measured[2])
                row.append(f"MCP {detail} {mcp} ({total / mcp:.2f}x)")
            print(" | ".join(row))


if __name__ == "__main__":
    main()
