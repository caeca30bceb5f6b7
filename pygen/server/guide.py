"""The editor guide as a fresh agent reads it first: its compact form.

Every agent reads the guide once per task (its tool says "Call FIRST"), so what it repeats
costs every task. The compact form (the tool's default) leaves out, each by the guide's own
structure and never by its wording: the frontmatter and the block markers (the drift gate's
concern), the list of this server's own tools (the tool list the client read names each with
its description; the app's own tools, which the client may not see, stay, but for a node
type's own tool, which the catalog names on the type's line), and every long code
example after the first (the first shows the workflow shape; the later ones are named with
how to get them; a short one stays beside the text it shows). `detail="full"` is the guide as
written, and as the resource serves it.
"""

from __future__ import annotations

from pygen.skills.catalog_text import SERVED_HEADING, TOOL_MARK, TOOLS_BLOCK
from pygen.skills.markers import END, START
from pygen.skills.sections import without_empty_sections

FULL_GUIDE = 'start_workflow_editor(detail="full")'
FENCE = "```"
SHORT_EXAMPLE = 8  # lines: an example this short stays where it is, beside the text it shows


def compact_guide(text: str) -> str:
    """`text` (the guide as served in full) in its compact form."""
    lines = _without_frontmatter(text.splitlines())
    node_tools = {_code(line.split(TOOL_MARK, 1)[1]) for line in lines if TOOL_MARK in line}
    out: list[str] = []
    examples = 0
    index = 0
    in_tools = named = False
    while index < len(lines):
        line = lines[index]
        if in_tools and line.startswith("- `") and _code(line[2:]) in node_tools:
            named = True
            index += 1
            continue
        if in_tools and named and (not line.strip() or END.match(line)):
            # The list's end: the node types' tools it left out are said to be in the catalog.
            out.append("- each node type's own tool: on its line of the catalog below")
            named = False
        if line.startswith(FENCE):
            close = next((i for i in range(index + 1, len(lines))
                          if lines[i].startswith(FENCE)), len(lines) - 1)
            long = close - index - 1 > SHORT_EXAMPLE
            examples += 1
            out.extend([f"(This example: {FULL_GUIDE}.)"] if long and examples > 1
                       else lines[index:close + 1])
            index = close + 1
        elif line.strip() == SERVED_HEADING:
            # This server's tools: a list up to the first blank line.
            while index < len(lines) and lines[index].strip():
                index += 1
            index += 1
        elif (start := START.match(line)) or END.match(line):
            in_tools = start is not None and start.group(1) == TOOLS_BLOCK
            index += 1
        else:
            out.append(line)
            index += 1
    # A heading left over nothing (a tools section that listed only this server's) goes too.
    return without_empty_sections("\n".join(_single_blank_lines(out)).strip() + "\n")


def _code(text: str) -> str:
    """The name in the backticks `text` starts with ("" when it starts otherwise)."""
    return text[1:text.index("`", 1)] if text.startswith("`") and "`" in text[1:] else ""


def _without_frontmatter(lines: list[str]) -> list[str]:
    """The lines after the frontmatter: every leading `---` block (a file written by two
    generators carries two, one after the other)."""
    while True:
        start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
        if start == len(lines) or lines[start] != "---":
            return lines
        close = next((i for i in range(start + 1, len(lines)) if lines[i] == "---"), None)
        if close is None:
            return lines
        lines = lines[close + 1:]


def _single_blank_lines(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    return out
