"""The `pygen serve` command's own decisions: which directory, and refusals before serving."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.commands.serve import resolve_skills_dir


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_skills_dir_flag_wins(tmp_path: Path) -> None:
    write(tmp_path / "pygen.toml", 'nodes_file = "n.ts"\nskills_dir = "from-config"\n')
    assert resolve_skills_dir(Path("x"), None, tmp_path) == Path("x").resolve()


def test_skills_dir_from_the_nearest_config(tmp_path: Path) -> None:
    write(tmp_path / "pygen.toml", 'nodes_file = "n.ts"\nskills_dir = "agent/skills"\n')
    (tmp_path / "sub").mkdir()
    assert resolve_skills_dir(None, None, tmp_path / "sub") == tmp_path / "agent" / "skills"


def test_skills_dir_from_an_explicit_config(tmp_path: Path) -> None:
    config = write(tmp_path / "conf" / "pygen.toml", 'nodes_file = "n.ts"\nskills_dir = "s"\n')
    assert resolve_skills_dir(None, config, tmp_path) == tmp_path / "conf" / "s"


def test_without_config_it_is_dot_skills(tmp_path: Path) -> None:
    assert resolve_skills_dir(None, None, tmp_path) == tmp_path / "skills"


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["serve", *args])
    return result.exit_code, result.output


def test_invalid_orchestrator_is_a_one_line_error(tmp_path: Path) -> None:
    skill = write(tmp_path / "film" / "SKILL.md", "---\nname: film-director\ndescription: x\n---\n")
    code, output = run(["--skills-dir", str(tmp_path)])
    assert code == 2
    assert output == (
        f"error: {skill}: name 'film-director' must equal its folder name 'film'\n"
    )


def test_watch_needs_an_existing_directory(tmp_path: Path) -> None:
    code, output = run(["--skills-dir", str(tmp_path / "none"), "--watch"])
    assert code == 2
    assert output == f"error: {tmp_path / 'none'}: --watch needs an existing skills directory\n"


def test_taken_port_is_refused_before_serving(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, output = run(["--skills-dir", str(tmp_path), "--http", "--port", str(port)])
    assert code == 2
    assert output == (
        f"error: 127.0.0.1:{port}: cannot listen (Address already in use); "
        "pick another with --port\n"
    )


@pytest.mark.parametrize("port", ["0", "65536"])
def test_port_must_be_in_range(tmp_path: Path, port: str) -> None:
    code, output = run(["--skills-dir", str(tmp_path), "--http", "--port", port])
    assert code == 2 and "--port" in output
