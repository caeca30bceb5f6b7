"""n8n's catalog as `pygen gen` writes it, and what serving and validating it cost, beside
another checkout's cost on the same files in the same run.

`python -m bench.big_catalog [--cache DIR] [--n8n-version V] [--out DIR] [--other REPO]
[--files N]`

Reads n8n-nodes-base (bench.real_catalogs: installed into the cache folder, its loader's
records kept there as JSON so a second run needs no Node), writes the skills folder `gen`
writes for it (node skills, the workflow editor, the schema document and its index) under
--out, then measures, as child processes whose CPU and peak memory the OS reports:

- `pygen serve` on stdio, from start to the answer of `tools/list` (initialize first);
- `pygen validate-workflow --schemas` on one saved workflow, and on --files of them in one
  call (a glob).

Each is run with this checkout's interpreter and, with --other, another checkout's (its
`.venv`), side by side with the ratio. An older pygen validates one file per call: its cost
for --files is that of one call times --files, said as such, not run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import real_catalogs
from pygen.model import Model
from pygen.skills import plan as planning
from pygen.skills.plan import FileUpdate, Stamp

REPO = Path(__file__).resolve().parents[1]
DEFAULT_VERSION = "2.41.2"


def records(cache: Path, version: str) -> list[dict[str, Any]]:
    kept = cache / f"n8n-{version}-records.json"
    if kept.is_file():
        loaded: list[dict[str, Any]] = json.loads(kept.read_text(encoding="utf-8"))
        return loaded
    root = real_catalogs.install_release(cache, version)
    found, _, _ = real_catalogs.run_loader("n8n", root)
    kept.write_text(json.dumps(found), encoding="utf-8")
    return found


def model_of(found: list[dict[str, Any]]) -> Model:
    tally = real_catalogs.tally("n8n", real_catalogs.named("n8n", found))
    return Model(nodes=tuple(tally.nodes), conventions=real_catalogs.SAVED["n8n"])


def write_skills(model: Model, skills: Path) -> list[FileUpdate]:
    """What `gen` writes for the model, by the planner's own functions (no config)."""
    stamp = Stamp("2026-01-01T00:00:00Z", lambda: "bench")
    where = planning.node_paths(skills, model)
    updates = planning.plan_nodes(model, where, {}, stamp, "n8n-nodes-base")
    updates.append(planning.plan_workflow_editor(model, skills, {}, stamp))
    schema, doc = planning.plan_schema_file(model, skills, {})
    updates += [schema, planning.plan_schema_index(skills, {}, schema, doc)]
    for update in updates:
        update.path.parent.mkdir(parents=True, exist_ok=True)
        update.path.write_text(update.new, encoding="utf-8")
    return updates


def timed(command: list[str], cwd: Path, stdin: bytes | None = None) -> tuple[float, float, int]:
    """(CPU seconds, peak MB, exit code) of one child process, as the OS counts them."""
    child = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE if stdin else None,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stdin and child.stdin:
        child.stdin.write(stdin)
        child.stdin.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, child.returncode


def serve_cost(python: str, skills: Path) -> tuple[float, float]:
    """`serve` from start to its `tools/list` answer (then stdin closes and it exits)."""
    child = subprocess.Popen([python, "-m", "pygen", "serve", "--skills-dir", str(skills)],
                             cwd=skills.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    assert child.stdin is not None and child.stdout is not None
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}
    for message in (hello, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}):
        child.stdin.write(json.dumps(message).encode() + b"\n")
        child.stdin.flush()
    listed = False
    for line in child.stdout:
        if json.loads(line).get("id") == 2:
            listed = True
            break
    # The answer is in: what the process cost until now is what its start cost.
    with open(f"/proc/{child.pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{child.pid}/status", encoding="ascii") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    child.stdin.close()
    child.wait()
    assert listed, "no tools/list answer"
    return cpu, peak / 1024


def workflows(folder: Path, count: int) -> list[Path]:
    cases = list(real_catalogs.broken_workflows().values())
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"workflow-{i:04d}.json"
        path.write_text(json.dumps(cases[i % len(cases)]), encoding="utf-8")
        paths.append(path)
    return paths


def measure(python: str, skills: Path, flows: list[Path], many: bool) -> dict[str, str]:
    schemas = skills / "schemas" / "nodes.schema.json"
    serve_cpu, serve_mb = serve_cost(python, skills)
    base = [python, "-m", "pygen", "validate-workflow", "--schemas", str(schemas)]
    one_cpu, one_mb, _ = timed([*base, str(flows[0])], skills.parent)
    out = {"serve → tools/list": f"{serve_cpu:.2f} s CPU, {serve_mb:.0f} MB",
           "validate-workflow, 1 file": f"{one_cpu:.2f} s CPU, {one_mb:.0f} MB"}
    if many:
        cpu, mb, _ = timed([*base, str(flows[0].parent / "*.json")], skills.parent)
        out[f"validate-workflow, {len(flows)} files"] = f"{cpu:.2f} s CPU, {mb:.0f} MB (one call)"
    else:
        out[f"validate-workflow, {len(flows)} files"] = (
            f"≈ {one_cpu * len(flows):.0f} s CPU ({len(flows)} calls of one file; not run)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.big_catalog")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pygen-bench")
    parser.add_argument("--n8n-version", default=DEFAULT_VERSION)
    parser.add_argument("--out", type=Path, help="where to write the skills (default: temp)")
    parser.add_argument("--other", type=Path, help="another checkout to measure beside this")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        return report(args.measure, args.other)
    started = time.process_time()
    model = model_of(records(args.cache, args.n8n_version))
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        out = args.out or Path(tmp)
        written = write_skills(model, out / "skills")
        size = sum(len(u.new.encode()) for u in written) / 1e6
        print(f"n8n-nodes-base {args.n8n_version}: {len(model.nodes)} schemas, {len(written)} "
              f"files ({size:.1f} MB) written in {time.process_time() - started:.1f} s CPU",
              flush=True)
        workflows(out / "workflows", args.files)
        # Measured from a fresh process: a child forked from this one (the model in memory)
        # would count this process's pages as its own peak.
        other = ["--other", str(args.other)] if args.other else []
        subprocess.run([sys.executable, "-m", "bench.big_catalog", "--measure", str(out),
                        *other], check=True, cwd=REPO)


def formats(skills: Path) -> None:
    """The stores the index was chosen among, on this document: what writing each costs,
    its size, and opening it and reading one entry (the start of serve and of a validation).
    """
    import hashlib
    import resource
    import sqlite3

    from pygen.schema.doc_index import DocumentIndex, index_text, lazy_entries

    path = skills / "schemas" / "nodes.schema.json"
    data = path.read_bytes()
    doc = json.loads(data)
    name = next(t for t in doc["$defs"] if t.endswith(".github"))
    with tempfile.TemporaryDirectory(prefix="pygen-bench-") as tmp:
        rows = []

        def cpu() -> float:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        start = cpu()
        db = Path(tmp) / "nodes.db"
        with sqlite3.connect(db) as con:
            con.execute("create table e (kind text, name text, body text, primary key (kind, "
                        "name))")
            con.executemany("insert into e values (?, ?, ?)", [
                (k, n, json.dumps(v)) for k in ("$defs", "x-handles") for n, v in doc[k].items()])
        write = cpu() - start
        start = cpu()
        with sqlite3.connect(db) as con:
            json.loads(con.execute("select body from e where kind = '$defs' and name = ?",
                                   (name,)).fetchone()[0])
        rows.append(("SQLite (one table)", write, db.stat().st_size, cpu() - start))
        start = cpu()
        folder = Path(tmp) / "nodes"
        folder.mkdir()
        for n, v in doc["$defs"].items():
            (folder / f"{hashlib.sha256(n.encode()).hexdigest()[:16]}.json").write_text(
                json.dumps({"schema": v, "handles": doc["x-handles"].get(n)}))
        write = cpu() - start
        size = sum(f.stat().st_size for f in folder.iterdir())
        start = cpu()
        json.loads((folder / f"{hashlib.sha256(name.encode()).hexdigest()[:16]}.json")
                   .read_bytes())
        rows.append((f"per-node JSON files ({len(doc['$defs'])})", write, size, cpu() - start))
        start = cpu()
        index = index_text(doc, data.decode("utf-8")).encode()
        write = cpu() - start
        assert index == path.with_name("nodes.index.json").read_bytes()
        start = cpu()
        source = DocumentIndex.open(path.read_bytes(), index)
        lazy_entries(source, source.defs)[name]
        rows.append(("offsets into the document (chosen)", write, len(index), cpu() - start))
    print("  stores (written from the parsed document; open + read one entry):")
    for what, write, size, read in rows:
        print(f"    {what:36} write {write:5.2f} s CPU, {size / 1e6:5.1f} MB on disk, "
              f"open + one entry {read * 1000:6.1f} ms CPU")


def report(out: Path, other_repo: Path | None) -> None:
    skills, flows = out / "skills", sorted((out / "workflows").glob("*.json"))
    rows = {"this": measure(sys.executable, skills, flows, True)}
    if other_repo:
        other = str(other_repo / ".venv" / "bin" / "python")
        rows["other"] = measure(other, skills, flows, multi_file(other, out))
    for what, mine in rows["this"].items():
        theirs = rows.get("other", {}).get(what)
        ratio = f"   ({ratio_of(theirs, mine)})" if theirs else ""
        print(f"  {what:30} this: {mine:42}" + (f" other: {theirs}{ratio}" if theirs else ""))
    formats(skills)  # last: the document it parses would count in every child's peak


def ratio_of(theirs: str, mine: str) -> str:
    def cpu(text: str) -> float:
        return float(text.lstrip("≈ ").split()[0])
    return f"{cpu(theirs) / max(cpu(mine), 1e-3):.1f}x less CPU"


def multi_file(python: str, cwd: Path) -> bool:
    """Whether that checkout's validate-workflow takes several files (run outside this
    checkout: `-m pygen` imports from the working directory first)."""
    done = subprocess.run([python, "-m", "pygen", "validate-workflow", "--help"],
                          capture_output=True, text=True, check=False, cwd=cwd)
    return "FILE..." in done.stdout


if __name__ == "__main__":
    main()
