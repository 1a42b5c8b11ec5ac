"""The front matter of a Markdown file: a `---`-delimited block of `key: value` lines.

Read by the corpus loader (every document) and by the knowledge base (its topic files).
"""

from __future__ import annotations

import re

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)


def parse_front_matter(text: str) -> tuple[dict[str, str], int]:
    """Read a `---`-delimited block of `key: value` lines; return it and where the body starts."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, 0
    meta: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        meta[key.strip().lower()] = value
    body_start = match.end()
    while body_start < len(text) and text[body_start] == "\n":
        body_start += 1
    return meta, body_start
