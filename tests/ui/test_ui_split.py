"""Splitting answers for Discord: every chunk fits, nothing is lost, code blocks and tables
stay whole (property tests over generated Markdown, plus exact examples)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.ui.discord_text import split_message, split_pieces

FENCE_LINE = re.compile(r"^\s*`{3,16}(?!`)")
SEPARATOR = re.compile(r"^\|(\s*-{3,}\s*\|)+$")

words = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyz0123456789éà€$.,:;!?@#*_-", min_size=1, max_size=30
)
code_chars = "abcdefghijklmnopqrstuvwxyz0123456789 =()[]{}<>+-*/.,:;_#@"


@st.composite
def paragraph(draw) -> str:
    lines = draw(st.lists(st.lists(words, min_size=1, max_size=60), min_size=1, max_size=4))
    return "\n".join(" ".join(line) for line in lines)


@st.composite
def code_block(draw) -> str:
    lang = draw(st.sampled_from(["", "python", "bash", "json"]))
    body = draw(
        st.lists(
            st.text(alphabet=code_chars, max_size=150).map(lambda s: s.lstrip("|")),
            min_size=0,
            max_size=30,
        )
    )
    return "\n".join([f"```{lang}", *body, "```"])


@st.composite
def table(draw) -> str:
    cols = draw(st.integers(2, 3))
    cell = st.text(alphabet="abcdefxyz0123456789", min_size=1, max_size=6)
    header = "| " + " | ".join(draw(cell) for _ in range(cols)) + " |"
    sep = "|" + "|".join(["---"] * cols) + "|"
    rows = [
        "| " + " | ".join(draw(cell) for _ in range(cols)) + " |"
        for _ in range(draw(st.integers(1, 40)))
    ]
    return "\n".join([header, sep, *rows])


markdown = st.lists(st.one_of(paragraph(), code_block(), table()), min_size=1, max_size=8).map(
    "\n\n".join
)


def fence_count(chunk: str) -> int:
    return sum(1 for line in chunk.split("\n") if FENCE_LINE.match(line))


def code_spans(chunk: str) -> list[bool]:
    """For each line: is it inside a code block (fences included)?"""
    inside, flags = False, []
    for line in chunk.split("\n"):
        if FENCE_LINE.match(line):
            flags.append(True)
            inside = not inside
        else:
            flags.append(inside)
    return flags


@settings(max_examples=300, deadline=None)
@given(text=markdown, limit=st.integers(120, 2000))
def test_markdown_chunks_fit_keep_content_and_stay_whole(text: str, limit: int):
    pieces = split_pieces(text, limit)
    assert "".join(p.body for p in pieces) == text
    chunks = split_message(text, limit)
    assert chunks == [p.text for p in pieces if p.body.strip()]
    original_lines = set(text.split("\n"))
    for piece, chunk in zip(pieces, [p.text for p in pieces], strict=True):
        assert len(chunk) <= limit
        assert fence_count(chunk) % 2 == 0, chunk
        # what a chunk adds is a re-opened fence, a repeated table header or a closing fence
        for line in piece.head.splitlines():
            assert line in original_lines or FENCE_LINE.match(line)
        assert piece.tail.strip("\n") in ("", "```")
    for chunk in chunks:
        lines = chunk.split("\n")
        in_code = code_spans(chunk)
        i = 0
        while i < len(lines):  # every run of table rows starts with its header and separator
            if lines[i].startswith("|") and not in_code[i]:
                run = i
                while run < len(lines) and lines[run].startswith("|") and not in_code[run]:
                    run += 1
                assert run - i >= 2 and SEPARATOR.match(lines[i + 1]), chunk
                i = run
            else:
                i += 1


@settings(max_examples=300, deadline=None)
@given(text=st.text(min_size=0, max_size=6000), limit=st.integers(40, 2000))
def test_any_text_fits_and_nothing_is_lost(text: str, limit: int):
    pieces = split_pieces(text, limit)
    assert "".join(p.body for p in pieces) == text
    assert all(len(p.text) <= limit for p in pieces)
    assert all(chunk.strip() for chunk in split_message(text, limit))


def test_short_text_is_one_chunk_and_blank_text_none():
    assert split_message("**Partly** — yes.") == ["**Partly** — yes."]
    assert split_message("") == []
    assert split_message(" \n\n ") == []


def test_code_block_is_closed_and_reopened_with_its_language():
    code = "```python\n" + "\n".join(f"x{i} = {i}" for i in range(40)) + "\n```"
    chunks = split_message("Intro.\n\n" + code, limit=120)
    assert len(chunks) > 2
    assert chunks[0].startswith("Intro.\n\n```python\nx0 = 0\n")
    assert all(c.endswith("\n```") for c in chunks[:-1])
    assert all(c.startswith("```python\nx") for c in chunks[1:])
    assert chunks[-1].endswith("x39 = 39\n```")


def test_break_prefers_the_blank_line_before_a_table():
    table = "| GPU | VRAM |\n|---|---|\n" + "".join(f"| card{i} | {i} GB |\n" for i in range(6))
    text = "A" * 50 + "\n\n" + table
    chunks = split_message(text, limit=150)
    assert chunks == ["A" * 50 + "\n\n", table]


def test_long_table_repeats_its_header():
    rows = "".join(f"| card{i:02d} | {i} GB |\n" for i in range(30))
    chunks = split_message("| GPU | VRAM |\n|---|---|\n" + rows, limit=200)
    assert len(chunks) >= 3
    assert all(c.startswith("| GPU | VRAM |\n|---|---|\n| card") for c in chunks)


def test_too_small_limit_is_refused():
    with pytest.raises(ValueError):
        split_message("x", limit=10)
