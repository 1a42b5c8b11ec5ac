"""Several features asked of one card or more: a matrix of each feature on each card, with the
compute capabilities that have it, every feature checked."""

from __future__ import annotations

import re

from assistant import ask


def test_each_feature_listed_is_checked_on_each_card() -> None:
    text = ask(
        "cp.async, TMA, wgmma, tcgen05: which do my RTX 4070 and the H100 at work have?"
    ).text
    head = text.split("\n\n")[0]
    assert "GeForce RTX 4070 (`sm_89`): cp.async yes; " in head
    assert re.search(
        r"H100 SXM5 80GB \(`sm_90a`\): cp\.async, Tensor Memory Accelerator, wgmma yes; tcgen05 no",
        head,
    )
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| ([^|]+?) \| (.+) \|$", text, re.M)}
    assert rows["wgmma"].startswith("No | Yes | 9.0 (`sm_90a`)")
    assert rows["tcgen05"].startswith("No | No | 10.0 (`sm_100a`)")
    # the feature no card has is where the way to get it points
    assert re.search(r"For tcgen05, none of these cards: .*B200", text)


def test_one_feature_on_several_cards_keeps_its_verdict_table() -> None:
    text = ask("Can the T4 or the A100 do cp.async?").text
    assert "| Card | Verdict | Why |" in text


def test_fp16_compute_follows_the_throughput_table() -> None:
    from assistant.tools.capability import CapabilityQuery, check_capability

    def verdict(gpu: str) -> str:
        return check_capability(CapabilityQuery(gpu=gpu, topic="fp16 support")).verdict

    # 16-bit FP results per clock per SM: none on 5.2, 2 on 6.1 (1/64 of FP32), 128 on 6.0
    assert verdict("GTX 970") == "no"
    assert verdict("GTX 1080") == "partial"
    assert verdict("Tesla P100") == "yes" and verdict("RTX 3060") == "yes"
    head = ask("Can GTX1080 support FP16? Its compute capability is 6.1").text.split("\n\n")[0]
    assert (
        head.startswith("**Partly**")
        and "1/64 of the FP32 rate" in ask("does the GTX 1080 support fp16?").text
    )


def test_a_matrix_shows_where_the_guide_says_otherwise() -> None:
    text = ask("Does the RTX 5090 have tcgen05 and TMEM like the B200?").text
    assert "| tcgen05 | No | Yes |" in text
    assert "⚠️ The guide" in text and "sm_120" in text
