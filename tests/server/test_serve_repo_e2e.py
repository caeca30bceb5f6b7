"""`pygen serve` on this repo's committed skills, through the SDK's real stdio client: the
protocol tools plan every registry skill and validate its fixture result, and
validate_workflow_json checks the editor skill's own example workflow."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "protocol"
PYGEN = str(Path(sys.executable).parent / "pygen")


def editor_workflow() -> dict[str, Any]:
    text = (REPO / "skills" / "workflow-editor.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"nodes\".*?)\n```", text, re.DOTALL)
    assert block is not None
    loaded: dict[str, Any] = json.loads(block.group(1))
    return loaded


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        data: dict[str, Any] = result.structured_content
        return data.get("result", data) if set(data) == {"result"} else data
    loaded: dict[str, Any] = json.loads(result.content[0].text)
    return loaded


def test_protocol_and_validation_tools_over_stdio(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(REPO / "skills", skills)
    scenes = json.loads((FIXTURES / "scenes.json").read_text())
    skill_dirs = sorted(p for p in FIXTURES.iterdir() if (p / "request.json").is_file())
    assert len(skill_dirs) >= 8

    async def main() -> None:
        params = StdioServerParameters(command=PYGEN, args=["serve", "--skills-dir", str(skills)],
                                       env=dict(os.environ))
        with (tmp_path / "err.log").open("w") as err:
            async with stdio_client(params, errlog=err) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                assert {"plan_skill_call", "validate_skill_result",
                        "validate_workflow_json"} <= names
                for folder in skill_dirs:
                    request = json.loads((folder / "request.json").read_text())
                    result = json.loads((folder / "result.json").read_text())
                    planned = structured(await session.call_tool(
                        "plan_skill_call", {"request": request}))
                    assert planned["status"] == result["status"], folder.name
                    assert planned["skillName"] == folder.name
                    checked = structured(await session.call_tool("validate_skill_result", {
                        "result": result, "request": request, "scene_specs": scenes}))
                    assert checked["valid"] is True, (folder.name, checked)
                good = structured(await session.call_tool(
                    "validate_workflow_json", {"workflow": editor_workflow()}))
                assert good["valid"] is True, good
                broken = editor_workflow()
                broken["nodes"][1]["data"]["provider"] = "flx"
                bad = structured(await session.call_tool(
                    "validate_workflow_json", {"workflow": broken}))
                assert bad["valid"] is False
                assert any('"flx"' in f["message"] and f["path"] == "$.nodes[1].data.provider"
                           for f in bad["findings"]), bad

    anyio.run(main)
