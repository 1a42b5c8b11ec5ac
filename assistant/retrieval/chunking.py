"""Split documents into chunks that follow the headings.

A chunk never crosses a heading, never splits a table, a list or a code block, and never splits a
section whose heading is a question (a quiz question and its worked answer stay together). Long
sections are packed block by block up to a token budget sized for the embedding model.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from assistant.retrieval.corpus import Document
from assistant.retrieval.glossary import glossary_version

# all-MiniLM-L6-v2 reads 256 word pieces; leave room for the section path put in front.
DEFAULT_MAX_TOKENS = 200
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^(```|~~~)")
_TOKEN = re.compile(r"\w+|[^\w\s]")
INTRO_SECTION = "Introduction"


def estimate_tokens(text: str) -> int:
    """A model-free estimate of word pieces: one per word or sign, one more per 3 letters past 3.

    On this corpus it lands within -1 %..+29 % of MiniLM's own tokenizer (French words split more).
    """
    count = 0
    for tok in _TOKEN.findall(text):
        count += 1 + max(0, len(tok) - 3) // 3
    return count


@dataclass(frozen=True)
class Block:
    kind: str  # heading | paragraph | table | list | code | quote
    start: int
    end: int
    level: int = 0
    title: str = ""


@dataclass(frozen=True)
class Chunk:
    """A passage to index: where it comes from and the exact characters it covers."""

    chunk_id: str
    doc_id: str
    title: str
    language: str
    section_path: tuple[str, ...]
    start: int
    end: int
    text: str
    ordinal: int
    content_hash: str = field(default="")
    url: str = ""  # knowledge entries: the first source's address, shown with the citation
    entry_id: str = ""  # knowledge entries: the entry's id

    @property
    def section(self) -> str:
        """The section path as text (`A > B`), or the intro's name."""
        return " > ".join(self.section_path) if self.section_path else INTRO_SECTION

    @property
    def leaf_section(self) -> str:
        """The innermost heading of the passage, or the intro's name."""
        return self.section_path[-1] if self.section_path else INTRO_SECTION

    def embedding_text(self) -> str:
        """What the embedding model reads: where the passage sits, the passage, and the English
        glossary terms for what it talks about (so English questions meet French passages)."""
        from assistant.retrieval.glossary import expand

        context = " > ".join(p for p in (self.title, *self.section_path) if p)
        english = expand(f"{context}\n{self.text}").english
        tail = f"\n({', '.join(english)})" if english else ""
        return f"{context}\n{self.text}{tail}"


def _line_spans(text: str, start: int) -> list[tuple[int, int, str]]:
    spans = []
    pos = start
    for line in text[start:].split("\n"):
        spans.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return spans


def _kind(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith("|"):
        return "table"
    if stripped.startswith(">"):
        return "quote"
    if re.match(r"^([-*+]|\d+[.)])\s", stripped):
        return "list"
    return "paragraph"


def parse_blocks(doc: Document) -> list[Block]:
    """Headings, paragraphs, tables, lists, quotes and fenced code of the document's body."""
    blocks: list[Block] = []
    spans = _line_spans(doc.text, doc.body_start)
    i = 0
    while i < len(spans):
        start, end, line = spans[i]
        if not line.strip():
            i += 1
            continue
        if _FENCE.match(line.lstrip()):
            fence = line.lstrip()[:3]
            j = i + 1
            while j < len(spans) and not spans[j][2].lstrip().startswith(fence):
                j += 1
            j = min(j, len(spans) - 1)
            blocks.append(Block("code", start, spans[j][1]))
            i = j + 1
            continue
        heading = _HEADING.match(line)
        if heading:
            blocks.append(Block("heading", start, end, len(heading.group(1)), heading.group(2)))
            i += 1
            continue
        kind = _kind(line)
        j = i
        # A block runs until a blank line (lists and quotes: until the line kind changes too).
        while j + 1 < len(spans):
            nxt = spans[j + 1][2]
            if not nxt.strip() or _HEADING.match(nxt) or _FENCE.match(nxt.lstrip()):
                break
            if (
                kind in ("table", "list", "quote")
                and _kind(nxt) != kind
                and not nxt.startswith(" ")
            ):
                break
            j += 1
        blocks.append(Block(kind, start, spans[j][1]))
        i = j + 1
    return blocks


def _hash(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


def _is_whole_section(path: tuple[str, ...]) -> bool:
    """Quiz questions (headings that ask something) keep their answer in one chunk."""
    return bool(path) and path[-1].rstrip().endswith("?")


def chunk_knowledge(doc: Document) -> list[Chunk]:
    """A knowledge topic file: exactly one chunk per entry, from its question to its sources line
    (the sources are kept as the chunk's URL, not embedded)."""
    from assistant.knowledge.entries import parse_knowledge_text

    chunks = []
    for ordinal, span in enumerate(parse_knowledge_text(doc.text, doc.path.name)):
        entry = span.entry
        text = doc.text[span.start : span.end]
        content_hash = _hash(doc.title, entry.title, text, entry.url, glossary_version())
        chunks.append(
            Chunk(
                chunk_id=f"{doc.doc_id}:{entry.id}:{content_hash[:8]}",
                doc_id=doc.doc_id,
                title=doc.title,
                language=doc.language,
                section_path=(entry.title,),
                start=span.start,
                end=span.end,
                text=text,
                ordinal=ordinal,
                content_hash=content_hash,
                url=entry.url,
                entry_id=entry.id,
            )
        )
    return chunks


def chunk_document(doc: Document, max_tokens: int = DEFAULT_MAX_TOKENS) -> list[Chunk]:
    """The document's chunks, in reading order."""
    if doc.kind == "knowledge":
        return chunk_knowledge(doc)
    sections: list[tuple[tuple[str, ...], list[Block]]] = []
    stack: list[tuple[int, str]] = []
    current: list[Block] = []
    current_path: tuple[str, ...] = ()
    for block in parse_blocks(doc):
        if block.kind == "heading":
            sections.append((current_path, current))
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.title))
            current_path = tuple(title for _, title in stack)
            current = [block]
        else:
            current.append(block)
    sections.append((current_path, current))

    pieces: list[tuple[tuple[str, ...], int, int]] = []
    for path, blocks in sections:
        if not any(b.kind != "heading" for b in blocks):
            continue  # a heading with nothing under it before the next heading
        if _is_whole_section(path):
            pieces.append((path, blocks[0].start, blocks[-1].end))
            continue
        group: list[Block] = []
        for block in blocks:
            candidate = doc.text[(group or [block])[0].start : block.end]
            if group and estimate_tokens(candidate) > max_tokens and group[-1].kind != "heading":
                pieces.append((path, group[0].start, group[-1].end))
                group = []
            group.append(block)
        if group:
            pieces.append((path, group[0].start, group[-1].end))

    chunks: list[Chunk] = []
    seen: dict[str, int] = {}
    for ordinal, (path, start, end) in enumerate(pieces):
        text = doc.text[start:end]
        content_hash = _hash(doc.title, " > ".join(path), text, glossary_version())
        base = f"{doc.doc_id}:{content_hash[:12]}"
        seen[base] = seen.get(base, 0) + 1
        chunk_id = base if seen[base] == 1 else f"{base}-{seen[base]}"
        chunks.append(
            Chunk(
                chunk_id=chunk_id,
                doc_id=doc.doc_id,
                title=doc.title,
                language=doc.language,
                section_path=path,
                start=start,
                end=end,
                text=text,
                ordinal=ordinal,
                content_hash=content_hash,
            )
        )
    return chunks


def chunk_corpus(docs: list[Document], max_tokens: int = DEFAULT_MAX_TOKENS) -> list[Chunk]:
    """Every document cut into passages of at most `max_tokens`."""
    return [chunk for doc in docs for chunk in chunk_document(doc, max_tokens)]
