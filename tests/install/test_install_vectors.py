"""The precomputed vectors: looked up before embedding, keyed by model and exact text, complete.

The completeness test says how many texts the shipped store lacks; fix it with `make vectors`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.retrieval import vector_store
from assistant.retrieval.embeddings import StoredVectorsEmbedder
from tests.conftest import REPO_ROOT

DIM = 8


class FakeModel:
    """An embedding model that records what it was asked to embed."""

    key = "fake"
    dim = DIM
    max_tokens = 64
    query_prefix = "query: "
    passage_prefix = "passage: "

    def __init__(self, store_id: str | None = "fake/1.0") -> None:
        self.store_id = store_id
        self.calls: list[list[str]] = []

    def _rows(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = np.stack([vector_store.placeholder(vector_store.text_digest(t), DIM) for t in texts])
        return rows.astype(np.float32)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._rows([self.query_prefix + t for t in texts])

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self._rows([self.passage_prefix + t for t in texts])


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store holding 'passage: stored text' for fake/1.0, in place of the packaged one."""
    stored_row = np.zeros(DIM, dtype=np.float32)
    stored_row[0] = 1.0
    vector_store.write_store(
        tmp_path, {"fake/1.0": {vector_store.text_digest("passage: stored text"): stored_row}}, {}
    )
    monkeypatch.setattr(vector_store, "store_dir", lambda: tmp_path)
    vector_store.load_store.cache_clear()
    yield tmp_path
    vector_store.load_store.cache_clear()


def test_a_stored_text_is_read_not_embedded(store: Path) -> None:
    model = FakeModel()
    rows = StoredVectorsEmbedder(model).embed_documents(["stored text", "new text"])
    assert model.calls == [["passage: new text"]]
    assert rows.shape == (2, DIM) and rows.dtype == np.float32
    assert rows[0].tolist() == [1.0] + [0.0] * (DIM - 1)
    expected = vector_store.placeholder(vector_store.text_digest("passage: new text"), DIM)
    assert np.allclose(rows[1], expected, atol=1e-6)


def test_the_prefix_is_part_of_the_key(store: Path) -> None:
    model = FakeModel()
    StoredVectorsEmbedder(model).embed_queries(["stored text"])
    assert model.calls == [["query: stored text"]]


def test_another_model_or_version_embeds_everything(store: Path) -> None:
    model = FakeModel(store_id="fake/2.0")
    StoredVectorsEmbedder(model).embed_documents(["stored text"])
    assert model.calls == [["passage: stored text"]]


def test_many_missing_texts_are_embedded_in_batches_with_a_progress_bar(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = FakeModel()
    texts = [f"text {i}" for i in range(150)]
    rows = StoredVectorsEmbedder(model).embed_documents(["stored text", *texts])
    assert [len(c) for c in model.calls] == [32, 32, 32, 32, 22]
    assert rows[0, 0] == 1.0 and np.allclose(np.linalg.norm(rows, axis=1), 1.0)
    err = capsys.readouterr().err
    assert "embedding" in err and "150/150" in err


def test_a_recording_collects_every_text_and_what_was_missing(store: Path) -> None:
    model = FakeModel()
    recording = vector_store.start_recording(dry_run=True)
    try:
        StoredVectorsEmbedder(model).embed_documents(["stored text", "new text"])
    finally:
        vector_store.stop_recording()
    assert model.calls == []  # a dry run embeds nothing
    texts = {recording.texts[d] for d in recording.vectors["fake/1.0"]}
    assert texts == {"passage: stored text", "passage: new text"}
    missing = {recording.texts[d] for d in recording.missing["fake/1.0"]}
    assert missing == {"passage: new text"}


def test_a_digest_ending_in_zero_bytes_survives_the_file(tmp_path: Path) -> None:
    digest = bytes(range(1, 31)) + b"\0\0"
    vector_store.write_store(tmp_path, {"m": {digest: np.ones(DIM, dtype=np.float32)}}, {})
    assert digest in vector_store.load_store(str(tmp_path))["m"].rows


def test_the_shipped_store_is_package_data() -> None:
    store = vector_store.load_store()
    assert store, f"no precomputed vectors in {vector_store.store_dir()}: run `make vectors`"
    for model in store.values():
        assert model.vectors.dtype == np.float16
        assert len(model.rows) == model.vectors.shape[0] > 0


@pytest.mark.slow
def test_the_shipped_vectors_cover_everything_the_code_embeds(tmp_path: Path) -> None:
    """Indexes the corpus and answers sample questions, counting texts the store lacks."""
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tools" / "build_vectors.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (
        f"the precomputed vectors are stale; run `make vectors`:\n{done.stdout}{done.stderr[-2000:]}"
    )
    assert " 0 of " in done.stdout and "lowest cosine" in done.stdout
