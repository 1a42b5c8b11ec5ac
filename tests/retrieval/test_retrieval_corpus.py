"""The corpus: both source documents as Markdown, wording untouched, structure restored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.knowledge.front_matter import parse_front_matter
from assistant.retrieval.corpus import guess_language, load_corpus, load_document

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
# The source documents exactly as received, kept beside the test so it never depends on another folder.
SOURCES = Path(__file__).resolve().parent / "originals"
FILES = {
    "obtenir-un-gpu.md": "000_6b3728bf6a0ed216.txt",
    "choisir-un-gpu-ia-generative.md": "004_69057a231d026f76.txt",
}
_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.replace("’", "'"))


def _markdown_words(md: str) -> list[str]:
    """Words of the Markdown body, with the fences' language tags (```python) taken out."""
    _, body_start = parse_front_matter(md)
    return _words(re.sub(r"^```\w*$", "", md[body_start:], flags=re.M))


@pytest.mark.parametrize("name", sorted(FILES))
def test_markdown_keeps_every_word_of_the_source_in_order(name: str) -> None:
    source = SOURCES / FILES[name]
    md = (CORPUS / name).read_text(encoding="utf-8")
    original = _words(source.read_text(encoding="utf-8"))
    assert _markdown_words(md) == original


def test_markdown_words_match_exactly_without_sources() -> None:
    """Even without ../shared, the body has the expected size and no stray markup words."""
    md = (CORPUS / "obtenir-un-gpu.md").read_text(encoding="utf-8")
    words = _markdown_words(md)
    assert words[:4] == ["1", "Obtenir", "un", "GPU"]
    assert words[-5:] == ["Mettre", "en", "place", "l", "environnement"]
    assert len(words) == 1575


def test_front_matter_and_structure() -> None:
    docs = {d.doc_id: d for d in load_corpus(CORPUS) if d.kind != "knowledge"}
    assert set(docs) == {Path(n).stem for n in FILES}
    first = docs["obtenir-un-gpu"]
    assert (first.title, first.language, first.source, first.date) == (
        "1 · Obtenir un GPU",
        "fr",
        "000_6b3728bf6a0ed216.txt",
        "2026",
    )
    second = docs["choisir-un-gpu-ia-generative"]
    assert second.language == "fr" and second.source == "004_69057a231d026f76.txt"
    body = first.body
    assert "## 1.3 La location à l'heure\n" in body
    assert (
        "### Une instance spot à 0,80 $/h contre une instance dédiée à 2,50 $/h. Laquelle ?\n"
        in body
    )
    assert "| H100 | 2,00 – 5,00 $ |" in body
    assert (
        "| RTX 3090 | 24 GB | Ampère | 142 TFLOPS | 350 W | ~0.21 $/h (Novita AI) |" in second.body
    )
    assert "¶" not in body


def test_front_matter_parser() -> None:
    meta, start = parse_front_matter('---\ntitle: "A: b"\nlanguage: en\n---\n\nBody')
    assert meta == {"title": "A: b", "language": "en"}
    assert start == len('---\ntitle: "A: b"\nlanguage: en\n---\n\n')
    assert parse_front_matter("no front matter") == ({}, 0)


def test_plain_text_file_without_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(
        "Renting GPUs\n\nThe cheapest way to rent a GPU is a marketplace.\n", encoding="utf-8"
    )
    doc = load_document(path)
    assert (doc.doc_id, doc.title, doc.language, doc.source) == (
        "notes",
        "Renting GPUs",
        "en",
        "notes.txt",
    )
    assert guess_language("La location d'un GPU est la meilleure option pour les tests") == "fr"


def _minimal_pdf(text: str) -> bytes:
    """A one-page PDF whose content stream draws `text` in Helvetica."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def test_pdf_documents_are_read(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    (tmp_path / "guide.pdf").write_bytes(
        _minimal_pdf("The spot instances of a cloud can be interrupted at any time.")
    )
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    docs = load_corpus(tmp_path)
    assert [d.doc_id for d in docs] == ["guide"]
    assert "The spot instances of a cloud can be interrupted at any time." in docs[0].text
    assert docs[0].language == "en"


def test_packaged_corpus_is_the_same_as_the_checkout() -> None:
    """Installed without the checkout, settings fall back to assistant/corpus_data."""
    import assistant

    packaged = Path(assistant.__file__).resolve().parent / "corpus_data"
    names = sorted(p.name for p in packaged.iterdir() if p.suffix == ".md")
    assert names == sorted(FILES)
    for name in names:
        assert (packaged / name).read_bytes() == (CORPUS / name).read_bytes()
