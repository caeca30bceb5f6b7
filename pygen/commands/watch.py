"""`pygen gen --watch`: regenerate whenever an input is saved, until Ctrl-C.

What is watched: the folders of every file the last successful extraction read (recorded in
the cache), the nodes file's folder, the tsconfig, the config file and the tool sources that
can be fingerprinted (pygen.tools.cache). Folders are watched flat; a file newly imported is
picked up because the file importing it changes first, and the watch set is recomputed
after every run. Writes under the skills folder and the cache never trigger a run.

An error in a run (the TypeScript does not parse, a block was edited by hand) is printed and
the watch goes on; the next save runs again.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pygen.commands.common import say
from pygen.config import Config
from pygen.errors import PygenError
from pygen.extract import cache
from pygen.tools import cache as tool_cache

# watchfiles groups the events of one save: it waits STEP_MS for more, at most DEBOUNCE_MS.
DEBOUNCE_MS = 1600
STEP_MS = 100
# How often the watcher wakes when nothing happens (to announce it is ready, and for Ctrl-C).
TICK_MS = 300
SUFFIXES = frozenset({".ts", ".tsx", ".mts", ".cts", ".json", ".toml", ".py"})


def watched_files(config: Config) -> set[Path]:
    files = set(cache.recorded_inputs(config))
    files.add(config.nodes_file)
    if config.tsconfig is not None:
        files.add(config.tsconfig)
    if config.source is not None:
        files.add(config.source.resolve())
    files.update(tool_cache.tool_inputs(config) or [])
    return {f.resolve() for f in files}


def folders(files: set[Path]) -> list[Path]:
    return sorted({f.parent for f in files if f.parent.is_dir()})


def relevant(config: Config, files: set[Path]) -> Callable[[Any, str], bool]:
    """An event filter: known inputs, and source-like files outside skills and the cache."""
    skipped = (config.skills_dir.resolve(), cache.cache_dir(config).resolve())

    def keep(_change: Any, raw: str) -> bool:
        path = Path(raw).resolve()
        if path in files:
            return True
        if any(path == s or s in path.parents for s in skipped) or path.name.startswith("."):
            return False
        return path.suffix in SUFFIXES

    return keep


def attempt(config: Config, once: Callable[[Config], int]) -> int:
    """One run; an error is printed, never raised, so the watch survives it."""
    try:
        code = once(config)
    except PygenError as exc:
        say(f"error: {exc}")
        code = exc.exit_code
    except Exception as exc:  # a bug must not end a long watch either
        say(f"internal error: {type(exc).__name__}: {exc} (rerun without --watch and "
             "--debug for the traceback)")
        code = 2
    sys.stdout.flush()
    return code


def reload(load: Callable[[], Config], current: Config) -> Config:
    try:
        return load()
    except PygenError as exc:
        say(f"error: {exc} (keeping the previous configuration)")
        return current


def watch_until_inputs_change(config: Config, load: Callable[[], Config],
                              once: Callable[[Config], int], debounce_ms: int,
                              stop_event: Any) -> Config | None:
    """Run on every save; return the new config when the set of inputs changed (the caller
    watches again), None when the watch ended (Ctrl-C or `stop_event`)."""
    import watchfiles

    files = watched_files(config)
    announced = False
    for changes in watchfiles.watch(
            *folders(files), watch_filter=relevant(config, files), recursive=False,
            debounce=debounce_ms, step=STEP_MS, stop_event=stop_event,
            raise_interrupt=False, yield_on_timeout=True, rust_timeout=TICK_MS):
        if not changes:
            # The first quiet tick means the watcher is live: only now say so.
            if not announced:
                say(f"watching {len(files)} files in {len(folders(files))} folders; "
                     "waiting for changes (Ctrl-C to stop)")
                announced = True
            continue
        names = sorted({Path(raw).name for _, raw in changes})
        say(f"{time.strftime('%H:%M:%S')} changed: {', '.join(names)}")
        config = reload(load, config)
        attempt(config, once)
        if watched_files(config) != files:
            return config
        say("waiting for changes (Ctrl-C to stop)")
    return None


def run(load: Callable[[], Config], once: Callable[[Config], int],
        debounce_ms: int = DEBOUNCE_MS, stop_event: Any = None) -> int:
    """Run once, then again on every save, until Ctrl-C (exit 0) or `stop_event` is set."""
    config = load()
    try:
        attempt(config, once)
        current: Config | None = config
        while current is not None:
            current = watch_until_inputs_change(current, load, once, debounce_ms, stop_event)
    except KeyboardInterrupt:
        pass
    return 0
