"""`pygen serve`: the skills over MCP, on stdio or streamable HTTP."""

from __future__ import annotations

import contextlib
import socket
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pygen.commands.common import say
from pygen.config import find_config, load_config
from pygen.errors import PygenError
from pygen.server.store import SkillStore, load_store

if TYPE_CHECKING:  # the MCP SDK loads when the server starts, not for every pygen command
    from mcp.server.mcpserver import MCPServer

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


class ServeError(PygenError):
    pass


@click.command("serve")
@click.option("--skills-dir", type=click.Path(path_type=Path),
              help="Directory to serve (default: skills_dir from the config, else ./skills).")
@click.option("--config", "config_path", type=click.Path(path_type=Path),
              help="Config file (default: nearest pygen.toml or pyproject.toml).")
@click.option("--http", is_flag=True, help=f"Serve streamable HTTP on {HOST} instead of stdio.")
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port for --http.")
@click.option("--watch", is_flag=True, help="Reload the skills when their files change.")
@click.option("--allow-origin", "origins", metavar="ORIGIN", multiple=True,
              help="With --http, also accept requests from this browser origin "
                   "(scheme://host:port; repeatable).")
def serve(skills_dir: Path | None, config_path: Path | None, http: bool, port: int,
          watch: bool, origins: tuple[str, ...]) -> int:
    """Serve the skills to agents over MCP (stdio unless --http)."""
    directory = resolve_skills_dir(skills_dir, config_path, Path.cwd())
    if watch and not directory.is_dir():
        raise ServeError(f"{directory}: --watch needs an existing skills directory")
    if http:
        check_port_free(port)
    import anyio

    # Ctrl-C is how a user stops a server; not an error worth a traceback.
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(partial(run, directory, http=http, port=port, watch=watch,
                          origins=origins))
    return 0


def resolve_skills_dir(override: Path | None, config_path: Path | None, cwd: Path) -> Path:
    """--skills-dir, else the config's skills_dir, else ./skills when there is no config."""
    if override is not None:
        return override.resolve()
    source = config_path or find_config(cwd)
    if source is None:
        return (cwd / "skills").resolve()
    return load_config(source, cwd=cwd).skills_dir


def check_port_free(port: int) -> None:
    """Refuse a taken port in one line; the HTTP server would exit with a traceback."""
    with socket.socket() as probe:
        # As uvicorn does, so a port lingering in TIME_WAIT is not refused.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError as exc:
            raise ServeError(f"{HOST}:{port}: cannot listen ({exc.strerror}); "
                             "pick another with --port") from None


def announce(store: SkillStore) -> None:
    from pygen import journal

    for line in store.skipped:
        say(f"warning: {line}")
    unfinished = journal.pending(store.root)
    if unfinished is not None:
        # A killed `gen` may have left old and new files side by side: say so, serve on.
        say(f"warning: {unfinished}: an interrupted `pygen gen` left a set of files half "
            "replaced; run `pygen gen` to finish or undo it")
    if store.fallback:
        say(f"warning: {store.root}/workflow-editor.md unreadable; "
            "serving the packaged fallback copy")
    names = ", ".join(s.tool_name for s in store.orchestrators) or "none"
    say(f"serving {len(store.nodes)} node skills from {store.root} (orchestrators: {names})")


def own_origins(port: int, extra: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """(Host headers, Origin headers) accepted: this server's own host and port only, so a
    page served from another local port cannot call the tools (DNS rebinding, CSRF)."""
    hosts = [f"{HOST}:{port}", f"localhost:{port}"]
    return hosts, [f"http://{host}" for host in hosts] + [o.rstrip("/") for o in extra]


async def run(skills_dir: Path, *, http: bool, port: int, watch: bool,
              origins: tuple[str, ...] = ()) -> None:
    import anyio

    from pygen.server.app import build_server, new_bus, watch_and_reload

    bus = new_bus()
    store = load_store(skills_dir)
    announce(store)
    live = build_server(store, bus=bus)

    def rebuild() -> MCPServer:
        fresh = load_store(skills_dir)
        server = build_server(fresh, bus=bus)
        announce(fresh)  # only for what is served: a failed reload says so itself
        return server

    # The watcher thread polls this event; cancelling it instead would wait out its timeout.
    stop = anyio.Event()
    async with anyio.create_task_group() as group:
        if watch:
            group.start_soon(partial(watch_and_reload, live, skills_dir, rebuild, say, bus=bus,
                                     stop_event=stop))
        try:
            if http:
                say(f"listening on http://{HOST}:{port}/mcp")
                from pygen.server.http import serve_http

                hosts, allowed = own_origins(port, origins)
                await serve_http(live, HOST, port, allowed_hosts=hosts, allowed_origins=allowed)
            else:
                await live.run_stdio_async()
        finally:
            stop.set()
