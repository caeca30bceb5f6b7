"""`pygen serve` as a real subprocess, driven by the SDK's real stdio and HTTP clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import TextResourceContents
from serve_helpers import serve_http, stdio_session, text_of

FILM = "REQUIRED FIRST STEP for any cinematic video request. Directs a short trailer."
FILM_MD = f"---\nname: film-director\ndescription: {FILM}\n---\n\n# Film Director\n"
VALID = "generate-image, loop, text-prompt"

TRAVERSALS = [
    "../secret", "../../secret", "nodes/../secret", "../secret.md", "/etc/passwd",
    "escape", "loop.md", "loop\x00", "loop\x00.md", "..%2fsecret", "%2e%2e%2fsecret",
    "..\\secret", "nodes\\loop", "\uff0e\uff0e\uff0fsecret", "\uff4coop", "loop ",
]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write(root / "workflow-editor.md", "# Editor\n")
    for node_type in ("generate-image", "loop", "text-prompt"):
        write(root / "nodes" / f"{node_type}.md", f"# {node_type}\n")
    write(root / "film-director" / "SKILL.md", FILM_MD)
    write(tmp_path / "secret.md", "SECRET\n")
    (root / "nodes" / "escape.md").symlink_to(tmp_path / "secret.md")
    return root


def test_stdio_end_to_end(skills: Path, tmp_path: Path) -> None:
    async def main() -> None:
        async with stdio_session(["--skills-dir", str(skills)], tmp_path / "err.log") as s:
            tools = {t.name: t for t in (await s.list_tools()).tools}
            assert sorted(tools) == ["get_node_skill", "start_film_director",
                                     "start_workflow_editor"]
            assert all(t.annotations and t.annotations.read_only_hint for t in tools.values())
            assert "node_types" in tools["get_node_skill"].input_schema["properties"]

            resources = [str(r.uri) for r in (await s.list_resources()).resources]
            assert resources == ["skill://workflow-editor", "skill://nodes/generate-image",
                                 "skill://nodes/loop", "skill://nodes/text-prompt",
                                 "skill://film-director"]
            read = (await s.read_resource("skill://film-director")).contents[0]
            assert isinstance(read, TextResourceContents) and read.text == FILM_MD

            assert text_of(await s.call_tool("start_workflow_editor", {})) == "# Editor\n"
            assert text_of(await s.call_tool("start_film_director", {})) == FILM_MD
            for node_type in ("generate-image", "loop", "text-prompt"):
                result = await s.call_tool("get_node_skill", {"node_type": node_type})
                assert not result.is_error and text_of(result) == f"# {node_type}\n"

            # Another case of a loaded type is that type, with a note naming it.
            upper = text_of(await s.call_tool("get_node_skill", {"node_type": "LOOP"}))
            assert upper.startswith("Note: 'LOOP' is node type 'loop' written another way")
            for attempt in ["generate-video", *TRAVERSALS]:
                result = await s.call_tool("get_node_skill", {"node_type": attempt})
                assert result.is_error, attempt
                assert text_of(result).startswith(f"Unknown node_type '{attempt}'."), attempt
                assert text_of(result).endswith(f" Valid types: {VALID}"), attempt

    anyio.run(main)
    log = (tmp_path / "err.log").read_text(encoding="utf-8")
    assert f"{skills / 'nodes' / 'escape.md'}: is a symbolic link" in log
    assert (f"serving 3 node skills from {skills.resolve()} "
            "(orchestrators: start_film_director)") in log


def test_stdio_without_skills_dir_serves_the_fallback(tmp_path: Path) -> None:
    from pygen.server.fallback import fallback_text

    async def main() -> str:
        async with stdio_session(["--skills-dir", str(tmp_path / "none")],
                                 tmp_path / "err.log") as s:
            return text_of(await s.call_tool("start_workflow_editor", {"detail": "full"}))

    guide = anyio.run(main)
    assert guide.splitlines()[0] == fallback_text().splitlines()[0]
    assert "- `get_node_skill`" in guide and "- `plan_skill_call" not in guide
    assert "serving the packaged fallback copy" in (tmp_path / "err.log").read_text("utf-8")


def test_watch_reloads_changed_and_new_files(skills: Path, tmp_path: Path) -> None:
    async def poll(session: ClientSession, node_type: str, expected: str) -> None:
        with anyio.fail_after(15):
            while True:
                result = await session.call_tool("get_node_skill", {"node_type": node_type})
                if not result.is_error and text_of(result) == expected:
                    return
                await anyio.sleep(0.1)

    async def main() -> None:
        async with stdio_session(["--skills-dir", str(skills), "--watch"],
                                 tmp_path / "err.log") as s:
            await anyio.sleep(0.5)  # the watcher starts alongside the session
            write(skills / "nodes" / "loop.md", "# loop, edited\n")
            await poll(s, "loop", "# loop, edited\n")
            write(skills / "nodes" / "note.md", "# note\n")
            await poll(s, "note", "# note\n")
            unknown = await s.call_tool("get_node_skill", {"node_type": "nope"})
            assert ", note, " in text_of(unknown)

    anyio.run(main)
    assert f"reloaded skills from {skills.resolve()}" in (tmp_path / "err.log").read_text("utf-8")


@pytest.fixture
def http_server(skills: Path, tmp_path: Path) -> Iterator[str]:
    with serve_http(["--skills-dir", str(skills)], tmp_path / "http.log") as (url, _pid):
        yield url


def test_http_end_to_end(http_server: str) -> None:
    async def main() -> None:
        async with streamable_http_client(http_server) as (read, write_stream), \
                ClientSession(read, write_stream) as s:
            await s.initialize()
            assert sorted(t.name for t in (await s.list_tools()).tools) == [
                "get_node_skill", "start_film_director", "start_workflow_editor"]
            assert text_of(await s.call_tool("get_node_skill", {"node_type": "loop"})) == (
                "# loop\n")
            result = await s.call_tool("get_node_skill", {"node_type": "../secret"})
            assert result.is_error
            assert text_of(result) == f"Unknown node_type '../secret'. Valid types: {VALID}"

    anyio.run(main)
