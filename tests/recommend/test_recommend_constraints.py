"""Budget too small, power, condition, form and mode: what is filtered out and what is said."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from assistant.tools.recommend import Recommendation, RecommendQuery, recommend

EUR = {"currency": "EUR", "usd_per_eur": 1.08}


def run(**kw: object) -> Recommendation:
    return recommend(RecommendQuery.model_validate({**EUR, **kw}))


def test_budget_too_small_to_buy_says_so_and_gives_closest_and_free_tiers() -> None:
    r = run(budget=50, mode="buy")
    assert r.options == []
    assert [(o.gpu, o.price_low, o.within_budget) for o in r.closest] == [
        ("GeForce RTX 4060", 276.85, False),
        ("GeForce RTX 3060 12GB", 300.0, False),
        ("GeForce RTX 5060 Ti 16GB", 397.22, False),
    ]
    assert r.summary.startswith(
        "Nothing fits €50.00 for the guide, parts 1–9 with these constraints. "
        "Closest: buy GeForce RTX 4060 (new, €276.85)."
    )
    colab, kaggle = r.free_tiers
    assert (colab.name, colab.gpu) == ("Google Colab (free tier)", "T4")
    assert kaggle.name == "Kaggle notebooks (free)"
    assert "Guide part 4 — Modern CUDA (cp.async, TMA, wgmma, tcgen05)" in colab.cannot
    assert "Megakernels (guide part 8)" in colab.partly
    assert "Guide part 1 — Foundations" in colab.covers


def test_zero_budget_for_the_first_parts_is_the_free_tiers() -> None:
    r = run(budget=0, guide_part=3)
    assert r.options == []
    assert r.free_tiers[0].cannot == []
    assert r.summary == (
        "The free tiers (Google Colab's T4, Kaggle) already cover the guide, parts 1–3. "
        "Nothing else is needed to start."
    )


def test_less_than_an_hour_of_rental_does_not_fit() -> None:
    r = run(budget=1, mode="rent", feature="wgmma")
    assert r.options == []
    assert r.closest[0].kind == "rent" and r.closest[0].gpu == "H100 SXM5 80GB"


def test_200_euros_rents_rather_than_buys() -> None:
    r = run(budget=200, guide_part=9)
    assert [o.kind for o in r.options[:2]] == ["rent", "rent"]
    assert [o.gpu for o in r.options[:2]] == ["H100 PCIe 80GB", "B200"]
    plan = next(n for n in r.notes if n.startswith("The guide's way"))
    assert "free tiers first" in plan and "H100" in plan


def test_power_limit_filters_cards_to_buy() -> None:
    r = run(budget=3000, mode="buy", max_power_w=200)
    assert [o.gpu for o in r.options] == [
        "GeForce RTX 5060 Ti 16GB",
        "GeForce RTX 4060 Ti 16GB",  # priced since the purchase data gained its rows
        "GeForce RTX 3060 12GB",
        "GeForce RTX 4060",
    ]
    assert all(o.tdp_w is not None and o.tdp_w <= 200 for o in r.options)
    left_out = next(n for n in r.notes if n.startswith("Left out for drawing more than 200 W"))
    assert "GeForce RTX 5090" in left_out
    assert "The power limit applies to cards you buy (board power / TDP), not to rentals." in (
        r.assumptions
    )


def test_power_limit_does_not_apply_to_rentals() -> None:
    r = run(budget=500, mode="rent", feature="wgmma", max_power_w=100)
    assert r.options[0].gpu == "H100 PCIe 80GB" and (r.options[0].tdp_w or 0) > 100


def test_condition_new_excludes_used_cards() -> None:
    r = run(budget=450, mode="buy", condition="new")
    assert [(o.gpu, o.condition) for o in r.options] == [
        ("GeForce RTX 5060 Ti 16GB", "new"),
        ("GeForce RTX 4060", "new"),
    ]


def test_form_desktop_only_buys_and_cloud_only_rents() -> None:
    assert {o.kind for o in run(budget=3000, form="desktop").options} == {"buy"}
    assert {o.kind for o in run(budget=3000, form="cloud").options} == {"rent"}


def test_mode_contradicting_form_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="contradicts"):
        RecommendQuery(mode="buy", form="cloud")


def test_every_option_carries_sources_and_a_price() -> None:
    r = run(budget=3000, guide_part=9)
    for o in r.options:
        assert o.sources and o.within_budget
        assert (o.price_low if o.kind == "buy" else o.rate_per_hour) is not None
    assert r.sources


def test_the_choice_is_limited_to_the_cards_named() -> None:
    from assistant.tools.recommend import RecommendQuery, recommend

    r = recommend(
        RecommendQuery(
            mode="buy", workload="training", candidates=["RTX 3060 12GB", "RTX 4060", "RTX 9999"]
        )
    )
    assert r.candidates == ["GeForce RTX 3060 12GB", "GeForce RTX 4060"]
    assert [o.gpu for o in r.options] == ["GeForce RTX 3060 12GB"]
    assert "Of the cards named, best option" in r.summary
    assert any(n.startswith("GeForce RTX 4060 is left out") and "8 GB" in n for n in r.left_out)
    assert any("'RTX 9999' is not in the GPU catalog" in n for n in r.notes)


def test_a_named_card_of_another_maker_is_weighed() -> None:
    from assistant.tools.recommend import RecommendQuery, recommend

    r = recommend(RecommendQuery(mode="buy", workload="llm_inference", model_params_b=8,
                                 candidates=["RX 7900 XTX", "RTX 4090"]))  # fmt: skip
    weighed = {o.gpu for o in r.options} | {n.split(" is left out")[0] for n in r.left_out}
    assert "Radeon RX 7900 XTX" in weighed  # not dropped for not running CUDA
