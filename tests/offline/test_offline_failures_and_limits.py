"""A failure report is explained before any fit verdict; a power limit the asker would set is
priced beside the card's own draw; a Radeon missing from AMD's ROCm tables is no plain "yes";
"how much faster" asks for speed."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.concepts import concepts_in, reports_failure
from assistant.agent.offline.entities import extract_entities
from assistant.tools.capability import CapabilityQuery, check_capability


def test_failure_reports_are_told_from_questions() -> None:
    assert reports_failure("FLUX is very slow on my 3090 with sequential offload")
    assert reports_failure("torch.OutOfMemoryError: CUDA out of memory while loading Mistral 7B")
    assert reports_failure("q8 runs at 0.4 t/s on my Mac")
    assert not reports_failure("How fast is Llama 3 8B on an RTX 4090?")
    assert not reports_failure("Will Llama 3 70B fit on two 3090s at 4-bit?")


def test_how_much_faster_asks_for_speed() -> None:
    assert "speed" in concepts_in("We can get H100 or H200 nodes: how much faster is the H200?")
    assert "speed" in concepts_in("Mac mini M4 Pro ou une 3090 : lequel va le plus vite ?")
    assert "speed" not in concepts_in("Which of the H100 and H200 has more memory?")


def test_a_power_limit_is_read_apart_from_the_draw() -> None:
    ent = extract_entities("Ma 4090 tourne 4h/jour. Et si je la bride à 300W ?")
    assert ent.power_cap_w == 300
    assert extract_entities("My rig draws 300 W at the wall").power_cap_w is None


def test_a_capped_card_is_priced_at_its_own_draw_and_at_the_cap() -> None:
    text = ask(
        "My RTX 4090 renders images about 4 hours a day, every day, at 0.20 EUR/kWh. "
        "What does that cost per year, and what if I power limit it to 300W?"
    ).text
    head = text.split("\n\n")[0]
    # 450 W × 4 h × 365 d × 0.20 = 131.40 EUR; at 300 W: 87.60 EUR.
    assert "450 W" in head and "131" in head
    assert "300 W" in head and "87" in head


def test_a_radeon_off_the_rocm_tables_gets_no_plain_yes() -> None:
    unlisted = check_capability(CapabilityQuery(gpu="Radeon RX 580", topic="rocm_hip"))
    assert unlisted.rocm_supported is False and unlisted.verdict == "partial"
    listed = check_capability(CapabilityQuery(gpu="Radeon RX 7900 XTX", topic="rocm_hip"))
    assert listed.rocm_supported is True and listed.verdict == "yes"


def test_how_much_faster_gets_the_paper_ratios_first() -> None:
    head = ask("H100 vs A100: how much faster for training?").text.split("\n\n")[0]
    # 989 / 312 TFLOPS dense FP16; 3,350 / 2,039 GB/s
    assert head.startswith("**On paper, H100 SXM5 80GB is about 3.2× in dense FP16/BF16")
    assert "1.6× in memory bandwidth" in head


def test_an_installed_driver_rules_out_newer_wheels() -> None:
    from assistant.tools.software import SoftwareSupportQuery, software_support

    newer = software_support(SoftwareSupportQuery(gpu="H100", software="PyTorch cu130, driver 535"))
    assert newer.supported == "no" and "driver 535 is older than the 580" in newer.reason
    any_wheel = software_support(SoftwareSupportQuery(gpu="H100", software="PyTorch, driver 535"))
    assert any_wheel.supported == "partial"
    assert {w.variant for w in any_wheel.wheels if w.how == "driver too old"} >= {"cu130"}
    assert any(w.runs and w.variant == "cu128" for w in any_wheel.wheels)


def test_flashattention_versions_are_checked_against_the_card() -> None:
    def verdict(gpu: str, topic: str) -> str:
        return check_capability(CapabilityQuery(gpu=gpu, topic=topic)).verdict

    assert verdict("RTX 4090", "flash_attention_3") == "no"  # Hopper only: no wgmma on sm_89
    assert verdict("H100", "flash_attention_3") == "yes"
    assert verdict("T4", "flash_attention_2") == "no"  # needs compute capability 8.0
    assert verdict("RTX 3090", "flash_attention_2") == "yes"
    assert extract_entities("Flash Attention 3 fp8 support 4090?").topics[0] == "flash_attention_3"


def test_an_error_the_estimate_would_contradict_is_explained_not_denied() -> None:
    text = ask(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (23.69 GiB total "
        "capacity) while fine-tuning Mistral 7B with LoRA on my 3090. What should I do?"
    ).text
    assert not text.startswith("**Yes, it fits**")
    assert "**By this estimate it should fit**" in text
    assert "something the estimate leaves out" in text


def test_a_rate_and_a_purchase_price_with_months_to_win_is_a_break_even() -> None:
    head = ask(
        "On loue 4x H100 à 2,10 $/h chacune, 24/7. On nous propose d'acheter un serveur 4x H100 PCIe "
        "pour 140 000 $. Au bout de combien de mois on est gagnants ?"
    ).text.split("\n\n")[0]
    # 140,000 $ / (4 × 2.10 $/h − electricity) ≈ 17,450 h ≈ 24 months at 24 h a day
    assert head.startswith("**L'achat de 4 × H100 PCIe 80GB est rentabilisé après")
    assert "24,2 mois" in head


def test_support_of_an_nvidia_card_is_its_software_releases() -> None:
    answer = ask("Is the RTX 5090 supported? The new CUDA shows errors on my 5090.")
    assert [c.name for c in answer.tool_calls if c.name != "search_corpus"] == ["software_support"]
    assert "CUDA 12.8" in answer.text


def test_cards_weighed_for_training_get_ratios_and_no_quote_on_an_unasked_feature() -> None:
    text = ask(
        "Sur Colab Pro j'ai le choix entre T4, L4 et A100 pour entraîner un petit ViT : ça change quoi ?"
    ).text
    assert text.startswith("**Sur le papier, A100 80GB SXM4 fait environ 4,8×")
    assert "entre les deux : L4" in text
    assert "E4M3" not in text  # the FP8 formats entry bears on no word of this question
