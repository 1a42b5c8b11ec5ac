"""The guide's own worked answers, reproduced by the calculators."""

from __future__ import annotations

import pytest

from assistant.tools.budget import BudgetQuery, plan_budget
from assistant.tools.cost import ForgottenQuery, forgotten_instance
from assistant.tools.spot import SpotQuery, spot_vs_dedicated

USD = {"currency": "USD", "usd_per_eur": 1.08}


def test_spot_vs_dedicated_long_run() -> None:
    # « Spot pour apprendre, dédiée pour un travail long. » 0,80 $/h spot vs 2,50 $/h dedicated:
    # without checkpoints a long run belongs on dedicated (an interruption destroys the work) …
    r = spot_vs_dedicated(SpotQuery(job_hours=24, spot_rate=0.80, dedicated_rate=2.50, **USD))
    assert r.verdict_as_given == "dedicated"
    assert "destroys all the work" in r.reasons[0]
    # … and the good practice is « spot + sauvegarde fréquente + reprise automatique », which
    # « divise la facture par 3 »
    assert r.verdict == "spot_with_checkpoints"
    alt = r.spot_with_checkpoints
    assert alt is not None and alt.checkpoint_interval_h == 0.5
    assert r.savings_factor == pytest.approx(60 / (alt.expected_cost or 0))
    assert r.savings_factor == pytest.approx(3.07, abs=0.01)
    assert "divided by 3.1" in r.reasons[-1]


def test_spot_with_checkpoints_divides_the_bill_by_three() -> None:
    r = spot_vs_dedicated(
        SpotQuery(
            job_hours=24, spot_rate=0.80, dedicated_rate=2.50, checkpoint_interval_h=0.5, **USD
        )
    )
    assert r.verdict == "spot_with_checkpoints"
    assert r.savings_factor == pytest.approx(3.07, abs=0.01)


def test_spot_for_interactive_learning() -> None:
    # a one-hour session of writing and profiling a kernel
    r = spot_vs_dedicated(SpotQuery(job_hours=1, spot_rate=0.80, dedicated_rate=2.50, **USD))
    assert r.verdict == "spot"


def test_budget_of_200_euros() -> None:
    # 0 € free tiers for parts 1–3, 5–7; ~50 € of RTX 4090 / A100; ~100 € for ~20 h of H100 or B200
    # for parts 4 and 8; ~50 € reserve.
    plan = plan_budget(BudgetQuery(budget=200, currency="EUR", usd_per_eur=1.08))
    free, comfort, hopper, reserve = plan.lines
    assert (free.amount, free.parts) == (0.0, [1, 2, 3, 5, 6, 7, 9])
    assert (comfort.amount, comfort.gpu) == (50.0, "GeForce RTX 4090")
    # 50 € = 54 $; RTX 4090 at 0.30–0.90 $/h → 60–180 h ("quelques dizaines d'heures")
    assert (comfort.hours_low, comfort.hours_high) == (pytest.approx(60), pytest.approx(180))
    assert (hopper.amount, hopper.parts, hopper.gpu) == (100.0, [4, 8], "H100 SXM5 80GB")
    # 100 € = 108 $; H100 at 2–5 $/h → 21.6–54 h ("une vingtaine d'heures"); B200 5–12 $/h → 9–22 h
    assert (hopper.hours_low, hopper.hours_high) == (pytest.approx(21.6), pytest.approx(54))
    assert hopper.note == "or 9–22 h of B200"
    assert reserve.amount == 50.0
    assert (plan.allocated, plan.left) == (150.0, 50.0)
    assert any("GTX 1660" in n for n in plan.notes)


def test_budget_only_hopper_parts() -> None:
    plan = plan_budget(BudgetQuery(budget=100, parts=[8, 4], currency="USD", usd_per_eur=1.08))
    assert [line.item for line in plan.lines][0].startswith("Hopper")
    assert plan.lines[0].amount == 75.0 and plan.left == 25.0
    assert plan.lines[0].hours_low == pytest.approx(15.0)


def test_big_budget_mentions_buying() -> None:
    plan = plan_budget(BudgetQuery(budget=3000, currency="EUR", usd_per_eur=1.08))
    assert any("RTX 5090" in n for n in plan.notes)


def test_forgotten_h100_weekend() -> None:
    # « une instance H100 oubliée un week-end : ~400 $ »
    r = forgotten_instance(ForgottenQuery(gpu="H100", **USD))
    assert r.hours == 48
    assert r.cost_low == pytest.approx(48 * 1.47)  # cheapest marketplace listing
    assert r.cost_high == pytest.approx(48 * 11.06)  # GCP on-demand per GPU
    assert r.cost_typical == pytest.approx(48 * 3.99)
    assert r.cost_low < 400 < r.cost_high
    assert r.corpus_note is not None and "about $400" in r.corpus_note
    assert r.corpus_note_fr is not None and "400\u00a0$" in r.corpus_note_fr
    # at AWS's on-demand 6.88 $/h a 60-hour weekend (Friday evening to Monday morning) is ~413 $
    assert forgotten_instance(
        ForgottenQuery(rate_per_hour=6.88, hours=60, **USD)
    ).cost_typical == pytest.approx(412.8)
