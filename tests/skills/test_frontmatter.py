from __future__ import annotations

from pygen.skills import frontmatter


def test_update_sets_owned_keys_in_place_and_keeps_the_rest() -> None:
    text = "---\r\nnode_type: a\r\nowner: me # why\r\ngenerated_at: old\r\n---\r\nbody\r\n"
    stamp = {"generated_at": "2026-01-01T00:00:00Z", "generated_from": "abc"}
    out = frontmatter.update(text, stamp)
    assert out == ("---\r\nnode_type: a\r\nowner: me # why\r\ngenerated_at: 2026-01-01T00:00:00Z"
                   "\r\ngenerated_from: abc\r\n---\r\nbody\r\n")


def test_file_without_frontmatter_gets_one_and_a_blank_line() -> None:
    assert frontmatter.update("# T\n", {"k": "v"}) == "---\nk: v\n---\n\n# T\n"


def test_never_a_second_frontmatter_block() -> None:
    once = frontmatter.update("# T\n", {"k": "v"})
    twice = frontmatter.update(once, {"k": "w"})
    assert twice.count("---") == 2 and "k: w" in twice


def test_values_that_need_quotes_are_quoted_and_read_back() -> None:
    out = frontmatter.update("# T\n", {"description": "Use it: when #1"})
    assert 'description: "Use it: when #1"' in out
    assert frontmatter.read(out) == {"description": "Use it: when #1"}


def test_read_ignores_a_body_that_only_looks_like_frontmatter() -> None:
    assert frontmatter.read("# T\n---\nk: v\n---\n") == {}
