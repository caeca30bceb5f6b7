"""The one memo shape: sections read under the file's key, malformed entries left out, the
file written only when what a run kept differs from what it read, and only what it kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pygen.extract import cachefile
from pygen.extract.keyed_memo import MemoFile, Section


@pytest.fixture(autouse=True)
def fresh_run() -> Iterator[None]:
    cachefile.begin_run()
    yield
    cachefile.begin_run()


def _number(stored: Any) -> int | None:
    return stored if type(stored) is int else None


def test_entries_round_trip_and_only_kept_ones_are_written(tmp_path: Path) -> None:
    path = tmp_path / ".pygen-cache" / "m.json"
    first = MemoFile.open(path, "k")
    numbers = first.section("numbers", _number, dump=lambda n: n)
    assert numbers.read == {}
    numbers.kept.update({"b": 2, "a": 1})
    first.save(numbers)
    again = MemoFile.open(path, "k")
    assert again.section("numbers", _number).read == {"a": 1, "b": 2}
    assert MemoFile.open(path, "another key").section("numbers", _number).read == {}
    # A run that keeps one of the two writes one back: the memo never outgrows its inputs.
    kept = again.section("numbers", _number)
    kept.kept["a"] = 1
    again.save(kept)
    assert MemoFile.open(path, "k").section("numbers", _number).read == {"a": 1}


def test_a_run_that_kept_what_it_read_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / ".pygen-cache" / "m.json"
    cachefile.write_entry(path, {"key": "k", "numbers": {"a": 1}})
    before = path.stat().st_mtime_ns, path.read_bytes()
    memo = MemoFile.open(path, "k")
    numbers = memo.section("numbers", _number)
    numbers.kept.update(numbers.read)
    memo.save(numbers)
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before


def test_a_malformed_entry_is_left_out_and_one_changed_section_writes_all(
        tmp_path: Path) -> None:
    path = tmp_path / ".pygen-cache" / "m.json"
    cachefile.write_entry(path, {"key": "k", "numbers": {"a": 1, "b": "two", "c": True},
                                 "words": {"x": "y"}})
    memo = MemoFile.open(path, "k")
    numbers = memo.section("numbers", _number)
    words: Section[str] = memo.section("words", lambda s: s if isinstance(s, str) else None)
    assert numbers.read == {"a": 1}
    words.kept.update(words.read)
    numbers.kept["d"] = 4
    memo.save(numbers, words)
    again = MemoFile.open(path, "k")
    assert again.section("numbers", _number).read == {"d": 4}
    assert again.section("words", lambda s: s).read == {"x": "y"}


def test_a_memo_without_a_file_remembers_nothing(tmp_path: Path) -> None:
    memo = MemoFile(None)
    numbers = memo.section("numbers", _number)
    numbers.kept["a"] = 1
    memo.save(numbers)
    assert list(tmp_path.iterdir()) == []
