"""Cards weighed for a LoRA hold the model on a lighter base when the 16-bit one does not fit;
many cards that carry the same load are one line; the room a sharded model leaves is said."""

from __future__ import annotations

import re

from assistant import ask
from assistant.agent.offline.skills.workload_fit import precision_bits
from assistant.tools.fit import FitQuery, estimate_fit


def test_precision_bits_come_from_the_formats() -> None:
    assert precision_bits("q4_k_m") == 4 and precision_bits("nf4_dq") == 4
    assert precision_bits("fp8") == 8 and precision_bits("Q6_K") == 6
    assert precision_bits("mixed") == 16 and precision_bits(None, default=0) == 0


def test_a_lora_option_names_the_precision_it_sets() -> None:
    r = estimate_fit(FitQuery(model="FLUX.1-dev", task="lora", gpu="RTX 4090"))
    assert r.verdict == "does_not_fit"
    assert {o.precision for o in r.fits_with} >= {"fp8", "nf4_dq"}
    assert all(o.precision is None for o in r.fits_with if o.change == "gradient checkpointing")


def test_the_card_asked_about_is_checked_not_the_one_someone_else_needs() -> None:
    # the 4090 is what "everyone says"; the question asks about the friend's 8 GB 4060
    text = ask(
        "Flux.1-dev LoRA: everyone says you need a 4090/24gb. anything possible on my friends 8gb 4060?"
    ).text
    head = text.split("\n\n")[0]
    assert "No single card" not in head
    assert head.startswith("**No") and "GeForce RTX 4060" in head and "8 GB" in head


def test_cards_weighed_for_a_lora_hold_it_on_an_fp8_base() -> None:
    head = ask("Flux.1-dev LoRA on a 24 GB RTX 4090: does it fit?").text.split("\n\n")[0]
    assert "GeForce RTX 4090" in head and "fp8" in head


def test_identical_loads_are_one_line_and_the_room_left_is_said() -> None:
    text = ask(
        "Llama 3.1 405B in FP8 on one 8x H200 box: how much room is left for KV cache with 128k "
        "context for 32 concurrent users?"
    ).text
    assert len(re.findall(r"^- .*H200 SXM 141GB: ", text, re.M)) == 1
    assert "- 8 × H200 SXM 141GB: " in text
    m = re.search(r"about ([\d.]+) GB a card \(([\d,.]+) GB in all\) is left", text)
    assert m is not None
    per_card, whole = float(m.group(1)), float(m.group(2).replace(",", ""))
    assert 80 < per_card < 141 and abs(whole - 8 * per_card) < 1


def test_a_lighter_base_answers_for_a_card_given_by_its_memory_only() -> None:
    head = ask("Can I train a Flux LoRA on a 16 GB card?").text.split("\n\n")[0]
    assert head.startswith("**Not as is, yes with") and "16 GB card" in head
