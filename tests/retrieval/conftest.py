"""Fixtures for retrieval tests: small throw-away corpora and homes."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.settings import Settings

DOC_RENT = """---
title: Louer un GPU
language: fr
---

# Louer un GPU

## Les prix

Une H100 se loue entre 2 et 5 dollars de l'heure chez les fournisseurs spécialisés.

## Les instances spot

Les instances spot coûtent moins cher mais peuvent être interrompues à tout moment.
"""

DOC_BUY = """---
title: Acheter un GPU
language: fr
---

# Acheter un GPU

## Occasion

Une RTX 3090 d'occasion offre 24 Go de mémoire pour un prix raisonnable.

## Consommation

Une RTX 4090 consomme 450 W en pleine charge.
"""

DOC_APPLE = """---
title: Apple Silicon
language: fr
---

# Apple Silicon

Un Mac avec puce M-series permet d'apprendre la programmation GPU via Metal.
"""


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "louer.md").write_text(DOC_RENT, encoding="utf-8")
    (corpus / "acheter.md").write_text(DOC_BUY, encoding="utf-8")
    return corpus


@pytest.fixture
def small_settings(tmp_path: Path, small_corpus: Path) -> Settings:
    """Settings for an isolated index over `small_corpus`, with the fast packaged e5 model."""
    return Settings(
        home=tmp_path / "home", corpus_dir=small_corpus, embedding_model="e5", chroma_url=None
    )


@pytest.fixture
def apple_doc() -> str:
    return DOC_APPLE
