"""Loading tool schemas end to end: real Python servers, a real Node+Zod server, saved JSON."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

from pygen.errors import PygenError, ToolSchemaError
from pygen.extract.noderuntime import find_node
from pygen.model import ToolSchema
from pygen.skills.render_tools import render_mcp_call
from pygen.tools import load_tool_schemas
from pygen.tools.stdio_source import SHUTDOWN_GRACE

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mcp"
PYTHON = shlex.quote(sys.executable)


@pytest.fixture(scope="module")
def node() -> str:
    try:
        return shlex.quote(str(find_node()))
    except PygenError as exc:
        pytest.skip(str(exc))


def load(*sources: str, timeout: float = 20, root: Path = FIXTURES) -> dict[str, ToolSchema]:
    return {tool.name: tool for tool in load_tool_schemas(list(sources), root, timeout)}


def fails(*sources: str, timeout: float = 20, root: Path = FIXTURES) -> str:
    with pytest.raises(ToolSchemaError) as info:
        load_tool_schemas(list(sources), root, timeout)
    message = str(info.value)
    assert "\n" not in message
    return message


# --- json ----------------------------------------------------------------------------------

def test_json_tools_list_result() -> None:
    tools = load_tool_schemas(["json:tools.json"], FIXTURES, 5)
    assert [t.name for t in tools] == ["caption_image", "ping"]
    caption = tools[0]
    assert caption.source == "json:tools.json"
    assert caption.description.startswith("Write a caption")
    assert caption.input_schema["required"] == ["image_url"]
    assert caption.output_schema is None


def test_json_bare_list(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text('[{"name": "b"}, {"name": "a", "outputSchema": {}}]')
    tools = load_tool_schemas(["json:t.json"], tmp_path, 5)
    assert [(t.name, t.input_schema, t.output_schema) for t in tools] == [
        ("a", {}, {}), ("b", {}, None)]


def test_json_syntax_error_names_file_line_and_column() -> None:
    assert fails("json:broken.json") == (
        f"{FIXTURES}/broken.json:3:19: invalid JSON: Expecting ',' delimiter")


@pytest.mark.parametrize(("content", "expected"), [
    ('{"result": {}}', 'expected a tools/list result, {"tools": [...]}, or a list of tools'),
    ('[{"description": "x"}]', "json:t.json: tool #1 has no name"),
    ('[{"name": "x", "inputSchema": []}]', "json:t.json: tool 'x': inputSchema is not an object"),
    ('[{"name": "x", "outputSchema": 1}]', "json:t.json: tool 'x': outputSchema is not an object"),
])
def test_json_wrong_shape(tmp_path: Path, content: str, expected: str) -> None:
    (tmp_path / "t.json").write_text(content)
    assert fails("json:t.json", root=tmp_path).endswith(expected)


def test_json_missing_file(tmp_path: Path) -> None:
    assert fails("json:nope.json", root=tmp_path) == (
        f"{tmp_path}/nope.json: cannot read (json:nope.json): No such file or directory")


# --- python --------------------------------------------------------------------------------

@pytest.mark.parametrize("attr", ["mcp", "build"])
def test_python_mcpserver_object_or_factory(attr: str) -> None:
    (thumbnail,) = load_tool_schemas([f"python:py_server:{attr}"], FIXTURES, 20)
    assert thumbnail.name == "make_thumbnail"
    assert thumbnail.source == f"python:py_server:{attr}"
    assert thumbnail.input_schema["properties"]["fit"] == {
        "default": "cover", "enum": ["cover", "contain"], "title": "Fit", "type": "string"}
    assert thumbnail.output_schema is not None
    assert thumbnail.output_schema["required"] == ["job_id", "status"]


def test_python_lowlevel_server_is_paged_in_process() -> None:
    assert list(load("python:lowlevel_server:server")) == [f"tool_{i}" for i in range(5)]


@pytest.mark.parametrize(("source", "expected"), [
    ("python:py_server:not_a_server",
     "python:py_server:not_a_server: py_server:not_a_server is an int, not an MCP server "
     "(MCPServer or Server) or a function returning one"),
    ("python:py_server:missing",
     "python:py_server:missing: module py_server has no attribute 'missing'"),
    ("python:nowhere.server:mcp",
     f"python:nowhere.server:mcp: cannot import nowhere.server: no module named 'nowhere' "
     f"under {FIXTURES} (module paths are relative to the config's directory)"),
    ("python:py_server", "tools entry 'python:py_server': write python:<module>:<attr>, "
                         "e.g. python:app.server:mcp"),
])
def test_python_source_errors(source: str, expected: str) -> None:
    assert fails(source) == expected


def test_python_import_error_names_module_and_exception(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("import json\nraise RuntimeError('no database\\nat all')\n")
    assert fails("python:bad:server", root=tmp_path) == (
        "python:bad:server: cannot import bad: RuntimeError: no database at all")


def test_python_factory_that_raises(tmp_path: Path) -> None:
    (tmp_path / "fac.py").write_text("def make():\n    raise ValueError('no config')\n")
    assert fails("python:fac:make", root=tmp_path) == (
        "python:fac:make: fac:make() raised ValueError: no config")


def test_python_process_that_dies_reports_its_last_stderr_line(tmp_path: Path) -> None:
    (tmp_path / "die.py").write_text("import os, sys\nprint('fatal: gone', file=sys.stderr)\n"
                                     "sys.stderr.flush()\nos._exit(7)\n")
    assert fails("python:die:x", root=tmp_path) == (
        "python:die:x: capturing the tools failed (exit code 7): fatal: gone")


@pytest.mark.slow
def test_python_blocking_import_fails_within_the_timeout() -> None:
    started = time.monotonic()
    message = fails("python:blocking_import:server", timeout=2)
    elapsed = time.monotonic() - started
    assert message == (
        "python:blocking_import:server: importing blocking_import did not finish within 2s "
        "(tool_timeout); does it block at import time, e.g. connecting to a service?")
    assert 2 <= elapsed < 2.5


def test_python_capture_leaves_no_bytecode(tmp_path: Path) -> None:
    (tmp_path / "srv.py").write_text("from mcp.server.mcpserver import MCPServer\n"
                                     "mcp = MCPServer('s')\n")
    assert load("python:srv:mcp", root=tmp_path) == {}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["srv.py"]


# --- stdio ---------------------------------------------------------------------------------

def test_stdio_node_zod_server(node: str) -> None:
    tools = load(f"stdio:{node} zod_server.mjs")
    assert list(tools) == ["generate_video", "tag_asset", "upscale_image"]
    video = tools["generate_video"]
    rendered = render_mcp_call(video)
    assert rendered == """\
**MCP tool:** `generate_video` — Generate a short video clip from a prompt.

**Parameters:**

| Name | Type | Required | Default | Description |
| --- | --- | --- | --- | --- |
| `prompt` | `string` | required | — | What happens in the clip \\| be concrete |
| `provider` | `"kling" \\| "veo" \\| "runway"` | optional | `"veo"` | Video provider |
| `duration` | `integer` (1 to 10) | optional | `5` | Length in seconds |
| `references` | `{ url, weight? }[]` | optional | — | Reference images |
| `camera` | `{ move, speed? }` | optional | — | Camera motion |
| `seed` | `integer \\| null` | optional | — | |

**Returns** (structured content):

| Name | Type | Required | Description |
| --- | --- | --- | --- |
| `jobId` | `string` | required | Job to poll |
| `status` | `"queued" \\| "running" \\| "completed" \\| "failed"` | required | |
| `result` | `{ url, durationSeconds }` | optional | |"""
    assert render_mcp_call(tools["tag_asset"]).split("\n")[6:] == [
        "| `target` | `{ assetId } \\| { url }` | required | — | Which asset, by id or by URL |",
        "| `tags` | `Record<string, string>` | optional | `{}` | Key/value tags |",
    ]


def test_stdio_follows_next_cursor() -> None:
    assert list(load(f"stdio:{PYTHON} lowlevel_server.py")) == [f"tool_{i}" for i in range(5)]


@pytest.mark.slow
def test_stdio_silent_server_fails_within_the_timeout(node: str) -> None:
    started = time.monotonic()
    message = fails(f"stdio:{node} hanging_server.mjs", timeout=2)
    elapsed = time.monotonic() - started
    assert message == (f"stdio:{node} hanging_server.mjs: no answer to initialize within 2s "
                       "(tool_timeout); is it an MCP server speaking stdio?")
    assert 2 <= elapsed < 2.5


@pytest.mark.slow
def test_stdio_server_ignoring_eof_is_killed_within_the_timeout(node: str) -> None:
    # Stdin closes, a short grace passes, then the process tree is killed.
    started = time.monotonic()
    message = fails(f"stdio:{node} hanging_server.mjs --ignore-eof", timeout=2)
    elapsed = time.monotonic() - started
    assert message.endswith("no answer to initialize within 2s (tool_timeout); "
                            "is it an MCP server speaking stdio?")
    assert 2 <= elapsed < 2 + SHUTDOWN_GRACE + 0.5


@pytest.mark.parametrize(("source", "expected"), [
    ("stdio:no-such-server --x", "stdio:no-such-server --x: cannot start 'no-such-server': "
                                 "command not found"),
    ("stdio:'unclosed", "tools entry 'stdio:'unclosed': cannot split the command: "
                        "No closing quotation"),
    ("stdio:''", "tools entry 'stdio:''': empty command; write python:<module>:<attr>, "
                 "stdio:<command line> or json:<path>"),
])
def test_stdio_command_errors(source: str, expected: str) -> None:
    assert fails(source) == expected


def test_stdio_server_that_exits_reports_its_stderr() -> None:
    script = "import sys; print('boot failed: no token', file=sys.stderr); sys.exit(3)"
    source = f"stdio:{PYTHON} -c {shlex.quote(script)}"
    assert fails(source) == (
        f"{source}: the server closed the connection during initialize: boot failed: no token")


def test_stdio_server_that_writes_garbage_to_stdout() -> None:
    source = f"stdio:{PYTHON} -c {shlex.quote('print(chr(104) * 3)')}"
    assert fails(source) == (f"{source}: the server closed the connection during initialize; "
                             "it wrote 'hhh' to stdout, where only MCP messages may go")


def test_stdio_banner_before_the_protocol_is_tolerated() -> None:
    script = ("print('starting up', flush=True); import runpy; "
              "runpy.run_path('lowlevel_server.py', run_name='__main__')")
    assert len(load(f"stdio:{PYTHON} -c {shlex.quote(script)}")) == 5


# --- combining -----------------------------------------------------------------------------

def test_sources_combine_sorted_by_name(node: str) -> None:
    tools = load_tool_schemas(["json:tools.json", f"stdio:{node} zod_server.mjs",
                               "python:py_server:mcp"], FIXTURES, 20)
    assert [(t.name, t.source.split(":")[0]) for t in tools] == [
        ("caption_image", "json"), ("generate_video", "stdio"), ("make_thumbnail", "python"),
        ("ping", "json"), ("tag_asset", "stdio"), ("upscale_image", "stdio")]


def test_duplicate_tool_across_sources_names_both(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('[{"name": "ping"}]')
    (tmp_path / "b.json").write_text('{"tools": [{"name": "ping"}]}')
    assert fails("json:a.json", "json:b.json", root=tmp_path) == (
        "tool 'ping' is declared by both json:a.json and json:b.json; keep one")


def test_duplicate_tool_within_a_source(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('[{"name": "ping"}, {"name": "ping"}]')
    assert fails("json:a.json", root=tmp_path) == (
        "tool 'ping' is declared twice by json:a.json; keep one")


@pytest.mark.parametrize(("source", "expected"), [
    ("http://x", "tools entry 'http://x': unknown source kind; write python:<module>:<attr>, "
                 "stdio:<command line> or json:<path>"),
    ("tools.json", "tools entry 'tools.json': unknown source kind; write "
                   "python:<module>:<attr>, stdio:<command line> or json:<path>"),
    ("json: ", "tools entry 'json: ': nothing after 'json:'; write python:<module>:<attr>, "
               "stdio:<command line> or json:<path>"),
])
def test_unknown_or_empty_source(source: str, expected: str) -> None:
    assert fails(source) == expected


def test_no_sources_no_tools() -> None:
    assert load_tool_schemas([], FIXTURES, 1) == ()


# --- the example ---------------------------------------------------------------------------

STUDIO_SOURCE = "python:examples.studio.tools.studio_tools:build_server"


def test_studio_example_tools_render_generate_image() -> None:
    tools = load(STUDIO_SOURCE, root=REPO)
    assert {"generate_image", "image_to_video", "upscale_image"} <= set(tools)
    rendered = render_mcp_call(tools["generate_image"])
    assert rendered.split("\n\n")[0] == (
        "**MCP tool:** `generate_image` — Generate a still image from a text prompt. "
        "Returns the job; its url is the image.")
    rows = rendered.split("\n\n")[2].split("\n")
    assert rows[2:5] == [
        "| `prompt` | `string` (length ≥ 1) | required | — | What to draw. |",
        '| `provider` | `"flux" \\| "flux-pro" \\| "flux-kontext" \\| "nano-banana-pro" \\| '
        '"ideogram"` | optional | `"nano-banana-pro"` | Backend that renders the image. |',
        '| `model` | `string` | optional | `"gemini-2.5-flash-image"` '
        "| Provider-specific model id. |",
    ]
    assert '| `resolution` | `"1k" \\| "2k" \\| "4k" \\| null` | optional | `null` ' \
           "| Output resolution tier. |" in rows
    assert "**Returns** (structured content):" in rendered
