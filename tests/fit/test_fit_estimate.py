"""Exact breakdowns for hand-computed cases, verdicts on real cards, and what would make it fit."""

from __future__ import annotations

import pytest

from assistant.tools.fit import FitQuery, FitResult, estimate_fit, fits_in, minimum_vram_gb

GB = 2**30  # every figure is in binary GB, the unit cards are sold in


def parts(result: FitResult) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in result.breakdown:
        out[line.item] = round(out.get(line.item, 0.0) + line.gb, 3)
    return out


def test_llama_8b_fp16_weights_are_14_96_gb() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.1 8B", precision="fp16", vram_gb=24))
    p = parts(result)
    assert p["weights"] == round(8.03e9 * 2 / GB, 3) == 14.957  # 8.03B x 2 bytes
    assert p["kv_cache"] == round(2 * 32 * 8 * 128 * 2 * 4096 / GB, 3)  # 128 KiB/token x 4096
    assert p["activations"] == round(2048 * 4096 * 34 / GB, 3)
    assert p["overhead"] == 1.0
    assert result.total_gb == round(14.957 + 0.5 + 0.266 + 1.0, 2) == 16.72
    # a card sold as 24 GB is 24 GB in the answer
    assert result.capacity_gb == 24 and result.headroom_gb == 7.28
    assert result.verdict == "fits"


def test_llama_cpp_formats_set_aside_llama_cpps_smaller_context() -> None:
    """The GGUF formats run in llama.cpp, whose CUDA context is 120-550 MB (not PyTorch's kernel
    library): half a GB is set aside, so an 8B in Q4_K_M at 4,096 tokens is tight on a 6 GB card
    instead of too big; bf16 keeps PyTorch's 1 GB, and so does a diffusion model."""
    q4 = estimate_fit(FitQuery(model="Llama 3.1 8B", precision="q4_k_m", vram_gb=6))
    assert parts(q4)["overhead"] == 0.5
    assert "llama.cpp" in next(x.detail for x in q4.breakdown if x.item == "overhead")
    assert q4.total_gb < 6 and q4.verdict in ("fits", "tight")
    bf16 = estimate_fit(FitQuery(model="Llama 3.1 8B", precision="bf16", vram_gb=24))
    assert parts(bf16)["overhead"] == 1.0
    assert any("0.5 GB for the llama.cpp" in a for a in q4.assumptions)


def test_kv_cache_llama3_70b_at_8k_context() -> None:
    result = estimate_fit(FitQuery(model="llama 3 70b", context_tokens=8192))
    per_token = 2 * 80 * 8 * 128 * 2  # 327,680 B = 320 KiB
    assert parts(result)["kv_cache"] == round(per_token * 8192 / GB, 3) == 2.5
    batch4 = estimate_fit(FitQuery(model="llama 3 70b", context_tokens=8192, batch_size=4))
    assert parts(batch4)["kv_cache"] == round(4 * per_token * 8192 / GB, 3)
    fp8 = estimate_fit(FitQuery(model="llama 3 70b", context_tokens=8192, kv_precision="fp8"))
    assert parts(fp8)["kv_cache"] == round(per_token / 2 * 8192 / GB, 3)


def test_sliding_window_and_latent_attention_caches() -> None:
    gemma = estimate_fit(FitQuery(model="gemma 2 9b", context_tokens=8192))
    # 21 full layers + 21 layers capped at 4096 of 8192 tokens, 2 x 8 heads x 256 x 2 B per layer
    assert parts(gemma)["kv_cache"] == round(8192 * (21 + 21 * 4096 / 8192) * 8192 / GB, 3)
    deepseek = estimate_fit(FitQuery(model="deepseek v3", context_tokens=8192))
    assert parts(deepseek)["kv_cache"] == round(576 * 61 * 2 * 8192 / GB, 3)
    assert deepseek.precision == "fp8"  # native format
    assert parts(deepseek)["weights"] == pytest.approx(
        (129280 * 7168 * 2 * 2 + (671e9 - 129280 * 7168 * 2)) / GB, abs=0.001
    )


def test_lora_qlora_full_on_llama_8b() -> None:
    seq, b, h, layers, vocab = 2048, 1, 4096, 32, 128256
    act = round(b * seq * h * (layers * 2 + 34) / GB, 3) + round(b * seq * vocab * 2 / GB, 3)
    adapters = round(
        16 * layers * h * 20 * 16 / GB, 3
    )  # rank 16, all linear, 16 B per adapter param
    lora = estimate_fit(FitQuery(model="Llama 3.1 8B", task="lora"))
    assert parts(lora) == {
        "weights": 14.957,
        "adapters": adapters,
        "activations": act,
        "overhead": 1.0,
    }
    assert lora.total_gb == round(14.957 + adapters + act + 1.0, 2) == 17.84

    emb = 128256 * 4096 * 2  # input embedding + output layer stay bf16
    qweights = (emb * 2 + (8.03e9 - emb) * 4.127 / 8) / GB
    qlora = estimate_fit(FitQuery(model="Llama 3.1 8B", task="qlora"))
    assert qlora.precision == "nf4_dq"
    assert parts(qlora)["weights"] == round(qweights, 3) == 5.31
    assert qlora.total_gb == round(round(qweights, 3) + adapters + act + 1.0, 2)

    full = estimate_fit(FitQuery(model="Llama 3.1 8B", task="full_finetune"))
    p = parts(full)
    assert (p["weights"], p["gradients"], p["optimizer_states"]) == (
        round(8.03e9 * 6 / GB, 3),
        round(8.03e9 * 4 / GB, 3),
        round(8.03e9 * 8 / GB, 3),
    )  # 6 + 4 + 8 B
    assert full.total_gb == round(sum(p.values()), 2)
    assert qlora.total_gb < lora.total_gb < full.total_gb


def test_qlora_8b_fits_a_12gb_card_and_full_does_not() -> None:
    assert (
        estimate_fit(FitQuery(model="llama 3 8b", task="qlora", gpu="RTX 3060 12GB")).verdict
        == "fits"
    )
    full = estimate_fit(FitQuery(model="llama 3 8b", task="full_finetune", gpu="RTX 4090"))
    assert full.verdict == "does_not_fit"
    changes = [o.change for o in full.fits_with]
    assert "QLoRA (4-bit NF4 base)" in changes
    assert all(o.verdict in ("fits", "tight") for o in full.fits_with)


def test_flux_on_24gb_follows_the_measured_data() -> None:
    bf16 = estimate_fit(FitQuery(model="flux dev", gpu="RTX 4090", precision="bf16"))
    assert bf16.task == "image_generation"
    p = parts(bf16)
    assert p["weights"] == round(11.906e9 * 2 / GB, 3)
    assert p["text_encoders"] == round((4.762 + 0.123) * 1e9 * 2 / GB, 3)
    assert p["vae"] == round(0.084e9 * 2 / GB, 3)
    assert p["activations"] == round(4.2 * 1024 * 1024 / 1e6, 3)
    assert bf16.verdict == "does_not_fit"  # measured: 36.17 GiB peak on an H100
    changes = {o.change: o for o in bf16.fits_with}
    assert changes["precision nf4"].verdict == "fits"  # measured: 14.95 GB on a 4090
    assert "precision nf4 + CPU offload (model)" in changes
    nf4 = estimate_fit(FitQuery(model="flux dev", gpu="RTX 4090", precision="nf4"))
    assert nf4.verdict == "fits"
    assert nf4.nearest_measured is not None and nf4.nearest_measured.id == "flux-dev-nf4-4090"
    offload = estimate_fit(
        FitQuery(model="flux dev", vram_gb=24, offload="model", precision="bf16")
    )
    assert offload.verdict == "does_not_fit"  # the bf16 transformer alone is 22.2 GB
    assert any("activations assumed unchanged" in a for a in offload.assumptions)


def test_70b_on_24gb_does_not_fit_and_points_to_bigger_cards() -> None:
    fp16 = estimate_fit(FitQuery(model="70B", vram_gb=24, precision="fp16"))
    assert fp16.model is None and fp16.params_b == 70.0
    assert parts(fp16)["weights"] == round(140e9 / GB, 3) == 130.385
    assert fp16.verdict == "does_not_fit"
    assert [o.change for o in fp16.fits_with] == ["precision int4", "precision q4_k_m"]
    assert all(o.verdict == "does_not_fit" for o in fp16.fits_with)
    int4 = estimate_fit(FitQuery(model="Llama 3.1 70B", gpu="RTX 4090", precision="int4"))
    assert int4.verdict == "does_not_fit"
    emb = 128256 * 8192 * 2
    assert parts(int4)["weights"] == round((emb * 2 + (70.55e9 - emb) * 4.25 / 8) / GB, 3)
    assert int4.bigger_cards, "the catalog has cards with 48 GB or more"
    assert "GeForce RTX 4090" not in int4.bigger_cards


def test_generic_size_estimate_states_its_assumptions() -> None:
    result = estimate_fit(
        FitQuery(model="un modèle de 13 milliards de paramètres", precision="fp16")
    )
    assert result.model is None and result.model_found is False
    assert parts(result)["weights"] == round(26e9 / GB, 3)
    assert any("Generic model" in a for a in result.assumptions)
    assert (
        result.nearest_measured is not None
        and result.nearest_measured.id == "vllm-paper-opt-13b-fp16"
    )
    explicit = estimate_fit(FitQuery(model="my own model", params_b=3.0))
    assert parts(explicit)["weights"] == round(6e9 / GB, 3)


def test_unknown_model_and_gpu_are_values_not_errors() -> None:
    unknown = estimate_fit(FitQuery(model="llama 9 colossus", gpu="RTX 4090"))
    assert unknown.verdict == "unknown" and unknown.total_gb is None
    assert unknown.suggestions and "Unknown model" in unknown.message
    bad_gpu = estimate_fit(FitQuery(model="llama 3 8b", gpu="RTX 9999"))
    assert bad_gpu.verdict == "unknown" and bad_gpu.model == "Llama 3.1 8B"
    assert "Unknown GPU" in bad_gpu.message and bad_gpu.suggestions


def test_nonsense_combinations_are_explained() -> None:
    assert (
        "diffusion" in estimate_fit(FitQuery(model="llama 3 8b", task="image_generation")).message
    )
    assert (
        "qlora"
        in estimate_fit(
            FitQuery(model="llama 3 8b", task="full_finetune", precision="int4")
        ).message
    )
    assert (
        estimate_fit(FitQuery(model="llama 3 8b", task="qlora", precision="bf16")).total_gb is None
    )


def test_video_weights_only_give_unknown_or_does_not_fit() -> None:
    h100 = estimate_fit(FitQuery(model="wan 14b", vram_gb=80))
    assert h100.verdict == "unknown" and "not modelled" in h100.message
    small = estimate_fit(FitQuery(model="wan 14b", vram_gb=24))
    assert small.verdict == "does_not_fit"  # 19.8B x 2 bytes of weights alone


def test_no_card_gives_total_and_unknown_verdict() -> None:
    result = estimate_fit(FitQuery(model="mixtral"))
    assert result.verdict == "unknown" and result.headroom_gb is None
    assert parts(result)["weights"] == round(93.4e9 / GB, 3)  # all 46.7B experts resident
    assert any("Mixture of experts" in a for a in result.assumptions)
    assert result.sources and result.bigger_cards


def test_tight_band() -> None:
    # 16.72 GB on a 20 GB card: 83.6%, under 90% -> fits; on 18 GB: 92.9% -> tight
    bf16 = {"model": "llama 3 8b", "precision": "bf16"}
    assert estimate_fit(FitQuery(**bf16, vram_gb=20)).verdict == "fits"
    assert estimate_fit(FitQuery(**bf16, vram_gb=18)).verdict == "tight"
    assert estimate_fit(FitQuery(**bf16, vram_gb=16)).verdict == "does_not_fit"


def test_helpers_for_recommend() -> None:
    query = FitQuery(model="llama 3 8b")
    assert minimum_vram_gb(query) == round(16.72 / 0.9, 2) == 18.58
    assert fits_in(24, query) is True
    assert fits_in(16, query) is False


def test_several_gpus_split_the_model_and_report_per_gpu() -> None:
    one = estimate_fit(FitQuery(model="Llama 3.1 70B", precision="int4", gpu="RTX 3090"))
    two = estimate_fit(
        FitQuery(model="Llama 3.1 70B", precision="int4", gpu="RTX 3090", num_gpus=2)
    )
    assert one.verdict == "does_not_fit" and two.verdict == "fits"
    p1, p2 = parts(one), parts(two)
    assert p2["weights"] == round(p1["weights"] / 2, 3)
    assert p2["kv_cache"] == round(p1["kv_cache"] / 2, 3)
    assert p2["activations"] == p1["activations"] and p2["overhead"] == 1.0
    assert "on the fullest card" in two.message and any("per GPU" in a for a in two.assumptions)
    assert any(a.startswith("VRAM is not one pool") for a in two.assumptions)


def test_null_settings_from_a_tool_call_mean_defaults() -> None:
    query = FitQuery.model_validate(
        {
            "model": "70B",
            "params_b": None,
            "task": None,
            "precision": None,
            "batch_size": None,
            "vram_gb": 24,
        }
    )
    assert (query.task, query.batch_size, query.precision) == ("inference", 1, None)
    assert estimate_fit(query).verdict == "does_not_fit"


def test_multi_head_kv_cache_matches_the_paged_attention_figure() -> None:
    # 13B with full multi-head attention: 2 x 5120 x 40 layers x 2 B = 800 KiB per token (vLLM paper)
    result = estimate_fit(FitQuery(model="llama 2 13b", context_tokens=2048, precision="fp16"))
    assert parts(result)["kv_cache"] == round(2 * 5120 * 40 * 2 * 2048 / GB, 3) == 1.562
