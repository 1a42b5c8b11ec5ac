"""Who a card belongs to and what a size written with it means: the cards a readme mentions are
the project's ('is the GPU mentioned in the readme an H100 or A100?'), a size written
with a card's name is that card's own and never the others' added up ('p106-090 6gb shows up as
a gtx 1060 3gb'). Local currencies (đ, KM, FDJ), a power supply's rating, 'ça rentre' (it fits,
not renting), a colocation fee written beside the purchase and the card rented instead."""

from __future__ import annotations

import pytest

from assistant import ask
from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.premises import pooled_memory
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.money import parse_money


def test_the_cards_a_readme_mentions_are_the_project_s_not_the_asker_s() -> None:
    ent = extract_entities(
        "Minimum VRAM requirements — Can I train the model with a single RTX4090? Is the "
        "single GPU mentioned in the readme an H100 or A100?"
    )
    assert {"H100 SXM5 80GB", "A100 80GB SXM4"} <= set(ent.required_cards)
    assert not {"H100 SXM5 80GB", "A100 80GB SXM4"} & set(ent.owned_gpus)


@pytest.mark.parametrize(
    ("text", "pooled"),
    [
        ("p106-090 6gb отображается как gtx 1060 3gb — Влияет ли это на что-то?", False),
        ("my 4070 Ti Super 16GB next to a 3060 12GB: will ComfyUI see 28 GB?", True),
        ("I have a 3090 24gb and a 3060 12gb, so 36gb for a 70B?", True),
        ("T4 x2, so 32 GB for my model?", True),
    ],
)
def test_a_size_written_with_a_card_is_its_own_not_a_sum(text: str, pooled: bool) -> None:
    reading = read_turn(Conversation(text))
    assert pooled_memory(reading.text, reading.entities) is pooled


@pytest.mark.parametrize(
    ("text", "amount", "currency", "per"),
    [
        ("EVN bills me around 3.000đ per kWh", 3000.0, "VND", "kwh"),
        ("colocate it for ~150 KM/month", 150.0, "BAM", "month"),
        ("a server at ~9,000 KM incl. VAT", 9000.0, "BAM", None),
        ("l'électricité nous coûte environ 60 FDJ le kWh", 60.0, "DJF", "kwh"),
    ],
)
def test_local_currencies_are_read(
    text: str, amount: float, currency: str, per: str | None
) -> None:
    money = parse_money(text)
    assert [(m.amount, m.currency, m.per) for m in money] == [(amount, currency, per)]


def test_kilometres_are_not_convertible_marks() -> None:
    assert parse_money("I drove 150 km to the shop") == []


def test_a_supply_s_rating_is_not_the_machine_s_draw() -> None:
    ent = extract_entities(
        "une RTX 5060 Ti 16 Go à mettre dans le PC actuel (alim 450 W), ou garder la 1060"
    )
    assert ent.psu_w == 450.0
    assert ent.wall_w is None
    # a draw at the wall stays one beside a supply's rating
    ent = extract_entities("my PC draws 450 W at the wall with a 750 W PSU")
    assert (ent.wall_w, ent.psu_w) == (450.0, 750.0)


@pytest.mark.parametrize(
    ("text", "fit", "rent"),
    [
        ("est-ce que ça rentre dans mes 12 Go ?", True, False),
        ("ça rentrera pas dans 8 Go", True, False),
        ("rent an H100 for a week", False, True),
        ("renting or buying?", False, True),
    ],
)
def test_fitting_in_french_is_not_renting(text: str, fit: bool, rent: bool) -> None:
    named = concepts_in(text)
    assert ("fit" in named, "rent" in named) == (fit, rent)


def test_a_colocation_fee_in_another_clause_is_a_cost_of_owning_and_the_rented_card_is_named() -> (
    None
):
    text = ask(
        "Option A: buy a server with one RTX 5090 (~9,000 KM incl. VAT) and colocate it for ~150 "
        "KM/month. Option B: keep renting 1x L40S on-demand at about $1.85/h, 24/7. Which is "
        "cheaper over 2 years?"
    ).text
    head = text.split("\n\n")[0]
    assert "renting L40S" in head and "to own GeForce RTX 5090" in head
    assert "running costs" in head and "KM 150 a month" in text
