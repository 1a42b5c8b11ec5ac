"""Load the source documents: Markdown or text with a small front matter block, or PDF."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from assistant.knowledge.entries import knowledge_files
from assistant.knowledge.front_matter import parse_front_matter
from assistant.log import get_logger

log = get_logger(__name__)

TEXT_SUFFIXES = (".md", ".markdown", ".txt")
PDF_SUFFIXES = (".pdf",)
SUFFIXES = TEXT_SUFFIXES + PDF_SUFFIXES

_FR_HINTS = frozenset(
    [
        "le",
        "la",
        "les",
        "des",
        "du",
        "un",
        "une",
        "et",
        "est",
        "pour",
        "que",
        "qui",
        "dans",
        "sur",
        "avec",
        "pas",
        "vous",
        "nous",
        "ce",
        "cette",
        "sont",
        "au",
        "aux",
    ]
)
_EN_HINTS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "is",
        "for",
        "that",
        "which",
        "in",
        "on",
        "with",
        "not",
        "you",
        "we",
        "this",
        "these",
        "are",
        "to",
        "of",
        "it",
    ]
)


@dataclass(frozen=True)
class Document:
    """One source document. Offsets of chunks index into `text` (the whole file as read)."""

    doc_id: str
    path: Path
    title: str
    language: str
    source: str
    date: str
    text: str
    body_start: int
    kind: str = "document"  # "knowledge" for a topic file of the knowledge base

    @property
    def body(self) -> str:
        """The text after the front matter."""
        return self.text[self.body_start :]

    @property
    def content_hash(self) -> str:
        """SHA-256 of the whole text (what the index compares to skip unchanged files)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def guess_language(text: str) -> str:
    """'fr' or 'en' from a count of very common words; French wins ties (it is the corpus's)."""
    words = re.findall(r"[a-zà-ÿ]+", text[:5000].lower())
    fr = sum(w in _FR_HINTS for w in words)
    en = sum(w in _EN_HINTS for w in words)
    return "en" if en > fr else "fr"


def _first_heading(body: str) -> str | None:
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip() or None
        if stripped:
            return stripped[:120]
    return None


def read_pdf_text(path: Path) -> tuple[str, str | None]:
    """Text of a PDF (pages separated by blank lines) and its title, via pypdf."""
    try:
        from pypdf import PdfReader
    except ImportError as exc:  # pragma: no cover - pypdf is an optional extra
        raise RuntimeError(f"{path.name}: reading PDF files needs the 'pdf' extra (pypdf)") from exc
    reader = PdfReader(str(path))
    pages = [(page.extract_text() or "").strip() for page in reader.pages]
    title = None
    if reader.metadata is not None and reader.metadata.title:
        title = str(reader.metadata.title)
    return "\n\n".join(p for p in pages if p) + "\n", title


def load_document(path: Path) -> Document:
    """Read one file of the corpus."""
    suffix = path.suffix.lower()
    pdf_title = None
    if suffix in PDF_SUFFIXES:
        text, pdf_title = read_pdf_text(path)
    else:
        text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    meta, body_start = parse_front_matter(text)
    body = text[body_start:]
    title = meta.get("title") or pdf_title or _first_heading(body) or path.stem
    language = (meta.get("language") or meta.get("lang") or guess_language(body)).lower()[:2]
    kind = meta.get("kind", "document")
    return Document(
        # Knowledge topics share file names across languages: their ids carry the language.
        doc_id=f"knowledge-{language}-{path.stem}" if kind == "knowledge" else path.stem,
        path=path,
        title=title,
        language=language,
        source=meta.get("source", path.name),
        date=meta.get("date", ""),
        text=text,
        body_start=body_start,
        kind=kind,
    )


def corpus_files(corpus_dir: Path) -> list[Path]:
    """The indexable files of a corpus folder, sorted, then the knowledge base's topic files
    (`knowledge/<language>/<topic>.md`); hidden files and README are skipped."""
    if not corpus_dir.is_dir():
        return []
    documents = sorted(
        p
        for p in corpus_dir.iterdir()
        if p.is_file()
        and p.suffix.lower() in SUFFIXES
        and not p.name.startswith((".", "_"))
        and p.stem.upper() != "README"
    )
    return documents + knowledge_files(corpus_dir / "knowledge")


def load_corpus(corpus_dir: Path) -> list[Document]:
    """Every readable document of the folder; an unreadable file is logged and skipped."""
    docs: list[Document] = []
    seen: set[str] = set()
    for path in corpus_files(corpus_dir):
        try:
            doc = load_document(path)
        except Exception as exc:  # an unreadable file (bad PDF, I/O error) must not stop the rest
            log.warning("skipping %s: %s", path.name, exc)
            continue
        if doc.doc_id in seen:
            log.warning("skipping %s: another file has the same name %r", path.name, doc.doc_id)
            continue
        if not doc.body.strip():
            log.warning("skipping %s: no text", path.name)
            continue
        seen.add(doc.doc_id)
        docs.append(doc)
    return docs
