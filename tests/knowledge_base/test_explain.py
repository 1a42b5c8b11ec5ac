"""explain: a concept's entry, or the entry comparing two, in the language asked, with sources."""

from __future__ import annotations

import tomllib
from pathlib import Path

from assistant.knowledge.entries import LANGUAGES, get_entry
from assistant.knowledge.loader import data_path
from assistant.tools.explain import ExplainQuery, explain, fold_term


def ask(term: str, other: str | None = None, language: str = "en"):
    return explain(ExplainQuery(term=term, other_term=other, language=language))  # type: ignore[arg-type]


def test_every_concept_names_an_entry_in_both_languages() -> None:
    raw = tomllib.loads(Path(data_path("concepts.toml")).read_text(encoding="utf-8"))
    ids = {row["entry"] for row in raw["concept"]} | {row["entry"] for row in raw["difference"]}
    for entry_id in ids:
        for language in LANGUAGES:
            assert get_entry(entry_id, language) is not None, (entry_id, language)


def test_a_feature_alias_finds_its_entry_in_french() -> None:
    result = ask("mémoire partagée distribuée", language="fr")
    assert result.found and [e.id for e in result.entries] == ["dsmem"]
    entry = result.entries[0]
    assert entry.document.startswith("Base de connaissances")
    assert "cluster" in entry.answer and entry.sources[0].url.startswith("https://")


def test_a_pair_with_its_own_entry_is_a_comparison() -> None:
    result = ask("sm_90", "sm_90a")
    assert result.comparison and [e.id for e in result.entries] == ["sm90-vs-sm90a"]
    assert "wgmma" in result.entries[0].answer
    assert ask("SASS", "PTX", "fr").entries[0].id == "ptx-vs-sass"


def test_a_pair_without_a_comparison_entry_gives_both_entries() -> None:
    result = ask("TF32", "BF16")
    assert not result.comparison
    assert [e.id for e in result.entries] == ["tf32", "bf16"]


def test_a_question_worded_freely_reaches_its_entry() -> None:
    assert ask("what is TMA?").entries[0].id == "tma"
    assert ask("do GeForce cards have ECC").entries[0].id == "ecc-geforce"


def test_an_unknown_term_says_so_and_lists_known_concepts() -> None:
    result = ask("quantum flux capacitor")
    assert not result.found and result.missing == ["quantum flux capacitor"]
    assert "No knowledge entry" in result.message and result.suggestions
    assert "Aucune entrée" in ask("quantum flux capacitor", language="fr").message


def test_fold_term() -> None:
    assert fold_term("SM_90a") == fold_term("sm90a") == "sm90a"
    assert fold_term("Mémoire partagée") == "memoirepartagee"
