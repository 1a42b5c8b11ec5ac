"""Bills and rates read as the asker wrote them: a price per kWh in a currency written without
decimals, hours 'every evening', a bill asked with no card named. A reported rate leads with the
speed, not with a fit estimate it does not contradict; a chapter of a document is not the guide's;
newer error messages lead with the entry that explains them."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.error_messages import pasted as pasted_message
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.knowledge.entries import get_entry
from assistant.money import parse_money


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("EPM bills me about 1,050 COP per kWh", 1050.0, "COP"),
        ("₩1,200 per kWh here", 1200.0, "KRW"),
        ("a cloud GPU at 1,500 $/h", 1.5, "USD"),  # a rate in a currency with decimals
        ("0,200 €/kWh", 0.2, "EUR"),
    ],
)
def test_a_rate_in_a_currency_without_decimals_groups_thousands(
    text: str, amount: float, currency: str
) -> None:
    money = parse_money(text)
    assert [(m.amount, m.currency) for m in money] == [(amount, currency)]


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        ("~3 hours every evening", 3.0),
        ("3 hours each evening", 3.0),
        ("je fais 3 heures tous les soirs", 3.0),
        ("2 heures chaque soir", 2.0),
        ("2 h par semaine", 2 / 7),
    ],
)
def test_hours_every_evening_are_hours_a_day(text: str, per_day: float) -> None:
    durations = parse_durations(text)
    assert durations and durations[0].per_day == pytest.approx(per_day)


def test_a_bill_asked_with_no_card_is_given_for_each_hundred_watts() -> None:
    text = (
        "Ma facture c'est environ 1,60 DH le kWh. Si je génère des images ~3 h par jour avec la "
        "carte à fond, ça me coûte combien par mois ?"
    )
    answer = ask(text)
    assert "power_cost" in [c.name for c in answer.tool_calls]
    # 0.1 kW × 3 h × 30 days × 1.60 MAD = 14.40 MAD
    assert answer.text.startswith("**Chaque tranche de 100 W")
    assert "14,40 MAD par mois" in answer.text.split("\n")[0].replace("\xa0", " ")


def test_a_bill_for_a_named_card_keeps_its_own_draw() -> None:
    answer = ask("Electricity per month for my RTX 4090, 3 hours every evening at $0.24/kWh?")
    first = answer.text.split("\n")[0]
    assert "100 W" not in first and "GeForce RTX 4090" in first and "3 h a day" in first


def test_a_reported_rate_leads_with_the_speed_and_no_failed_fit() -> None:
    answer = ask("my RTX 3060 12GB runs Llama 3 8B at only 5 tokens/s, why so slow?").text
    assert answer.startswith("**5 tokens/s is")
    assert "should fit" not in answer and "What you see differs" not in answer


def test_an_out_of_memory_report_still_meets_the_estimate_that_says_it_fits() -> None:
    answer = ask("Llama 3 8B on my RTX 3060 12GB: CUDA out of memory, why? it should fit").text
    assert "By this estimate it should fit" in answer


@pytest.mark.parametrize(
    ("text", "coverage"),
    [
        ("when I paste a 40 page chapter it sits there for a minute", False),
        ("j'ai collé un chapitre de 40 pages et il attend une minute", False),
        ("Which chapters of the guide work on a Kaggle P100?", True),
        ("can I follow chapter 8 on my card", True),
    ],
)
def test_a_chapter_of_a_document_is_not_the_guide(text: str, coverage: bool) -> None:
    assert ("coverage" in concepts_in(text)) is coverage


@pytest.mark.parametrize(
    ("pasted", "entry_id"),
    [
        (
            "RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has "
            "unsupported display driver / cuda driver combination",
            "cuda-error-803-driver-mismatch",
        ),
        (
            "nvidia-docker | Error: unsupported CUDA version: driver 8.0 < image 9.0.176",
            "cuda-docker-driver",
        ),
    ],
)
def test_driver_mismatch_messages_lead_with_their_entry(pasted: str, entry_id: str) -> None:
    found = pasted_message(pasted)
    assert found is not None and entry_id in found.entries
    entry = get_entry(entry_id, "en")
    assert entry is not None and get_entry(entry_id, "fr") is not None
    assert ask(f"Getting this when I start it, why? {pasted}").text.startswith(entry.answer[:60])


def test_the_ddp_speed_up_entry_exists_in_both_languages() -> None:
    for language in ("en", "fr"):
        entry = get_entry("ddp-speedup-epoch-time", language)
        assert entry is not None and len(entry.asked) >= 2


@pytest.mark.parametrize(
    ("text", "price"),
    [
        (
            "We have about 40,000 € in total. Option 1: buy an RTX PRO 6000 Blackwell (~32,000 € "
            "at the reseller). Option 2: rent H100s at ~2.50 €/h, about 150 h a month. Which one?",
            32000.0,
        ),
        ("Budget 3000 €: buy a 4090 for 2000 € or rent one at 0.40 €/h for 4 h a day?", 2000.0),
        ("Buy a 4090 for 1,800 € or rent one at 0.40 €/h for 4 h a day?", 1800.0),
    ],
)
def test_the_bought_cards_own_price_is_its_price_not_the_budget(text: str, price: float) -> None:
    calls = [c for c in ask(text).tool_calls if c.name == "rent_vs_buy"]
    assert calls and calls[0].arguments["purchase_price"] == pytest.approx(price)


def test_a_machine_on_all_day_that_works_some_hours_idles_the_rest() -> None:
    answer = ask(
        "Our RTX 5090 tower stays on 24/7, idle most of the time and maybe 4 h a day under load. "
        "At $0.11/kWh, what is that per month?"
    )
    calls = [c for c in answer.tool_calls if c.name == "power_cost"]
    assert calls and calls[0].arguments["hours_per_day"] == 4.0
    assert calls[0].arguments["idle_hours_per_day"] == 20.0
    assert "idle at" in answer.text.split("\n")[0]


def test_a_clause_asking_about_the_model_stated_before_it_is_a_fit_question() -> None:
    text = (
        "We are thinking about Mistral 7B. On a 24 GB card like the L4, does it fit in full "
        "precision? And how many tokens per second for one user?"
    )
    reading = read_turn(Conversation(text))
    assert reading.intents[:2] == ["workload_fit", "llm_speed"]


def test_cards_that_all_can_get_a_pick_only_when_the_asker_is_buying() -> None:
    asked = ask("Can the H800 and the RTX 4090 both do TF32?").text
    assert asked.startswith("**H800") and "At a similar price" not in asked
    buying = ask(
        "I want to buy one to learn BF16 training: RTX 3060 12GB or RTX 4060 8GB, which one "
        "should I buy?"
    ).text
    assert "At a similar price, take the **GeForce RTX 3060 12GB**" in buying
