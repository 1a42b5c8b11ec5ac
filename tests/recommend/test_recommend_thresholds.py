"""The corpus's VRAM thresholds are data with sources, and the recommendation applies them."""

from __future__ import annotations

from assistant.knowledge.thresholds import load_vram_thresholds, vram_threshold
from assistant.tools.recommend import RecommendQuery, recommend


def test_thresholds_have_sources_and_both_languages() -> None:
    rows = load_vram_thresholds()
    assert {"learning_comfort", "lora"} <= set(rows)
    for row in rows.values():
        assert row.sources and all(s.title for s in row.sources)
        assert row.label and row.label_fr and row.label != row.label_fr


def test_lora_without_a_model_uses_the_sourced_threshold() -> None:
    lora = vram_threshold("lora")
    rec = recommend(RecommendQuery(workload="lora", mode="buy", limit=20))
    assert rec.options
    assert all((o.vram_gb or 0) >= lora.vram_gb for o in rec.options)
    assert any(lora.sources[0].title == s.title for s in rec.sources)
