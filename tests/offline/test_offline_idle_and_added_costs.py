"""A machine left on 24/7 pays for its idle hours in a rent-vs-buy; an amount added to a purchase
('+ ~800 € to upgrade my PC') is part of its price; a recommendation with nothing to go on is no
shopping list; pasted errors open with the entry that explains them."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.tools.buy import RentVsBuyQuery, rent_vs_buy

BOX = {
    "purchase_price": 40_000, "rent_rate": 5.0, "hours_per_day": 8, "days_per_month": 22,
    "power_w": 1500, "electricity_price_per_kwh": 0.14, "currency": "USD",
}  # fmt: skip


def test_an_always_on_box_pays_for_its_idle_hours() -> None:
    working_only = rent_vs_buy(RentVsBuyQuery(**BOX))
    on_all_day = rent_vs_buy(RentVsBuyQuery(**BOX, idle_power_w=300, always_on=True))
    # 730 h in a month less 176 h of use: 554 h at 0.3 kW and $0.14, $23.27 a month.
    assert on_all_day.idle_hours_per_month == pytest.approx(554, abs=1)
    assert on_all_day.idle_per_month == pytest.approx(23.27, abs=0.05)
    assert on_all_day.break_even_months == pytest.approx(48.8, abs=0.2)
    assert working_only.break_even_months is not None and on_all_day.break_even_months is not None
    assert working_only.break_even_months < on_all_day.break_even_months
    assert any("Idle: 300 W" in a for a in on_all_day.assumptions)


def test_idle_hours_without_always_on_are_those_given_per_day() -> None:
    r = rent_vs_buy(RentVsBuyQuery(**BOX, idle_power_w=300, idle_hours_per_day=4))
    assert r.idle_hours_per_month == pytest.approx(88)
    assert rent_vs_buy(RentVsBuyQuery(**BOX, idle_power_w=300)).idle_per_month is None


def test_the_question_s_idle_draw_reaches_the_break_even() -> None:
    answer = ask(
        "Rent or buy? 2x H100 at ~$5/h total, 8-hour workday, 22 days a month, vs buying the "
        "~$40k box. We pay $0.14/kWh, the box pulls ~1.5 kW under load and ~300 W idle (it stays "
        "on 24/7). Break-even?"
    )
    args = next(c.arguments for c in answer.tool_calls if c.name == "rent_vs_buy")
    assert args["idle_power_w"] == 300 and args["always_on"] is True
    assert "48.8 months" in answer.text and "300 W idle" in answer.text


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("acheter une RTX 5090 (~2 400 € TVAC, + ~800 € pour adapter mon PC) ou louer", 3200),
        ("I have 1000 euros plus 200 euros from selling my old card", 1200),
        ("a 4090 at $1,800 or two 3090s at $700 each", 1800),
    ],
)
def test_an_amount_added_to_the_one_before_is_part_of_it(text: str, total: float) -> None:
    assert extract_entities(text).purchase_total == total


def test_a_recommendation_with_no_goal_budget_or_card_lists_no_picks() -> None:
    text = ask("Which GPU card do you recommend? Does it need 32 GB or 11 GB only?").text
    assert "question does not say" in text
    assert "**Recommended:**" not in text and "Correction to the guide" not in text
    budget = ask("Which GPU should I buy with 600 euros?").text
    assert "Within this budget" in budget and "**Recommended:**" in budget


@pytest.mark.parametrize(
    ("question", "entry", "opening"),
    [
        (
            "Is 2GB of GPU memory enough for 1080p video? I'm getting \"Check failed: error == "
            'cudaSuccess (2 vs. 0) out of memory"',
            "cuda-error-2-out-of-memory",
            "Error 2 is CUDA's `cudaErrorMemoryAllocation`",
        ),
        (
            "RuntimeError: Found NVIDIA GeForce GTX 1080 Ti which is too old to be supported by "
            "the triton GPU compiler, which is used as the backend. Any way around it?",
            "triton-old-gpu",
            "Because `torch.compile` generates its GPU kernels with Triton",
        ),
        (
            "4x RTX 2080 8GB: W bfc_allocator.cc:219] Allocator (GPU_0_bfc) ran out of memory "
            "trying to allocate 2.14GiB. The caller indicates that this is not a failure. Is it "
            "a memory problem?",
            "framework-preallocates-gpu-memory",
            "Because both reserve GPU memory up front",
        ),
    ],
)
def test_a_pasted_error_opens_with_its_entry(question: str, entry: str, opening: str) -> None:
    answer = ask(question)
    assert opening in answer.text.split("\n\n")[0]
    assert any(entry in (c.chunk_id or "") for c in answer.citations)


def test_a_compute_capability_1x_card_gets_its_last_toolkit() -> None:
    english = ask("Which CUDA version can I use with my GeForce 8400 GS?").text
    assert english.startswith("**CUDA 6.5 is the newest CUDA toolkit for GeForce 8400 GS")
    french = ask("Quelle version de CUDA pour ma GTX 260 ?").text
    assert "CUDA 6.5" in french.split("\n\n")[0] and "sm_13" in french


@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("我的 RTX 3060 12GB 能跑 Qwen2.5 14B 吗？", "以下为英文回答"),
        ("RTX 4090 두 장으로 70B 모델을 돌릴 수 있나요?", "영어로 답변합니다"),
        ("RTX 4090で70Bモデルは動きますか？", "英語での回答です"),
    ],
)
def test_a_question_in_chinese_japanese_or_korean_is_told_the_answer_is_english(
    question: str, note: str
) -> None:
    text = ask(question).text
    assert note in text.split("\n\n")[0]
    assert "以下为英文回答" not in ask("Can my RTX 3060 run Qwen2.5 14B?").text


def _spaced(text: str) -> str:
    """French figures with their narrow and non-breaking spaces as plain spaces."""
    return text.replace("\u202f", " ").replace("\xa0", " ")


def test_a_server_s_stated_draw_is_the_whole_machine_s() -> None:
    english = ask(
        "Our server with 4x A100 draws about 2.4 kW at the PDU, on 24/7. Electricity is "
        "$0.10/kWh. What does it cost a year?"
    ).text
    assert "2,400 W" in english.split("\n\n")[0] and "$2,102 a year" in english
    french = _spaced(
        ask(
            "Un serveur 2x L40S tire environ 1,2 kW, allumé 24h/24. On paie 0,20 €/kWh. Combien "
            "par an ?"
        ).text
    )
    assert "1 200 W" in french.split("\n\n")[0] and "2 102 €" in french
    each = ask("A server of 8 H100 at 700 W each runs 24/7 at 0.20 €/kWh: cost per year?").text
    assert "8 × H100" in each.split("\n\n")[0]


def test_a_share_of_busy_time_with_an_idle_draw_is_a_machine_on_all_day() -> None:
    text = _spaced(
        ask(
            "Un serveur 4x L40S tire environ 1,85 kW en charge et 0,35 kW au repos. On vise 60 % "
            "d'occupation sur l'année. On paie 0,17 €/kWh HT et notre PUE est d'environ 1,4. "
            "Combien par an ?"
        ).text
    )
    # 0.6 × 8,760 h at 1.85 kW + 0.4 × 8,760 h at 0.35 kW, × 1.4, at 0.17 €: 2,606 € a year
    assert "2 606 €" in text.split("\n\n")[0]


def test_readings_of_occupancy_pue_options_and_forgotten_instances() -> None:
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.quantities import read_pue

    assert extract_entities("It idles at 300 W. We aim for 60 % occupancy.").utilisation == 0.6
    assert extract_entities("The box is idle about 80 % of the time.").utilisation == pytest.approx(
        0.2
    )
    assert read_pue("notre PUE est d'environ 1,4") == 1.4
    assert extract_entities("Option A: 2x RTX PRO 6000 Blackwell. Option B: six RTX 5090s.").options
    assert "forgotten" in concepts_in("I forgot 8x H100 running for 12 hours, what did it cost?")
    assert "forgotten" not in concepts_in("Forgotten deprecated label on GFX906 GPUs in the docs")
