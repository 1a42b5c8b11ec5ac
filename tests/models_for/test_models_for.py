"""Which models fit a card: the inverse of the fit estimate, checked against it and by hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.cli import main
from assistant.tools.fit import FitQuery, estimate_fit
from assistant.tools.models_for import ModelFit, ModelsForQuery, models_for


def by_name(result: Any) -> dict[str, ModelFit]:
    return {m.model: m for g in result.families for m in g.models}


def test_rtx_3060_12gb_inference_by_hand() -> None:
    result = models_for(ModelsForQuery(gpu="RTX 3060 12GB"))
    rows = by_name(result)
    # Llama 3.1 8B: bf16 = 8.03e9 x 2 B / 2^30 + KV 0.5 + 0.27 + 1.0 = 16.7 GB (no); q8_0 fits 12 GB
    llama = rows["Llama 3.1 8B"]
    assert llama.best is not None and llama.best.precision == "q8_0" and llama.standing == "fits"
    bf16 = next(p for p in llama.precisions if p.precision == "bf16")
    assert bf16.verdict == "does_not_fit" and bf16.total_gb == 16.72
    # the same figures as the fit tool
    fit = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="RTX 3060 12GB", precision="q8_0"))
    assert llama.best.total_gb == fit.total_gb
    assert rows["Llama 3.1 70B"].standing == "does_not_fit" and rows["Llama 3.1 70B"].best is None
    assert result.largest_that_fits is not None
    fitting = [m for m in rows.values() if m.standing == "fits"]
    assert result.largest_that_fits.params_b == max(m.params_b for m in fitting)
    assert result.fitting == len(fitting)


def test_grouped_by_family_and_ordered_by_size() -> None:
    result = models_for(ModelsForQuery(gpu="RTX 4090"))
    for group in result.families:
        sizes = [m.params_b for m in group.models]
        assert sizes == sorted(sizes)
        assert all(m.family == group.family for m in group.models)
        ok = [m for m in group.models if m.standing == "fits"]
        if ok:
            assert group.largest_that_fits == max(ok, key=lambda m: m.params_b).model
    qwen3 = next(g for g in result.families if g.family == "Qwen3")
    assert qwen3.largest_that_fits == "Qwen3 32B"  # 32.8B at 4-bit: about 20 GB


def test_system_ram_offload_is_listed_apart_and_said_slow() -> None:
    without = models_for(ModelsForQuery(gpu="RTX 3060 12GB"))
    with_ram = models_for(ModelsForQuery(gpu="RTX 3060 12GB", system_ram_gb=32))
    assert without.with_offload == []
    assert "Qwen3 32B" in with_ram.with_offload
    qwen = by_name(with_ram)["Qwen3 32B"]
    assert qwen.standing == "offload" and qwen.best is not None
    assert qwen.best.precision == "q4_k_m"  # the smallest keeps the most layers on the GPU
    # 12 GB x 90% + 32 GB x 75% = 34.8 GB: 4-bit (about 19 GB) fits there, bf16 (about 63 GB) not
    bf16 = next(p for p in qwen.precisions if p.precision == "bf16")
    assert bf16.verdict == "does_not_fit"
    assert any("system-RAM bandwidth" in a for a in with_ram.assumptions)
    assert with_ram.fitting == without.fitting


def test_several_cards_and_tasks() -> None:
    two = models_for(ModelsForQuery(gpus=["2x RTX 3090"]))
    one = models_for(ModelsForQuery(gpu="RTX 3090"))
    assert two.total_vram_gb == 48 and two.fitting >= one.fitting
    assert by_name(two)["Llama 3.1 70B"].standing in ("fits", "tight")
    images = models_for(ModelsForQuery(vram_gb=24, task="image_generation"))
    assert "FLUX.1-dev" in by_name(images) and "Llama 3.1 8B" not in by_name(images)
    qlora = models_for(ModelsForQuery(gpu="T4", task="qlora"))
    assert qlora.precisions == ["nf4_dq"]
    assert by_name(qlora)["Llama 3.1 8B"].standing == "fits"


def test_unknown_card_is_a_value_and_family_filter() -> None:
    bad = models_for(ModelsForQuery(gpu="RTX 9999"))
    assert bad.cards is None and bad.suggestions and "RTX 9999" in bad.message
    only = models_for(ModelsForQuery(gpu="RTX 4090", family="gemma"))
    assert {g.family for g in only.families} == {"Gemma"}
    assert "tiennent sur" in only.message_fr or "Aucun" in only.message_fr


@settings(max_examples=25, deadline=None)
@given(vram=st.floats(min_value=4, max_value=160), extra=st.floats(min_value=1, max_value=80))
def test_more_vram_never_fits_fewer_models(vram: float, extra: float) -> None:
    small = models_for(ModelsForQuery(vram_gb=vram))
    big = models_for(ModelsForQuery(vram_gb=vram + extra))
    small_ok = {m.model for g in small.families for m in g.models if m.standing == "fits"}
    big_ok = {m.model for g in big.families for m in g.models if m.standing == "fits"}
    assert small_ok <= big_ok


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models-for", "RTX", "3060", "12GB", "--ram", "32", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["largest_that_fits"]["model"] and data["with_offload"]
    assert main(["models-for", "--vram", "24", "--family", "Qwen3"]) == 0
    out = capsys.readouterr().out
    assert "Qwen3" in out and "largest that fits" in out and "Formula:" in out
    assert main(["models-for", "RTX 9999"]) == 2
    assert "Unknown GPU" in capsys.readouterr().err
