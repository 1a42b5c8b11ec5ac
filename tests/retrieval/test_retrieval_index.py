"""The Chroma index: incremental by content hash, rebuilt on model change, safe under faults."""

from __future__ import annotations

import logging
import multiprocessing
import shutil
from pathlib import Path

import pytest

from assistant.retrieval.chunking import chunk_corpus
from assistant.retrieval.corpus import load_corpus
from assistant.retrieval.hybrid import HybridRetriever
from assistant.retrieval.index import (
    IndexUnavailable,
    build_index,
    chroma_dir,
    open_collection,
    read_manifest,
)
from assistant.settings import Settings


def _chunk_count(corpus: Path) -> int:
    return len(chunk_corpus(load_corpus(corpus)))


def _indexed_ids(settings: Settings) -> set[str]:
    collection = open_collection(settings, "e5")
    return set(collection.get()["ids"])


def test_first_build_then_nothing_to_embed(small_settings: Settings, small_corpus: Path) -> None:
    total = _chunk_count(small_corpus)
    assert total == 4
    first = build_index(progress=False, settings=small_settings)
    assert (first.embedded, first.skipped, first.removed, first.full_rebuild) == (4, 0, 0, True)
    again = build_index(progress=False, settings=small_settings)
    assert (again.embedded, again.skipped, again.removed, again.full_rebuild) == (0, 4, 0, False)
    manifest = read_manifest(small_settings)
    assert manifest is not None
    assert manifest["model"] == "e5" and manifest["chunks"] == 4
    assert sorted(manifest["documents"]) == ["acheter", "louer"]


def test_adding_changing_and_removing_documents(
    small_settings: Settings, small_corpus: Path, apple_doc: str
) -> None:
    build_index(progress=False, settings=small_settings)

    (small_corpus / "apple.md").write_text(apple_doc, encoding="utf-8")
    added = build_index(progress=False, settings=small_settings)
    assert (added.embedded, added.skipped, added.removed) == (1, 4, 0)

    path = small_corpus / "acheter.md"
    path.write_text(path.read_text().replace("450 W", "450 W (TDP)"), encoding="utf-8")
    changed = build_index(progress=False, settings=small_settings)
    assert (changed.embedded, changed.skipped, changed.removed) == (1, 4, 1)

    (small_corpus / "louer.md").unlink()
    removed = build_index(progress=False, settings=small_settings)
    assert (removed.embedded, removed.removed, removed.chunks) == (0, 2, 3)
    assert all(not cid.startswith("louer:") for cid in _indexed_ids(small_settings))


def test_moved_text_is_updated_without_re_embedding(
    small_settings: Settings, small_corpus: Path
) -> None:
    build_index(progress=False, settings=small_settings)
    path = small_corpus / "louer.md"
    path.write_text(path.read_text().replace("# Louer un GPU\n", "# Louer un GPU\n\nIntro.\n"))
    report = build_index(progress=False, settings=small_settings)
    # the new intro is one new chunk; the two sections below it only moved
    assert (report.embedded, report.updated, report.removed) == (1, 2, 0)
    hits = HybridRetriever(small_settings, progress=False).search(
        "prix de location H100 par heure", 1
    )
    text = path.read_text()
    assert text[hits[0].start : hits[0].end] == hits[0].text


def test_rebuild_flag_embeds_everything(small_settings: Settings) -> None:
    build_index(progress=False, settings=small_settings)
    report = build_index(rebuild=True, progress=False, settings=small_settings)
    assert (report.embedded, report.full_rebuild, report.reason) == (4, True, "asked for")


@pytest.mark.slow
def test_model_change_forces_a_full_rebuild(small_settings: Settings) -> None:
    build_index(progress=False, settings=small_settings)
    other = small_settings.model_copy(update={"embedding_model": "minilm"})
    report = build_index(progress=False, settings=other)
    assert report.full_rebuild and report.embedded == 4 and report.skipped == 0
    assert report.reason == "embedding model changed ('e5' -> 'minilm')"
    back = build_index(progress=False, settings=small_settings)
    assert back.full_rebuild and back.embedded == 4


def test_corrupted_index_is_set_aside_and_rebuilt(
    small_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    build_index(progress=False, settings=small_settings)
    from assistant.retrieval.index import forget_clients

    forget_clients()
    folder = chroma_dir(small_settings)
    for path in folder.rglob("*"):
        if path.is_file():
            path.write_bytes(b"this is not a database" * 100)
    caplog.set_level(logging.WARNING, logger="assistant")
    report = build_index(progress=False, settings=small_settings)
    assert report.embedded == 4 and report.chunks == 4
    assert "unreadable" in caplog.text and "rebuilding from the corpus" in caplog.text
    assert (folder.parent / "chroma.broken").is_dir()


def test_index_folder_replaced_by_a_file_is_rebuilt(small_settings: Settings) -> None:
    folder = chroma_dir(small_settings)
    folder.parent.mkdir(parents=True)
    folder.write_text("oops")
    report = build_index(progress=False, settings=small_settings)
    assert report.embedded == 4 and folder.is_dir()


def test_deleted_index_during_a_run_is_rebuilt_on_next_search(small_settings: Settings) -> None:
    retriever = HybridRetriever(small_settings, progress=False)
    before = retriever.search("Combien coûte une H100 à l'heure ?", 2)
    assert before and before[0].document == "louer"
    from assistant.retrieval.index import forget_clients

    forget_clients()
    shutil.rmtree(small_settings.index_dir)
    after = retriever.search("Combien coûte une H100 à l'heure ?", 2)
    assert [h.chunk_id for h in after] == [h.chunk_id for h in before]


def test_removed_corpus_file_disappears_from_results(
    small_settings: Settings, small_corpus: Path
) -> None:
    retriever = HybridRetriever(small_settings, progress=False)
    assert retriever.search("RTX 3090 d'occasion 24 Go", 1)[0].document == "acheter"
    (small_corpus / "acheter.md").unlink()
    hits = retriever.search("RTX 3090 d'occasion 24 Go", 3)
    assert all(h.document != "acheter" for h in hits)


def test_unwritable_home_is_a_clear_error(tmp_path: Path, small_corpus: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    settings = Settings(home=blocker / "home", corpus_dir=small_corpus, embedding_model="e5")
    with pytest.raises(IndexUnavailable, match="cannot write to"):
        build_index(progress=False, settings=settings)


def _build_in_child(home: str, corpus: str, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    settings = Settings(home=Path(home), corpus_dir=Path(corpus), embedding_model="e5")
    report = build_index(progress=False, settings=settings)
    out.put((report.embedded, report.chunks))


def test_two_processes_building_at_once_leave_one_consistent_index(
    small_settings: Settings, small_corpus: Path
) -> None:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    args = (str(small_settings.home), str(small_corpus), out)
    procs = [ctx.Process(target=_build_in_child, args=args) for _ in range(2)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=240)
        assert proc.exitcode == 0
    results = sorted(out.get(timeout=5) for _ in procs)
    assert results == [(0, 4), (4, 4)]  # one embedded everything, the other found it done
    expected = {c.chunk_id for c in chunk_corpus(load_corpus(small_corpus))}
    assert _indexed_ids(small_settings) == expected


def test_an_index_with_a_narrow_search_is_widened_when_opened(small_settings: Settings) -> None:
    """An index made before the search breadth was set gets it, so its dense search is exact."""
    from assistant.retrieval.embeddings import model_key
    from assistant.retrieval.index import SEARCH_EF, open_client

    build_index(progress=False, settings=small_settings)
    key = model_key(small_settings.embedding_model)
    collection = open_collection(small_settings, key)
    collection.modify(configuration={"hnsw": {"ef_search": 10}})
    assert (
        open_client(small_settings)
        .get_collection(small_settings.collection)
        .configuration["hnsw"]["ef_search"]
        == 10
    )
    reopened = open_collection(small_settings, key)
    assert reopened.configuration["hnsw"]["ef_search"] == SEARCH_EF
