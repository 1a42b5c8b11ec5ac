"""Discord-sized text: answers cut at 2000 characters without breaking code blocks or tables,
and citations as an embed (or a footnote when they are too long). Pure functions, no discord.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answer import Answer
from assistant.ui.render import source_count, sources_markdown

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096

_FENCE = re.compile(r"^\s*(`{3,16})(?!`)")  # longer runs are not treated as fences
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class Piece:
    """One chunk: `body` is a slice of the original text; `head` and `tail` are added to keep
    Markdown whole (a re-opened code fence, a repeated table header, a closing fence)."""

    head: str
    body: str
    tail: str

    @property
    def text(self) -> str:
        """The piece as sent: head, body and tail."""
        return self.head + self.body + self.tail


def _fence_of(line: str) -> str | None:
    match = _FENCE.match(line)
    return match.group(1) if match else None


def _reopen(fence: str) -> str:
    """The line that re-opens a code block: its fence and language, nothing longer."""
    marker = _fence_of(fence) or "```"
    info = fence.strip()[len(marker) :].split()
    return marker + (info[0][:20] if info else "") + "\n"


def _is_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def _table_header(lines: list[str], end: int) -> str:
    """The header and separator rows of the table that line `end - 1` belongs to, if any."""
    start = end
    while start > 0 and _is_row(lines[start - 1]):
        start -= 1
    if end - start >= 2 and _TABLE_SEPARATOR.match(lines[start + 1].rstrip("\n")):
        header = lines[start] + lines[start + 1]
        return header if header.endswith("\n") else header + "\n"
    return ""


def _cut_long_line(line: str, room: int) -> int:
    """Where to cut a line longer than `room`: the last space, else `room`, never leaving a
    remainder that starts with a backtick (it would read as a fence)."""
    cut = line.rfind(" ", room // 2, room)
    cut = cut + 1 if cut > 0 else room
    while cut > 1 and line[cut] == "`":
        cut -= 1
    return max(cut, 1)


def split_pieces(text: str, limit: int = MESSAGE_LIMIT) -> list[Piece]:
    """Cut `text` into pieces of at most `limit` characters; the bodies concatenate to `text`.

    Breaks fall between lines, preferably at a blank line, never inside a table row and, when
    the table fits, not inside the table. A code block that must be split is closed at the end
    of one piece and re-opened (with its language) at the start of the next.
    """
    if limit < 40:
        raise ValueError("limit must be at least 40 characters")
    lines = text.splitlines(keepends=True)
    pieces: list[Piece] = []
    fence_line: str | None = None  # the opening line of the code block we are in
    header = ""  # table header repeated at the top of this piece
    i = 0
    while i < len(lines):
        head = header + (_reopen(fence_line) if fence_line else "")
        if len(head) > limit // 2:
            head, header = (_reopen(fence_line) if fence_line else ""), ""
        room = limit - len(head)
        size, fence = 0, fence_line
        breaks: list[tuple[int, str | None, int]] = []  # (next line, fence state, size)
        j = i
        while j < len(lines):
            line = lines[j]
            marker = _fence_of(line)
            after = fence
            if marker and fence is None:
                after = line
            elif marker and fence is not None and marker.startswith(_fence_of(fence) or "```"):
                after = None
            closing = 0 if after is None else len(_fence_of(after) or "```") + 1
            if size + len(line) + closing > room:
                break
            size += len(line)
            fence = after
            j += 1
            breaks.append((j, fence, size))
        if not breaks:  # one line longer than the room left: cut inside it
            closing = 0 if fence_line is None else len(_fence_of(fence_line) or "```") + 1
            cut = _cut_long_line(lines[i], max(room - closing, 1))
            body, lines[i] = lines[i][:cut], lines[i][cut:]
            pieces.append(Piece(head, body, _closing(fence_line, body)))
            header = ""
            continue
        end, fence, _ = breaks[-1]
        if end < len(lines):
            end, fence = _best_break(lines, breaks)
        body = "".join(lines[i:end])
        pieces.append(Piece(head, body, _closing(fence, body)))
        inside_table = end < len(lines) and fence is None and _is_row(lines[end])
        header = _table_header(lines, end) if inside_table else ""
        fence_line = fence
        i = end
    return pieces


def _closing(fence: str | None, body: str) -> str:
    if fence is None:
        return ""
    marker = _fence_of(fence) or "```"
    return marker if body.endswith("\n") else "\n" + marker


def _best_break(
    lines: list[str], breaks: list[tuple[int, str | None, int]]
) -> tuple[int, str | None]:
    """Prefer a break outside tables, then in the second half of the piece, outside code,
    after a blank line."""
    full = breaks[-1][2]

    def score(item: tuple[int, str | None, int]) -> tuple[int, int, int, int]:
        """How good a break is: outside a table, in the second half, outside code, after a blank."""
        end, fence, size = item
        in_table = end < len(lines) and _is_row(lines[end]) and _is_row(lines[end - 1])
        blank = not lines[end - 1].strip()
        return (not in_table, size * 2 >= full, fence is None, int(blank))

    # never between a table's header row and its separator row
    candidates = [
        b for b in breaks if b[0] >= len(lines) or not _TABLE_SEPARATOR.match(lines[b[0]])
    ] or breaks
    best = max(candidates, key=lambda b: (score(b), b[2]))
    return best[0], best[1]


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` as Discord messages of at most `limit` characters; blank pieces are dropped."""
    return [p.text for p in split_pieces(text, limit) if p.body.strip()]


@dataclass(frozen=True)
class Reply:
    """One message to send: text, and optionally an embed (title, description, footer)."""

    content: str
    embed_title: str | None = None
    embed_description: str | None = None
    embed_footer: str | None = None


def answer_replies(answer: Answer, limit: int = MESSAGE_LIMIT, lead: str = "") -> list[Reply]:
    """An answer as Discord messages: the text in chunks, the sources in an embed on the last
    one, or as footnote messages when they do not fit an embed. `lead` is a line put first."""
    text = "\n\n".join([*(f"> {n}" for n in answer.notices), answer.text.strip()])
    if len(lead) > limit // 4:
        lead = lead[: limit // 4 - 1] + "…"
    chunks = split_message(text, limit - len(lead) - 1 if lead else limit) or ["…"]
    if lead:
        chunks[0] = f"{lead}\n{chunks[0]}"
    tools = ", ".join(dict.fromkeys(f"`{c.name}`" for c in answer.tool_calls))
    footer = f"backend: {answer.backend} · {answer.elapsed_ms / 1000:.1f} s"
    if tools:
        footer = f"tools: {tools.replace('`', '')} · {footer}"
    sources = sources_markdown(answer, snippets=False)
    replies = [Reply(chunk) for chunk in chunks]
    if not sources:
        last = replies[-1]
        replies[-1] = Reply(last.content, embed_footer=footer)
        return replies
    title = f"Sources ({source_count(answer, snippets=False)})"
    if len(sources) <= EMBED_DESCRIPTION_LIMIT:
        last = replies[-1]
        replies[-1] = Reply(last.content, title, sources, footer)
        return replies
    for chunk in split_message(f"**{title}**\n{sources}\n-# {footer}", limit):
        replies.append(Reply(chunk))
    return replies
