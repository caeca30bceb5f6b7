"""`pygen serve` against hostile skills folders, through the real SDK stdio client.

No link inside skills_dir is followed for any tool or resource; a watch keeps the last good
skills on a broken file and follows a folder deleted and re-created or swapped by rename;
a hostile tool argument is one short error, never a traceback.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp_types import CallToolResult, TextResourceContents
from serve_helpers import stdio_session, text_of

REPO = Path(__file__).resolve().parents[2]
SECRET = "CI_TOKEN=s3cr3t-value"
FILM = "---\nname: film-director\ndescription: Directs a short trailer.\n---\n\n# Film\n"


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def make_skills(root: Path) -> Path:
    write(root / "workflow-editor.md", "# Editor\n")
    write(root / "nodes" / "loop.md", "# loop\n")
    write(root / "film-director" / "SKILL.md", FILM)
    shutil.copytree(REPO / "skills" / "protocol", root / "protocol")
    shutil.copytree(REPO / "skills" / "schemas", root / "schemas")
    return root


async def everything_served(client: ClientSession) -> str:
    """The text of every resource and every argument-free tool, concatenated."""
    texts = []
    for resource in (await client.list_resources()).resources:
        for content in (await client.read_resource(resource.uri)).contents:
            assert isinstance(content, TextResourceContents)
            texts.append(content.text)
    for tool in (await client.list_tools()).tools:
        if not tool.input_schema.get("required"):
            texts.append(text_of(await client.call_tool(tool.name, {})))
    return "\n".join(texts)


def plant_links(skills: Path, outside: Path) -> list[Path]:
    """A link where every kind of served file lives, each to a file holding SECRET."""
    write(outside / "secret.md", f"---\nname: film-director\ndescription: {SECRET}\n---\n")
    write(outside / "folder" / "SKILL.md", f"---\nname: leak\ndescription: {SECRET}\n---\n")
    write(outside / "registry.toml", f"# {SECRET}\n")
    write(outside / "schema.json", json.dumps({"$comment": SECRET}))
    links = {
        skills / "workflow-editor.md": outside / "secret.md",
        skills / "nodes" / "escape.md": outside / "secret.md",
        skills / "film-director" / "SKILL.md": outside / "secret.md",
        skills / "leak": outside / "folder",
        skills / "protocol" / "registry.toml": outside / "registry.toml",
        skills / "schemas" / "nodes.schema.json": outside / "schema.json",
    }
    for link, target in links.items():
        link.unlink(missing_ok=True)
        link.symlink_to(target)
    return list(links)


def test_serve_follows_no_link_for_any_tool_or_resource(tmp_path: Path) -> None:
    skills = make_skills(tmp_path / "skills")
    links = plant_links(skills, tmp_path / "outside")

    async def main() -> str:
        async with stdio_session(["--skills-dir", str(skills)], tmp_path / "err.log") as client:
            return await everything_served(client)

    served = anyio.run(main)
    assert SECRET not in served
    log = (tmp_path / "err.log").read_text("utf-8")
    assert SECRET not in log and "Traceback" not in log and "internal error" not in log
    for link in links:
        lines = [line for line in log.splitlines() if f"{link}: is a symbolic link" in line]
        assert len(lines) == 1, (link, log)


def test_a_missing_skills_dir_is_said_in_one_line(tmp_path: Path) -> None:
    async def main() -> None:
        async with stdio_session(["--skills-dir", str(tmp_path / "nonexistent")],
                           tmp_path / "err.log") as client:
            await client.list_tools()

    anyio.run(main)
    log = (tmp_path / "err.log").read_text("utf-8")
    assert f"{tmp_path / 'nonexistent'}: no such skills directory" in log


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 20) -> None:
    with anyio.fail_after(seconds):
        while not await check():
            await anyio.sleep(0.1)


async def node_text(client: ClientSession, node_type: str) -> str | None:
    result = await client.call_tool("get_node_skill", {"node_type": node_type})
    return None if result.is_error else text_of(result)


BROKEN = {
    "schemas/nodes.schema.json": [b"{\"$defs\": \"caf\xe9\"}", b"[" * 100_000 + b"]" * 100_000],
    "protocol/registry.toml": [b"# \xff\n", b"[[skills]\n",
                               b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n"],
    "workflow-editor.md": [b"# Editor \xff\n"],
    "film-director/SKILL.md": [b"---\nname: film-director\ndescription: \xff\n---\n"],
}


@pytest.mark.slow
def test_watch_keeps_the_last_good_skills_on_every_broken_file(tmp_path: Path) -> None:
    skills = make_skills(tmp_path / "skills")
    log = tmp_path / "err.log"

    async def main() -> None:
        async with stdio_session(["--skills-dir", str(skills), "--watch"], log) as client:
            await anyio.sleep(0.5)
            for name, bodies in BROKEN.items():
                good = (skills / name).read_bytes()
                for body in bodies:
                    marks = log.read_text("utf-8").count("reload")
                    write(skills / name, body)
                    await until(lambda m=marks: _more_reloads(log, m))  # type: ignore[misc]
                    assert await node_text(client, "loop") == "# loop\n"
                write(skills / name, good)
            write(skills / "nodes" / "loop.md", "# loop, edited\n")
            await until(lambda: _is(node_text(client, "loop"), "# loop, edited\n"))
            assert "start_film_director" in {t.name for t in (await client.list_tools()).tools}

    anyio.run(main)
    text = log.read_text("utf-8")
    assert "Traceback" not in text and "internal error" not in text and "ExceptionGroup" \
        not in text
    for name in BROKEN:
        assert f"{skills / name}" in text, name


async def _is(value: Awaitable[str | None], expected: str) -> bool:
    return await value == expected


async def _more_reloads(log: Path, before: int) -> bool:
    return log.read_text("utf-8").count("reload") > before


@pytest.mark.slow
def test_watch_follows_a_skills_dir_deleted_and_re_created_or_swapped(tmp_path: Path) -> None:
    skills = make_skills(tmp_path / "skills")

    async def main() -> None:
        async with stdio_session(["--skills-dir", str(skills), "--watch"],
                           tmp_path / "err.log") as client:
            await anyio.sleep(0.5)
            shutil.rmtree(skills)
            await anyio.sleep(0.5)
            make_skills(skills)
            write(skills / "nodes" / "note.md", "# note\n")
            await until(lambda: _is(node_text(client, "note"), "# note\n"))

            swap = make_skills(tmp_path / "skills.new")
            write(swap / "nodes" / "swapped.md", "# swapped\n")
            skills.rename(tmp_path / "skills.old")
            swap.rename(skills)
            await until(lambda: _is(node_text(client, "swapped"), "# swapped\n"))
            write(skills / "nodes" / "swapped.md", "# swapped, edited\n")
            await until(lambda: _is(node_text(client, "swapped"), "# swapped, edited\n"))

    anyio.run(main)


def test_a_deeply_nested_workflow_argument_is_one_short_error(tmp_path: Path) -> None:
    skills = make_skills(tmp_path / "skills")

    async def main() -> CallToolResult:
        async with stdio_session(["--skills-dir", str(skills)], tmp_path / "err.log") as client:
            return await client.call_tool("validate_workflow_json",
                                          {"workflow": "[" * 100_000 + "]" * 100_000})

    result = anyio.run(main)
    text = text_of(result)
    assert "nested deeper than 512" in text and len(text) < 2000, text[:500]
    log = (tmp_path / "err.log").read_text("utf-8")
    assert "Traceback" not in log and len(log) < 2000, log[:2000]


@pytest.mark.matrix
@pytest.mark.parametrize("body", ['{"nodes": [], "edges": [], "x": NaN}',
                                  '{"nodes": [], "nodes": [], "edges": []}'])
def test_a_workflow_argument_that_is_not_strict_json_is_an_error(tmp_path: Path,
                                                                  body: str) -> None:
    skills = make_skills(tmp_path / "skills")

    async def main() -> str:
        async with stdio_session(["--skills-dir", str(skills)], tmp_path / "err.log") as client:
            return text_of(await client.call_tool("validate_workflow_json", {"workflow": body}))

    message = json.loads(anyio.run(main))["findings"][0]["message"]
    assert message.startswith("workflow: invalid JSON at $")
    assert "NaN is not JSON" in message or 'duplicate key "nodes"' in message
