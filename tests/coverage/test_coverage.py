"""Guide coverage of a card, a platform or a budget, from the topics' requirements."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main
from assistant.knowledge.platforms import find_platform, load_platforms
from assistant.tools.capability import CapabilityQuery, check_capability
from assistant.tools.coverage import CoverageQuery, coverage


def test_kaggle_p100_cannot_do_parts_3_and_4_with_reasons() -> None:
    result = coverage(CoverageQuery(platform="Which chapters can't I do on a Kaggle P100?"))
    assert result.gpu == "Tesla P100 PCIe 16GB" and result.platform == "Kaggle notebooks (P100)"
    cannot = {p.part: p for p in result.parts if p.coverage == "not"}
    assert sorted(cannot) == [3, 4]
    assert "CC 7.0" in " ".join(cannot[3].reasons)  # Nsight dropped Pascal
    assert cannot[4].missing == ["cp_async"] and cannot[4].cheapest_alternative
    assert "Cannot follow: part 3, 4" in result.message
    assert "Impossible : partie 3, 4" in result.message_fr
    assert any(s.date is not None for s in result.sources)  # the dated notebook-tier row


def test_verdicts_are_the_capability_checks() -> None:
    result = coverage(CoverageQuery(gpu="RTX 3060"))
    for part in result.parts:
        verdict = check_capability(CapabilityQuery(gpu="RTX 3060", topic=part.topic)).verdict
        assert {"yes": "full", "partial": "partly", "no": "not"}.get(
            verdict, "unknown"
        ) == part.coverage
    assert len([p for p in result.parts if p.part]) == 9


def test_platforms_mac_amd_colab_and_t4x2() -> None:
    mac = coverage(CoverageQuery(platform="a Mac"))
    amd = coverage(CoverageQuery(platform="an AMD card"))
    colab = coverage(CoverageQuery(platform="free Colab"))
    t4x2 = coverage(CoverageQuery(platform="Kaggle T4x2"))
    assert mac.gpu is not None and mac.gpu.startswith("Apple")
    assert amd.gpu == "Instinct MI300X"
    assert colab.gpu == "T4" and t4x2.gpu == "T4"
    assert colab.cannot == t4x2.cannot  # same features; the second T4 adds memory only
    # CUDA-only part 4 is out of reach off NVIDIA
    assert any(p.part == 4 and p.coverage == "not" for p in mac.parts)
    assert any(p.part == 1 and p.coverage == "full" for p in mac.parts)


def test_budget_and_only_missing_and_unknown() -> None:
    budget = coverage(CoverageQuery(budget=500, currency="EUR"))
    assert budget.gpu is not None and "budget" in (budget.target or "")
    missing = coverage(CoverageQuery(gpu="T4", only_missing=True))
    assert missing.parts and all(p.coverage != "full" for p in missing.parts)
    assert missing.full  # still named
    bad = coverage(CoverageQuery(gpu="RTX 9999"))
    assert bad.gpu is None and bad.suggestions and "RTX 9999" in bad.message
    extra = coverage(CoverageQuery(gpu="RTX 3060", topics=["fp8 training"]))
    assert any(p.topic == "fp8_training" and p.coverage == "not" for p in extra.parts)


def test_platform_data() -> None:
    from assistant.knowledge.gpus import load_catalog

    names = {card.name for card in load_catalog().gpus}
    for platform in load_platforms():
        assert platform.sources and platform.name_fr and platform.note_fr
        assert set(platform.cards) <= names, platform.key
    assert find_platform("RTX 4090") is None
    assert find_platform("sur Kaggle") is not None


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "Kaggle", "P100", "--missing", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["part"] for p in data["parts"] if p["coverage"] == "not"] == [3, 4]
    assert main(["coverage", "free colab"]) == 0
    assert "Google Colab" in capsys.readouterr().out
    assert main(["coverage", "RTX 9999"]) == 2
