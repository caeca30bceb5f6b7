from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pygen.errors import MarkerError
from pygen.skills import markers

DOC = """# Title
prose before
<!-- AUTO-GEN:START a -->
old a
<!-- AUTO-GEN:END a -->
prose between
<!-- AUTO-GEN:START b -->
<!-- AUTO-GEN:END b -->
prose after
"""


def test_replaces_bodies_and_keeps_everything_else() -> None:
    out = markers.replace_blocks(DOC, {"a": "new a\nsecond", "b": "new b"}, "f.md")
    assert out == DOC.replace("old a\n", "new a\nsecond\n").replace(
        "START b -->\n", "START b -->\nnew b\n")


def test_blocks_not_named_are_untouched() -> None:
    assert markers.replace_blocks(DOC, {"b": "x"}, "f.md").count("old a") == 1


def test_crlf_file_keeps_crlf_everywhere() -> None:
    crlf = DOC.replace("\n", "\r\n")
    out = markers.replace_blocks(crlf, {"a": "one\ntwo"}, "f.md")
    assert out == crlf.replace("old a\r\n", "one\r\ntwo\r\n")
    assert "\n" not in out.replace("\r\n", "")


def test_missing_block_is_inserted_after_its_predecessor() -> None:
    out = markers.replace_blocks(DOC, {"a": "A", "a2": "inserted"}, "f.md", order=("a", "a2", "b"))
    assert out.index("<!-- AUTO-GEN:START a2 -->") > out.index("<!-- AUTO-GEN:END a -->")
    assert out.index("<!-- AUTO-GEN:START a2 -->") < out.index("prose between")


def test_markers_inside_a_code_fence_are_text() -> None:
    doc = "```\n<!-- AUTO-GEN:START a -->\n```\nx\n"
    assert markers.parse(doc, "f.md") == ()


@pytest.mark.parametrize(("text", "message"), [
    ("x\n<!-- AUTO-GEN:START a -->\nbody\n",
     "f.md:2: AUTO-GEN block 'a' is never closed; add <!-- AUTO-GEN:END a -->"),
    ("<!-- AUTO-GEN:START a -->\n<!-- AUTO-GEN:END a -->\n<!-- AUTO-GEN:START a -->\n"
     "<!-- AUTO-GEN:END a -->\n",
     "f.md:3: duplicate AUTO-GEN block 'a' (first at line 1); remove one of them"),
    ("<!-- AUTO-GEN:START a -->\n<!-- AUTO-GEN:START b -->\n",
     "f.md:2: AUTO-GEN:START inside block 'a' opened at line 1; blocks cannot nest"),
    ("text\n<!-- AUTO-GEN:END a -->\n",
     "f.md:2: AUTO-GEN:END a has no matching START; remove it or add the START marker"),
    ("<!-- AUTO-GEN:START a -->\n<!-- AUTO-GEN:END b -->\n",
     "f.md:2: AUTO-GEN:END b closes block 'a' opened at line 1; make the ids match"),
])
def test_marker_errors_name_file_and_line(text: str, message: str) -> None:
    with pytest.raises(MarkerError) as info:
        markers.parse(text, "f.md")
    assert str(info.value) == message


prose = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\r",
                              include_characters="\u2028\x0c\x85"),
                max_size=200).filter(lambda s: "AUTO-GEN" not in s and "```" not in s
                                     and "~~~" not in s)
newlines = st.sampled_from(["\n", "\r\n"])


def _compose(parts: list[str], bodies: list[str], newline: str) -> str:
    out = ""
    for index, part in enumerate(parts):
        out += part.replace("\n", newline)
        if not out.endswith(newline):
            out += newline
        if index < len(bodies):
            out += (f"<!-- AUTO-GEN:START b{index} -->{newline}"
                    + markers.format_body(bodies[index], newline)
                    + f"<!-- AUTO-GEN:END b{index} -->{newline}")
    return out


@given(st.lists(prose, min_size=1, max_size=4), st.lists(prose, max_size=3), newlines,
       st.lists(prose, min_size=3, max_size=3))
def test_prose_survives_and_regeneration_is_idempotent(
        parts: list[str], old: list[str], newline: str, new: list[str]) -> None:
    old = old[: len(parts) - 1] if len(parts) > 1 else []
    text = _compose(parts, old, newline)
    fresh = {f"b{i}": new[i % 3] for i in range(len(old))}
    once = markers.replace_blocks(text, fresh, "f.md")
    assert markers.replace_blocks(once, fresh, "f.md") == once
    assert once == _compose(parts, [fresh[f"b{i}"] for i in range(len(old))], newline)
