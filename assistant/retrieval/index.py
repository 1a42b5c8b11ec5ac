"""The Chroma index of the corpus: built on first use, updated incrementally, safe to share.

- On disk (`<home>/index/chroma`) by default, or on a Chroma server when `chroma_url` is set.
- Chunk ids carry a hash of the chunk's content: an unchanged chunk keeps its id and is never
  embedded again; chunks whose document changed or left the corpus are deleted.
- Changing the embedding model (or the chunker) drops the collection and embeds everything afresh.
- Builds hold a file lock, so two processes indexing at once leave one consistent index.
- An unreadable index folder is moved aside and rebuilt from the corpus, with a warning.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from assistant.log import get_logger
from assistant.retrieval.chunking import Chunk, chunk_corpus
from assistant.retrieval.corpus import Document, load_corpus
from assistant.retrieval.embeddings import get_embedder, model_key
from assistant.retrieval.models import IndexReport
from assistant.settings import Settings, get_settings

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

log = get_logger(__name__)

CHUNKER_VERSION = "1"
EMBED_BATCH = 64
# HNSW's search breadth (ef_search). Chroma's graph search is approximate: at its default breadth
# it missed one of the 40 nearest passages for 10 of the 152 labelled queries, and which one
# depended on the graph that the parallel build happened to make, so recall changed from one build
# to the next. A breadth above the number of passages (about 700) makes the search visit all of
# them: exact and repeatable, at well under a millisecond per query at this size.
SEARCH_EF = 4096
LOCK_TIMEOUT_S = 900.0


class IndexUnavailable(RuntimeError):
    """The index cannot be opened or written; the message says where and why."""


class _BrokenIndex(RuntimeError):
    """The local index folder exists but is not a usable Chroma folder."""


@dataclass
class Plan:
    """What a build has to do to bring the index in line with the corpus."""

    chunks: list[Chunk]
    documents: list[Document]
    to_embed: list[Chunk]
    to_update: list[Chunk]
    to_remove: list[str]

    @property
    def up_to_date(self) -> bool:
        """True when nothing is to embed, update or remove."""
        return not (self.to_embed or self.to_update or self.to_remove)


def location(settings: Settings) -> str:
    """Where the index lives: the Chroma server's URL, else its folder."""
    return settings.chroma_url or str(chroma_dir(settings))


def chroma_dir(settings: Settings) -> Path:
    """The folder of the on-disk Chroma index."""
    return settings.index_dir / "chroma"


def lock_path(settings: Settings) -> Path:
    """The file lock that lets one process build the index at a time."""
    return settings.home / "index.lock"


def manifest_path(settings: Settings) -> Path:
    """The manifest: what was indexed, with which model and corpus."""
    return settings.index_dir / "manifest.json"


def _chroma_settings() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=True)


def open_client(settings: Settings) -> ClientAPI:
    """A Chroma client: HTTP when `chroma_url` is set, else persistent on local disk."""
    import chromadb

    if settings.chroma_url:
        url = urlparse(
            settings.chroma_url if "//" in settings.chroma_url else f"//{settings.chroma_url}"
        )
        ssl = url.scheme == "https"
        try:
            return chromadb.HttpClient(
                host=url.hostname or "localhost",
                port=url.port or (443 if ssl else 8000),
                ssl=ssl,
                settings=_chroma_settings(),
            )
        except Exception as exc:
            raise IndexUnavailable(
                f"cannot reach the Chroma server at {settings.chroma_url}: {exc}"
            ) from exc
    path = chroma_dir(settings)
    if path.exists() and not path.is_dir():
        raise _BrokenIndex(f"{path} is not a folder")
    if not (path / "chroma.sqlite3").is_file():
        _drop_cached_client(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise IndexUnavailable(f"cannot create the index folder {path}: {exc}") from exc
    return chromadb.PersistentClient(path=str(path), settings=_chroma_settings())


def _drop_cached_client(path: Path) -> None:
    """Forget Chroma's cached client for `path`: after the folder was deleted under a running
    process, that client would keep reading and writing the deleted files, not the new folder."""
    try:
        from chromadb.api.shared_system_client import SharedSystemClient

        system = SharedSystemClient._identifier_to_system.pop(str(path), None)
        SharedSystemClient._identifier_to_refcount.pop(str(path), None)
        if system is not None:
            system.stop()
    except Exception:  # pragma: no cover - best effort across chromadb versions
        pass


def forget_clients() -> None:
    """Drop Chroma's per-path client cache (needed after an index folder is replaced)."""
    try:
        from chromadb.api.client import SharedSystemClient

        SharedSystemClient.clear_system_cache()
    except Exception:  # pragma: no cover - best effort across chromadb versions
        pass


def _collection_metadata(key: str) -> dict[str, Any]:
    return {"embedding_model": key, "chunker": CHUNKER_VERSION}


def get_collection(client: ClientAPI, settings: Settings, key: str) -> Collection:
    """The corpus collection with our embedding function (never Chroma's default)."""
    from assistant.retrieval.chroma_ef import make_embedding_function

    collection = client.get_or_create_collection(
        name=settings.collection,
        metadata=_collection_metadata(key),
        configuration={"hnsw": {"space": "cosine", "ef_search": SEARCH_EF}},
        embedding_function=make_embedding_function(key),
    )
    hnsw = (collection.configuration or {}).get("hnsw") or {}
    if hnsw.get("ef_search", SEARCH_EF) < SEARCH_EF:  # an index built before SEARCH_EF was set
        collection.modify(configuration={"hnsw": {"ef_search": SEARCH_EF}})
    return collection


def _chunk_metadata(chunk: Chunk, doc: Document) -> dict[str, Any]:
    return {
        "doc_id": chunk.doc_id,
        "title": chunk.title,
        "section": chunk.section,
        "language": chunk.language,
        "source": doc.source,
        "start": chunk.start,
        "end": chunk.end,
        "ordinal": chunk.ordinal,
        "hash": chunk.content_hash,
        "kind": doc.kind,
        "url": chunk.url,
        "entry_id": chunk.entry_id,
    }


GET_PAGE = 5000


def get_all(collection: Collection, include: list[str]) -> dict[str, list[Any]]:
    """Every record of the collection, read in pages: one `get()` of more than ~32k records
    fails inside Chroma's SQLite ("too many SQL variables")."""
    out: dict[str, list[Any]] = {"ids": [], **{field: [] for field in include}}
    offset = 0
    while True:
        page = collection.get(include=include, limit=GET_PAGE, offset=offset)  # type: ignore[arg-type]
        for field in out:
            out[field].extend(page.get(field) or [])  # type: ignore[arg-type,misc]
        if len(page["ids"]) < GET_PAGE:
            return out
        offset += GET_PAGE


def plan_build(collection: Collection, settings: Settings) -> Plan:
    """Compare the corpus with what the collection holds."""
    documents = load_corpus(settings.resolved_corpus_dir())
    chunks = chunk_corpus(documents)
    by_doc = {d.doc_id: d for d in documents}
    existing = get_all(collection, ["metadatas"])
    held = {
        cid: (meta or {})
        for cid, meta in zip(existing["ids"], existing["metadatas"] or [], strict=False)
    }
    wanted = {c.chunk_id for c in chunks}
    to_embed = [c for c in chunks if c.chunk_id not in held]
    to_update = [
        c
        for c in chunks
        if c.chunk_id in held and held[c.chunk_id] != _chunk_metadata(c, by_doc[c.doc_id])
    ]
    to_remove = sorted(cid for cid in held if cid not in wanted)
    return Plan(chunks, documents, to_embed, to_update, to_remove)


def _progress(total: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc="embedding chunks", unit="chunk", disable=not enabled or None)


def _apply(collection: Collection, plan: Plan, key: str, progress: bool) -> None:
    by_doc = {d.doc_id: d for d in plan.documents}
    if plan.to_remove:
        collection.delete(ids=plan.to_remove)
    if plan.to_update:
        collection.update(
            ids=[c.chunk_id for c in plan.to_update],
            metadatas=[_chunk_metadata(c, by_doc[c.doc_id]) for c in plan.to_update],  # type: ignore[misc]
        )
    if not plan.to_embed:
        return
    embedder = get_embedder(key)
    with _progress(len(plan.to_embed), progress) as bar:
        for i in range(0, len(plan.to_embed), EMBED_BATCH):
            batch = plan.to_embed[i : i + EMBED_BATCH]
            vectors = embedder.embed_documents([c.embedding_text() for c in batch])
            collection.upsert(
                ids=[c.chunk_id for c in batch],
                embeddings=vectors,
                documents=[c.text for c in batch],
                metadatas=[_chunk_metadata(c, by_doc[c.doc_id]) for c in batch],  # type: ignore[misc]
            )
            bar.update(len(batch))


def _write_manifest(settings: Settings, key: str, plan: Plan) -> None:
    manifest = {
        "model": key,
        "chunker": CHUNKER_VERSION,
        "collection": settings.collection,
        "location": location(settings),
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "chunks": len(plan.chunks),
        "documents": {
            d.doc_id: {"file": d.path.name, "sha256": d.content_hash, "title": d.title}
            for d in plan.documents
        },
    }
    path = manifest_path(settings)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        log.warning("could not write the index manifest %s: %s", path, exc)


def read_manifest(settings: Settings | None = None) -> dict[str, Any] | None:
    """The index manifest, or None when there is none (or it cannot be read)."""
    settings = settings or get_settings()
    try:
        return dict(json.loads(manifest_path(settings).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def _move_aside(settings: Settings, why: BaseException) -> None:
    """Set an unreadable local index aside (kept as chroma.broken) so it can be rebuilt."""
    path = chroma_dir(settings)
    broken = path.with_name("chroma.broken")
    log.warning(
        "the index at %s is unreadable (%s: %s); moving it to %s and rebuilding from the corpus",
        path,
        type(why).__name__,
        str(why)[:200],
        broken.name,
    )
    forget_clients()
    try:
        if broken.is_dir():
            shutil.rmtree(broken)
        elif broken.exists():
            broken.unlink()
        if path.is_dir() or path.exists():
            path.rename(broken)
    except OSError as exc:
        raise IndexUnavailable(
            f"the index at {path} is unreadable and cannot be replaced: {exc}"
        ) from exc


def open_collection(settings: Settings, key: str, *, repair: bool = True) -> Collection:
    """Open the collection, checking it can be read; a broken local index is set aside once."""
    try:
        client = open_client(settings)
        collection = get_collection(client, settings, key)
        collection.count()
        return collection
    except IndexUnavailable:
        raise
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # chromadb's Rust core can raise PanicException (a BaseException)
        if settings.chroma_url:
            raise IndexUnavailable(
                f"the Chroma server at {settings.chroma_url} failed: {exc}"
            ) from exc
        if not repair:
            raise IndexUnavailable(
                f"the index at {chroma_dir(settings)} is unreadable: {exc}"
            ) from exc
        _move_aside(settings, exc)
        return open_collection(settings, key, repair=False)


def _collection_needs_reset(collection: Collection, key: str) -> str:
    meta = collection.metadata or {}
    if meta.get("embedding_model") != key:
        return f"embedding model changed ({meta.get('embedding_model')!r} -> {key!r})"
    if meta.get("chunker") != CHUNKER_VERSION:
        return "chunker changed"
    return ""


def build_index(
    rebuild: bool = False, progress: bool = True, settings: Settings | None = None
) -> IndexReport:
    """Bring the index in line with the corpus; `rebuild` embeds everything afresh."""
    from filelock import FileLock, Timeout

    settings = settings or get_settings()
    key = model_key(settings.embedding_model)
    started = time.perf_counter()
    try:
        settings.home.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(lock_path(settings)), timeout=LOCK_TIMEOUT_S)
        lock.acquire()
    except Timeout as exc:
        raise IndexUnavailable(
            f"another process has been building the index for {LOCK_TIMEOUT_S:.0f} s"
        ) from exc
    except OSError as exc:
        raise IndexUnavailable(f"cannot write to {settings.home}: {exc}") from exc
    try:
        return _build_locked(settings, key, rebuild, progress, started)
    finally:
        lock.release()


def _build_locked(
    settings: Settings, key: str, rebuild: bool, progress: bool, started: float
) -> IndexReport:
    collection = open_collection(settings, key)
    reason = "asked for" if rebuild else _collection_needs_reset(collection, key)
    if reason:
        log.info("full rebuild of the index: %s", reason)
        client = open_client(settings)
        client.delete_collection(settings.collection)
        collection = get_collection(client, settings, key)
    elif collection.count() == 0:
        reason = "new index"
    try:
        plan = plan_build(collection, settings)
        _apply(collection, plan, key, progress)
    except IndexUnavailable:
        raise
    except OSError as exc:
        raise IndexUnavailable(f"cannot write the index at {location(settings)}: {exc}") from exc
    _write_manifest(settings, key, plan)
    return IndexReport(
        model=key,
        location=location(settings),
        documents=len(plan.documents),
        chunks=len(plan.chunks),
        embedded=len(plan.to_embed),
        skipped=len(plan.chunks) - len(plan.to_embed),
        updated=len(plan.to_update),
        removed=len(plan.to_remove),
        full_rebuild=bool(reason),
        reason=reason,
        elapsed_s=round(time.perf_counter() - started, 3),
    )
