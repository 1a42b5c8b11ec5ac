"""Feature goals: the tcgen05 correction, and the cheapest hardware that exercises a feature."""

from __future__ import annotations

from assistant.tools.recommend import Recommendation, RecommendQuery, recommend

EUR = {"currency": "EUR", "usd_per_eur": 1.08}
USD = {"currency": "USD"}


def run(**kw: object) -> Recommendation:
    return recommend(RecommendQuery.model_validate(kw))


def every_gpu(r: Recommendation) -> list[str]:
    return [o.gpu for o in [*r.options, *r.closest]]


def test_tcgen05_to_buy_is_nothing_and_the_guide_is_corrected() -> None:
    r = run(feature="tcgen05", mode="buy", budget=5000, **EUR)
    assert r.options == [] and r.closest == []
    assert "GeForce RTX 5090" not in every_gpu(r)
    corrections = [n for n in r.notes if n.startswith("Correction to the guide")]
    assert any("neither tcgen05 nor Tensor Memory" in n for n in corrections)
    assert any("Learning tcgen05 means renting a B200" in n for n in corrections)
    cheapest = r.cheapest_for_feature[0]
    assert cheapest.topic == "tcgen05" and cheapest.buy is None
    assert cheapest.rent is not None and (cheapest.rent.gpu, cheapest.rent.verdict) == (
        "B200",
        "yes",
    )
    assert cheapest.note is not None and cheapest.note.startswith(
        "No card with a purchase price in the data has tcgen05"
    )


def test_learning_tcgen05_means_renting_a_b200() -> None:
    for r in (run(feature="tcgen05", **EUR), run(goal="je veux apprendre tcgen05", **EUR)):
        assert [(o.kind, o.gpu) for o in r.options] == [("rent", "B200")]
        assert r.options[0].verdicts == {"tcgen05": "yes"}
        assert "GeForce RTX 5090" not in every_gpu(r)


def test_the_5090_learning_card_comes_with_the_tcgen05_correction() -> None:
    r = run(budget=2500, mode="buy", **EUR)
    assert r.options[0].gpu == "GeForce RTX 5090"
    assert "Guide part 4 — Modern CUDA (cp.async, TMA, wgmma, tcgen05): lacks wgmma, tcgen05" in (
        r.options[0].cannot
    )
    assert any("sm_120 (RTX 50 series) has neither tcgen05 nor Tensor Memory" in n for n in r.notes)


def test_cheapest_for_wgmma_is_a_rented_h100() -> None:
    r = run(feature="wgmma", **USD)
    c = r.cheapest_for_feature[0]
    assert c.buy is None
    assert c.rent is not None and (c.rent.gpu, c.rent.low) == ("H100 SXM5 80GB", 1.47)
    assert {o.gpu for o in r.options} <= {"H100 PCIe 80GB", "H100 SXM5 80GB", "H200 SXM 141GB"}
    assert r.options[0].gpu == "H100 PCIe 80GB" and r.options[0].rate_per_hour == 3.29


def test_cheapest_for_fp8_is_an_ada_card_or_an_l4() -> None:
    c = run(feature="fp8", **EUR).cheapest_for_feature[0]
    assert c.buy is not None and (c.buy.gpu, c.buy.condition, c.buy.low) == (
        "GeForce RTX 4060",
        "new",
        round(299 / 1.08, 2),
    )
    assert c.rent is not None and (c.rent.gpu, c.rent.low) == ("L4", round(0.27 / 1.08, 2))


def test_cheapest_for_fp4_is_a_5060_ti_to_buy_and_an_rtx_5090_to_rent() -> None:
    c = run(feature="fp4", **USD).cheapest_for_feature[0]
    assert c.topic == "fp4_fp6"
    assert c.buy is not None and (c.buy.gpu, c.buy.low) == ("GeForce RTX 5060 Ti 16GB", 429.0)
    assert c.rent is not None and (c.rent.gpu, c.rent.low, c.rent.verdict) == (
        "GeForce RTX 5090",
        0.3,
        "yes",
    )


def test_megakernels_as_a_feature_rents_hopper_first() -> None:
    r = run(feature="megakernels", **USD)
    assert r.goal == "Megakernels (guide part 8)"
    assert r.options[0].gpu == "H100 PCIe 80GB" and r.options[0].verdicts == {"megakernels": "yes"}
    c = r.cheapest_for_feature[0]
    assert c.rent is not None and c.rent.gpu == "H100 SXM5 80GB"


def test_unknown_feature_is_a_value_with_suggestions() -> None:
    r = run(feature="wgmmaa", **EUR)
    assert r.options == []
    assert r.summary == "'wgmmaa' is not a known feature or topic."
    assert r.suggestions[0] == "wgmma"
