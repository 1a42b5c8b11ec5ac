"""The corpus's own purchase and rental advice, reproduced by the recommendation tool."""

from __future__ import annotations

from assistant.tools.recommend import Recommendation, RecommendQuery, recommend

EUR = {"currency": "EUR", "usd_per_eur": 1.08}


def run(**kw: object) -> Recommendation:
    return recommend(RecommendQuery.model_validate({**EUR, **kw}))


def names(r: Recommendation) -> list[str]:
    return [o.gpu for o in r.options]


def test_rtx_5090_is_the_learning_card() -> None:
    r = run(budget=2500, mode="buy")
    top = r.options[0]
    assert (top.kind, top.gpu, top.condition) == ("buy", "GeForce RTX 5090", "new")
    assert top.price_low == 1850.93 and top.price_high == 3000.0
    assert r.goal == "the guide, parts 1–9"


def test_used_rtx_3060_12gb_on_a_tight_budget() -> None:
    r = run(budget=350, mode="buy")
    assert names(r) == ["GeForce RTX 3060 12GB", "GeForce RTX 4060"]
    assert r.options[0].condition == "used"
    assert (r.options[0].price_low, r.options[0].price_high) == (300.0, 600.0)
    used = run(budget=450, mode="buy", condition="used")
    assert names(used) == ["GeForce RTX 3060 12GB"]


def test_used_rtx_3090_for_lora() -> None:
    r = run(budget=800, mode="buy", workload="lora")
    assert names(r) == ["GeForce RTX 3090"]
    assert r.options[0].condition == "used"
    assert r.options[0].fit == "lora fits at 24 GB, the corpus's LoRA threshold (needs about 24 GB)"
    bigger = run(budget=5000, mode="buy", workload="lora")
    assert names(bigger)[0] == "GeForce RTX 3090"
    assert all((o.vram_gb or 0) >= 24 for o in bigger.options)


def test_rent_h100_then_b200_for_parts_4_and_8() -> None:
    r = run(budget=200, mode="rent", guide_part=8)
    assert names(r)[:2] == ["H100 PCIe 80GB", "B200"]
    assert r.options[0].cannot == [
        "Guide part 4 — Modern CUDA (cp.async, TMA, wgmma, tcgen05): lacks tcgen05"
    ]
    assert r.options[1].cannot == [
        "Guide part 4 — Modern CUDA (cp.async, TMA, wgmma, tcgen05): lacks wgmma"
    ]
    assert r.options[0].hours == round(200 / (3.29 / 1.08), 1)
    assert any(n.startswith("The guide's way to spend a learning budget") for n in r.notes)


def test_either_mode_is_a_card_at_home_plus_hopper_and_blackwell_hours() -> None:
    r = run(budget=3000, mode="either", guide_part=9)
    assert [(o.kind, o.gpu) for o in r.options[:3]] == [
        ("buy", "GeForce RTX 5090"),
        ("rent", "H100 PCIe 80GB"),
        ("rent", "B200"),
    ]


def test_a_5090_at_2000_euros_is_only_the_low_end() -> None:
    top = run(budget=2000, mode="buy").options[0]
    assert top.gpu == "GeForce RTX 5090"
    assert top.reasons[-1] == (
        "Buy new at €1,850.93–€3,000.00; within the budget only at the low end of its price range."
    )


def test_parts_named_in_text_or_as_feature_are_a_learning_goal() -> None:
    for r in (run(goal="parties 4 et 8", budget=400), run(feature="part 4", budget=400)):
        assert [(o.kind, o.gpu) for o in r.options[:3]] == [
            ("buy", "GeForce RTX 5060 Ti 16GB"),
            ("rent", "H100 PCIe 80GB"),
            ("rent", "B200"),
        ]
        assert r.cheapest_for_feature == []
