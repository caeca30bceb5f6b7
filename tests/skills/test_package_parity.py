"""The Agent Skills package's bundled script against the server on one planted set
(bench/package_parity.py): every plant changes one thing of the example's saved workflow."""

from __future__ import annotations

import pytest

from bench import package_parity

# The plants the server accepts (the editor fills what they leave out, or a warning only).
SERVER_VALID = {"clean", "nested-required", "required-emptied", "field-mapping-of-unwired-handle",
                "settings-missing", "unknown-field-warning-only"}


@pytest.fixture(scope="module")
def results() -> dict[str, tuple[package_parity.Verdict, package_parity.Verdict]]:
    return package_parity.measure()


def test_the_planted_set_holds_twenty_mistakes_the_server_catches(
        results: dict[str, tuple[package_parity.Verdict, package_parity.Verdict]]) -> None:
    assert {n for n, (server, _) in results.items() if server.valid} == SERVER_VALID
    assert len(results) - len(SERVER_VALID) >= 20


def test_the_bench_prints_the_parity(capsys: pytest.CaptureFixture[str]) -> None:
    assert package_parity.main([]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("parity: ") and f"of {len(package_parity.PLANTS)} (" in last


def test_the_bundled_script_gives_the_servers_verdict(
        results: dict[str, tuple[package_parity.Verdict, package_parity.Verdict]]) -> None:
    """Both read the same schema document: the same verdict, with an error of the same path
    and rule, on at least 95% of the plants (all of them today)."""
    differ = [n for n, (server, script) in results.items()
              if not package_parity.agree(server, script)]
    assert differ == []
    assert sum(s == b for s, b in results.values()) >= 0.95 * len(results)
