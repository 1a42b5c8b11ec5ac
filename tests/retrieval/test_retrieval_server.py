"""Chroma server mode: the same index behind `chroma run` gives the same results as on disk."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.retrieval.chunking import chunk_corpus
from assistant.retrieval.corpus import load_corpus
from assistant.retrieval.hybrid import HybridRetriever
from assistant.retrieval.index import IndexUnavailable, build_index
from assistant.settings import Settings


def corpus_chunks() -> int:
    """Chunks of the repository's corpus: the guide's passages plus one per knowledge entry."""
    return len(chunk_corpus(load_corpus(Path(__file__).resolve().parents[2] / "corpus")))


pytestmark = pytest.mark.slow

QUERIES = [
    "Combien coûte une H100 à l'heure ?",
    "spot or dedicated instance for a long training run?",
    "Is a used RTX 3090 worth it for LoRA training?",
    "best pizza in Lyon",
]


def _chroma_binary() -> str | None:
    beside = Path(sys.executable).parent / "chroma"
    return str(beside) if beside.exists() else shutil.which("chroma")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[str]:
    binary = _chroma_binary()
    if binary is None:
        pytest.skip("the chroma command is not installed")
    port = _free_port()
    log = (tmp_path / "chroma.log").open("w")
    proc = subprocess.Popen(
        [
            binary,
            "run",
            "--path",
            str(tmp_path / "server-data"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"chroma run did not start: {(tmp_path / 'chroma.log').read_text()[-500:]}"
                )
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_server_gives_the_same_results_as_disk(tmp_path: Path, chroma_server: str) -> None:
    corpus = Path(__file__).resolve().parents[2] / "corpus"
    disk = Settings(home=tmp_path / "disk", corpus_dir=corpus, embedding_model="e5")
    server = Settings(
        home=tmp_path / "client", corpus_dir=corpus, embedding_model="e5", chroma_url=chroma_server
    )

    on_disk = build_index(progress=False, settings=disk)
    on_server = build_index(progress=False, settings=server)
    assert on_server.location == chroma_server
    assert (
        (on_server.chunks, on_server.embedded)
        == (on_disk.chunks, on_disk.embedded)
        == (corpus_chunks(),) * 2
    )
    assert build_index(progress=False, settings=server).embedded == 0

    a, b = HybridRetriever(disk, progress=False), HybridRetriever(server, progress=False)
    for query in QUERIES:
        from_disk = [(h.chunk_id, h.score) for h in a.search(query, 5)]
        from_server = [(h.chunk_id, h.score) for h in b.search(query, 5)]
        assert from_server == from_disk, query
    assert b.search("best pizza in Lyon", 5) == []


def test_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    port = _free_port()
    settings = Settings(
        home=tmp_path / "h", embedding_model="e5", chroma_url=f"http://127.0.0.1:{port}"
    )
    with pytest.raises(IndexUnavailable, match=f"127.0.0.1:{port}"):
        build_index(progress=False, settings=settings)
