"""What a card runs, and how fast: each family's largest model that fits gets its decode speed."""

from __future__ import annotations

import pytest

from assistant.tools.models_for import ModelsForQuery, models_for
from assistant.tools.speed import SpeedQuery, estimate_speed


def test_each_familys_largest_model_gets_the_speed_estimate_at_its_precision() -> None:
    result = models_for(ModelsForQuery(gpu="RTX 4090"))
    rows = [
        next(m for m in g.models if m.model == g.largest_that_fits)
        for g in result.families
        if g.largest_that_fits
    ]
    assert rows and all(r.decode_tokens_per_s for r in rows if r.best is not None)
    row = rows[0]
    assert row.best is not None
    alone = estimate_speed(
        SpeedQuery(model=row.model, gpu="RTX 4090", precision=row.best.precision)
    )
    assert row.decode_tokens_per_s == pytest.approx(alone.decode_tokens_per_s)
    assert any("Speeds:" in a for a in result.assumptions)


def test_no_speed_without_a_named_card_or_for_training() -> None:
    for query in (ModelsForQuery(vram_gb=24), ModelsForQuery(gpu="RTX 4090", task="lora")):
        result = models_for(query)
        assert not any(m.decode_tokens_per_s for g in result.families for m in g.models)
