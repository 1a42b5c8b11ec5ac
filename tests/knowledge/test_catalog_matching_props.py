"""Matching never crashes and never returns a card it can't justify, whatever the text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.knowledge.gpus import load_catalog
from assistant.knowledge.longtail import load_long_tail
from assistant.knowledge.matching import find_gpu_mentions, match_gpu

NAMES = [c.name for c in load_catalog().gpus]
ALL_NAMES = set(NAMES) | {c.name for c in load_long_tail().cards}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_a_value(text: str) -> None:
    m = match_gpu(text)
    assert m.score in (0.0, 0.9, 1.0)
    assert (m.gpu is None) == (m.score == 0.0)
    assert all(name in ALL_NAMES for name in m.suggestions)
    for card in find_gpu_mentions(text):
        assert card.name in ALL_NAMES
        assert card.curated == (card.name in NAMES)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=2019, max_value=2030),
    st.sampled_from(["€", " €", "$", " dollars", " euros"]),
)
def test_years_and_prices_are_not_cards(year: int, currency: str) -> None:
    assert find_gpu_mentions(f"in {year} it was cheaper") == []
    assert find_gpu_mentions(f"I paid 3090{currency}") == []


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(["", "my ", "a used ", "ma ", "NVIDIA "]))
def test_every_catalog_name_matches_itself(name: str, prefix: str) -> None:
    m = match_gpu(prefix + name)
    assert m.gpu is not None and m.gpu.name == name
    assert find_gpu_mentions(f"what about {prefix}{name}?")[0].name == name
