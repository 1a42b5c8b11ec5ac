"""Result objects of retrieval: a search hit and an index build report."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SearchHit(BaseModel):
    """One passage of the corpus that answers a query, with where it comes from."""

    chunk_id: str = Field(description="Stable identifier of the passage in the index.")
    document: str = Field(description="Document identifier (the corpus file name without suffix).")
    title: str = Field(description="Title of the document.")
    section: str = Field(description="Section path, headings joined by ' > '.")
    text: str = Field(description="The passage, exactly as it appears in the document.")
    snippet: str = Field(description="A short excerpt of the passage around the query's words.")
    score: float = Field(description="Relevance in [0, 1]: fused rank score, 1 = first by both.")
    start: int = Field(description="Offset of the passage's first character in the file.")
    end: int = Field(description="Offset just past the passage's last character in the file.")
    language: str = Field(description="Language of the document, e.g. 'fr'.")
    source: str = Field(default="", description="Source file the document was made from.")
    kind: str = Field(default="document", description="'document' (the guide) or 'knowledge'.")
    url: str = Field(default="", description="Knowledge entries: the address of their source.")
    entry_id: str = Field(default="", description="Knowledge entries: the entry's id.")


class IndexReport(BaseModel):
    """What a build of the index did."""

    model: str = Field(description="Embedding model key the index was built with.")
    location: str = Field(description="Index folder, or the Chroma server URL.")
    documents: int = Field(description="Documents in the corpus.")
    chunks: int = Field(description="Chunks in the index after the build.")
    embedded: int = Field(description="Chunks embedded by this build (new or changed).")
    skipped: int = Field(description="Chunks already indexed and unchanged: not re-embedded.")
    updated: int = Field(default=0, description="Unchanged chunks whose position moved.")
    removed: int = Field(description="Chunks deleted (their text changed or their document left).")
    full_rebuild: bool = Field(description="True when everything was embedded afresh.")
    reason: str = Field(default="", description="Why a full rebuild happened, if one did.")
    elapsed_s: float = Field(description="Wall time of the build, seconds.")
