"""What an agent reads of n8n's catalog over `pygen serve`: the skills built from the real
n8n package (bench.real_catalogs), asked for as a workflow names the types.

`python -m bench.n8n_agent [--cache DIR] [--n8n-version V] [--out DIR]`: reads
`n8n-nodes-base` (installed into the bench cache as bench.real_catalogs does), writes the
skills `gen` would write for it into `--out` (default: a temporary folder), and prints the
characters of `get_node_skill` for Slack and HTTP Request at each detail, under the plain
type (`n8n-nodes-base.slack`), and of the error for a misspelt type, through the same
answers the server gives (pygen.server.node_tools.SkillAnswers).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench import real_catalogs
from pygen.config import load_config
from pygen.model import Model
from pygen.server.node_tools import SkillAnswers, load_node_catalog
from pygen.server.store import load_store
from pygen.skills.plan import _plan, apply

ASKED = ("n8n-nodes-base.slack", "n8n-nodes-base.httpRequest", "n8n-nodes-base.slak")
CONFIG = """nodes_file = "nodes.ts"
skills_dir = "skills"
[conventions]
node_data_key = "parameters"
node_version_key = "typeVersion"
position_pair = true
connections_key = "connections"
connection_node_key = "name"
"""


def build(root: Path, cache: Path, version: str | None) -> Path:
    """The n8n skills written under `root/skills`."""
    package = real_catalogs.install_release(cache, version) if version else \
        real_catalogs.install(cache, "n8n")
    records, _, _ = real_catalogs.run_loader("n8n", package)
    found = real_catalogs.tally("n8n", real_catalogs.named("n8n", records))
    (root / "pygen.toml").write_text(CONFIG, encoding="utf-8")
    (root / "nodes.ts").write_text("export const NODES = [];\n", encoding="utf-8")
    config = load_config(root / "pygen.toml")
    model = Model(nodes=tuple(found.nodes), conventions=real_catalogs.SAVED["n8n"])
    apply(_plan(config, model, None, None), root)
    return root / "skills"


def report(skills: Path) -> None:
    store = load_store(skills)
    nodes = load_node_catalog(skills / "schemas" / "nodes.schema.json", skills, store.nodes)
    answers = SkillAnswers(store.nodes, nodes)
    for name in ASKED:
        for detail in ("minimal", "standard", "full"):
            result = answers.result(name, None, detail)
            text = result.content[0].text  # type: ignore[union-attr]
            print(f"  {name:30} {detail:8} {len(text):7} chars"
                  f"{' (error)' if result.is_error else ''}: {text[:110]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.n8n_agent")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pygen-bench")
    parser.add_argument("--n8n-version")
    parser.add_argument("--out", type=Path, help="write the skills here and keep them")
    parser.add_argument("--skills", type=Path, help="skills built before: only report")
    args = parser.parse_args()
    if args.skills:
        report(args.skills)
        return
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        report(build(args.out.resolve(), args.cache, args.n8n_version))
        return
    with tempfile.TemporaryDirectory(prefix="pygen-n8n-") as tmp:
        report(build(Path(tmp), args.cache, args.n8n_version))


if __name__ == "__main__":
    main()
