"""Chunks follow headings, know their offsets, and keep tables and quiz answers whole."""

from __future__ import annotations

import re
from pathlib import Path

from assistant.knowledge.entries import load_entries_from
from assistant.retrieval.chunking import (
    DEFAULT_MAX_TOKENS,
    chunk_corpus,
    chunk_document,
    estimate_tokens,
    parse_blocks,
)
from assistant.retrieval.corpus import load_corpus, load_document

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
GUIDE_CHUNKS = 44  # the two guide documents; knowledge entries add one chunk each


def _chunks():
    return chunk_corpus(load_corpus(CORPUS))


def test_offsets_point_at_the_exact_text() -> None:
    docs = {d.doc_id: d for d in load_corpus(CORPUS)}
    chunks = _chunks()
    assert sum(not c.entry_id for c in chunks) == GUIDE_CHUNKS
    assert sum(bool(c.entry_id) for c in chunks) == len(load_entries_from(CORPUS / "knowledge"))
    for chunk in chunks:
        assert docs[chunk.doc_id].text[chunk.start : chunk.end] == chunk.text
        assert chunk.start >= docs[chunk.doc_id].body_start


def test_ids_are_unique_and_stable() -> None:
    first = [c.chunk_id for c in _chunks()]
    assert len(set(first)) == len(first)
    assert first == [c.chunk_id for c in _chunks()]
    assert first[0].startswith("choisir-un-gpu-ia-generative:")


def test_a_chunk_never_crosses_a_heading() -> None:
    for chunk in _chunks():
        outside_code = re.sub(r"```.*?```", "", chunk.text, flags=re.S)
        headings = [line for line in outside_code.splitlines() if line.startswith("#")]
        assert len(headings) <= 1
        if headings:
            assert chunk.text.startswith(headings[0])
            assert headings[0].lstrip("#").strip() == chunk.section_path[-1]


def test_section_paths() -> None:
    sections = {c.section for c in _chunks()}
    assert (
        "1 · Obtenir un GPU > 1.3 La location à l'heure > Les ordres de grandeur de prix"
        in sections
    )
    assert (
        "1 · Obtenir un GPU > Vérifiez que vous avez compris > "
        "Votre RTX 4090 a 24 Go. Pouvez-vous travailler sur les megakernels ?" in sections
    )
    assert "Introduction" in sections  # the second document's text before its first heading
    # headings with nothing of their own ("1.2 Le gratuit", "1.4 L'achat") make no chunk
    assert "1 · Obtenir un GPU > 1.2 Le gratuit" not in sections


def test_tables_and_quiz_answers_stay_whole() -> None:
    docs = load_corpus(CORPUS)
    chunks = chunk_corpus(docs)
    for doc in docs:
        for block in parse_blocks(doc):
            if block.kind in ("table", "code", "list"):
                inside = [
                    c for c in chunks if c.doc_id == doc.doc_id and c.start <= block.start < c.end
                ]
                assert len(inside) == 1 and block.end <= inside[0].end, doc.text[
                    block.start : block.end
                ]
    quiz = [
        c for c in chunks if not c.entry_id and c.section_path and c.section_path[-1].endswith("?")
    ]
    assert len(quiz) == 3
    megakernels = next(c for c in quiz if "megakernels" in c.section_path[-1])
    assert "Partiellement, et avec des limites sérieuses." in megakernels.text
    assert megakernels.text.rstrip().endswith("mais pas reproduire les résultats Hopper.")


def test_chunks_fit_the_budget_unless_they_must_stay_whole() -> None:
    for chunk in _chunks():
        whole = chunk.leaf_section.endswith("?") or chunk.text.count("\n|") >= 2
        if not whole:
            assert estimate_tokens(chunk.text) <= DEFAULT_MAX_TOKENS + 60, chunk.section


def test_long_sections_are_split_at_block_boundaries(tmp_path: Path) -> None:
    paragraphs = "\n\n".join(f"Paragraphe {i} " + "mot " * 60 for i in range(6))
    (tmp_path / "long.md").write_text(f"---\ntitle: Long\n---\n\n## Partie\n\n{paragraphs}\n")
    doc = load_document(tmp_path / "long.md")
    chunks = chunk_document(doc, max_tokens=150)
    assert len(chunks) == 3
    assert all(c.section == "Partie" for c in chunks)
    assert chunks[0].text.startswith("## Partie\n\nParagraphe 0")
    assert chunks[1].text.startswith("Paragraphe 2")
    assert "Partie" in chunks[1].embedding_text().splitlines()[0]


def test_code_fences_hide_hash_lines(tmp_path: Path) -> None:
    (tmp_path / "code.md").write_text("# Titre\n\nTexte.\n\n```\n# pas un titre\nx = 1\n```\n")
    chunks = chunk_document(load_document(tmp_path / "code.md"))
    assert [c.section for c in chunks] == ["Titre"]
    assert "# pas un titre" in chunks[0].text
