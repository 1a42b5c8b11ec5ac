"""Precomputed embedding vectors shipped with the package, so a fresh install answers at once.

The store maps (embedding model, sha256 of the exact text the model reads, its "query: " or
"passage: " prefix included) to a float16 vector. It knows nothing about where texts come from:
corpus chunks, the offline model's example questions or anything else embedded through
`get_embedder()` is looked up here first, and only the texts it lacks are embedded (a changed
corpus, new examples, another model or model version). `tools/build_vectors.py` (`make vectors`)
regenerates it by recording what the code embeds while it indexes the corpus and answers a few
questions.

Files, in package data: `assistant/retrieval/data/vectors.npz` (per model: `keys/<model id>`, the
raw 32-byte digests as uint8 rows, and `vectors/<model id>`, float16 rows) and `vectors.json` (what is in it).
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

FORMAT = 1
STORE_NAME = "vectors"


def text_digest(model_text: str) -> bytes:
    """The store's key for one text, exactly as the model reads it (prefix included)."""
    return hashlib.sha256(model_text.encode("utf-8")).digest()


def store_dir() -> Path:
    """The packaged store's folder (assistant/retrieval/data), found through importlib.resources."""
    return Path(str(resources.files("assistant.retrieval").joinpath("data")))


@dataclass
class ModelVectors:
    """The stored vectors of one embedding model: digest -> row."""

    model_id: str
    rows: dict[bytes, int]
    vectors: np.ndarray  # float16, (n, dim)

    def get(self, digest: bytes) -> np.ndarray | None:
        """The stored vector of a text's digest, or None."""
        row = self.rows.get(digest)
        return None if row is None else self.vectors[row]


def _load_npz(path: Path) -> dict[str, ModelVectors]:
    import numpy as np

    out: dict[str, ModelVectors] = {}
    with np.load(path, allow_pickle=False) as data:
        for name in data.files:
            if not name.startswith("keys/"):
                continue
            model_id = name[len("keys/") :]
            keys = data[name]
            vectors = data[f"vectors/{model_id}"]
            rows = {k.tobytes(): i for i, k in enumerate(keys)}
            out[model_id] = ModelVectors(model_id, rows, vectors)
    return out


@lru_cache(maxsize=4)
def load_store(folder: str | None = None) -> dict[str, ModelVectors]:
    """Every model's stored vectors; empty when the store is absent or unreadable."""
    from assistant.log import get_logger

    path = Path(folder) if folder else store_dir()
    try:
        return _load_npz(path / f"{STORE_NAME}.npz")
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError) as exc:
        get_logger(__name__).warning("precomputed vectors unreadable (%s); embedding instead", exc)
        return {}


def stored_vectors(model_id: str | None) -> ModelVectors | None:
    """The packaged vectors of one embedding model (None when it has none)."""
    if model_id is None:
        return None
    return load_store().get(model_id)


def write_store(
    folder: Path, by_model: dict[str, dict[bytes, np.ndarray]], about: dict[str, Any]
) -> Path:
    """Write the store (digests sorted, so the same vectors give the same file) and its index."""
    import numpy as np

    arrays: dict[str, np.ndarray] = {}
    index: dict[str, Any] = {"format": FORMAT, "models": {}, **about}
    for model_id, rows in sorted(by_model.items()):
        digests = sorted(rows)
        matrix = np.stack([np.asarray(rows[d], dtype=np.float32) for d in digests])
        # uint8 rows, not a bytes dtype: numpy would strip a digest's trailing zero bytes
        arrays[f"keys/{model_id}"] = np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(
            len(digests), 32
        )
        arrays[f"vectors/{model_id}"] = matrix.astype(np.float16)
        index["models"][model_id] = {"texts": len(digests), "dim": int(matrix.shape[1])}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{STORE_NAME}.npz"
    tmp = folder / f"{STORE_NAME}.tmp.npz"
    np.savez(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)
    (folder / f"{STORE_NAME}.json").write_text(
        json.dumps(index, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    load_store.cache_clear()
    return path


@dataclass
class Recording:
    """Every text embedded while a recording is on, per model id, with its vector."""

    dry_run: bool = False  # missing texts get a placeholder vector instead of being embedded
    vectors: dict[str, dict[bytes, np.ndarray]] = field(default_factory=dict)
    missing: dict[str, set[bytes]] = field(default_factory=dict)
    texts: dict[bytes, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, model_id: str, digest: bytes, text: str, row: np.ndarray, missing: bool) -> None:
        """Keep one embedded text and its vector (`missing`: it had no stored vector)."""
        with self.lock:
            self.vectors.setdefault(model_id, {})[digest] = row
            self.texts[digest] = text
            if missing:
                self.missing.setdefault(model_id, set()).add(digest)


_recording: Recording | None = None


def start_recording(dry_run: bool = False) -> Recording:
    """Record every text embedded from now on (the build script and the staleness test)."""
    global _recording
    _recording = Recording(dry_run=dry_run)
    return _recording


def stop_recording() -> None:
    """Stop recording embedded texts."""
    global _recording
    _recording = None


def current_recording() -> Recording | None:
    """The recording in progress, if any."""
    return _recording


def placeholder(digest: bytes, dim: int) -> np.ndarray:
    """A unit vector derived from the digest: stands in for an embedding in a dry run."""
    import numpy as np

    rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    row = rng.standard_normal(dim).astype(np.float32)
    return row / np.linalg.norm(row)
