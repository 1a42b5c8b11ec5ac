"""The speed tool on real cards and models: resolution, notes, errors as values."""

from __future__ import annotations

import pytest

from assistant.knowledge.models import get_model
from assistant.knowledge.speed import load_speed_rules
from assistant.tools.speed import SpeedQuery, estimate_speed


def test_llama_8b_on_4090_by_hand() -> None:
    r = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="RTX 4090", precision="q4_k_m",
                                  context_tokens=2048))  # fmt: skip
    spec = get_model("Llama 3.1 8B")
    assert spec is not None and spec.vocab_size and spec.hidden_size
    embedding = spec.vocab_size * spec.hidden_size / 1e9
    weights = (spec.params_b - embedding) * 4.89 / 8
    kv = 2 * 32 * 8 * 128 * 2048 * 2 / 1e9  # K and V, 32 layers, 8 KV heads of 128, fp16
    fitted = load_speed_rules().backend("llama.cpp", "cuda")
    assert fitted is not None
    seconds = (weights + kv) / (fitted.efficiency * 1008) + fitted.overhead_ms_per_32_layers / 1000
    assert r.found and r.weights_read_gb == pytest.approx(weights)
    assert r.kv_cache_read_gb == pytest.approx(kv)
    assert r.decode_tokens_per_s == pytest.approx(1 / seconds)
    assert r.formula and r.inputs["bandwidth_gbs"] == 1008
    assert r.summary.startswith("About") and r.summary_fr.startswith("Environ")
    # within the calibration's tolerance of the published 130.6 tokens/s at a short context
    short = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="RTX 4090", context_tokens=256))
    assert short.decode_tokens_per_s == pytest.approx(130.58, rel=0.3)


def test_mixture_of_experts_reads_only_active_parameters() -> None:
    moe = estimate_speed(SpeedQuery(model="Qwen3 30B-A3B", gpu="RTX 4090", context_tokens=0))
    dense = estimate_speed(SpeedQuery(model="Qwen3 32B", gpu="RTX 4090", context_tokens=0))
    assert moe.active_params_b is not None and moe.active_params_b < 4
    assert moe.weights_read_gb is not None and moe.weights_read_gb < 4 * 4.89 / 8
    assert (moe.decode_tokens_per_s or 0) > 3 * (dense.decode_tokens_per_s or 0)
    assert any("active" in n for n in moe.notes)


def test_tensor_parallel_beats_layer_split_and_nvlink_beats_pcie() -> None:
    base = dict(model="Llama 3.1 70B", gpu="A100 80GB", gpu_count=4, precision="bf16")
    layer = estimate_speed(SpeedQuery(**base, split="layer"))
    pcie = estimate_speed(SpeedQuery(**base, split="tensor", interconnect="pcie"))
    nvlink = estimate_speed(SpeedQuery(**base, split="tensor", interconnect="nvlink"))
    assert (layer.decode_tokens_per_s or 0) < (pcie.decode_tokens_per_s or 0)
    assert (pcie.decode_tokens_per_s or 0) < (nvlink.decode_tokens_per_s or 0)
    assert (pcie.communication_ms_per_token or 0) > (nvlink.communication_ms_per_token or 0)
    assert any("memory, not speed" in n for n in layer.notes)


def test_offload_is_slow_and_says_why() -> None:
    full = estimate_speed(SpeedQuery(model="Llama 3.1 70B", gpu="RTX 4090", offload_fraction=0.0))
    half = estimate_speed(SpeedQuery(model="Llama 3.1 70B", gpu="RTX 4090", offload_fraction=0.5))
    assert (half.decode_tokens_per_s or 0) < (full.decode_tokens_per_s or 0) / 5
    assert half.offload_share_of_time is not None and half.offload_share_of_time > 0.8
    assert any("makes offload slow" in n for n in half.notes)
    assert any("lent" in n for n in half.notes_fr)
    assert any("do not fit" in n for n in full.notes)  # 43 GB of weights in 24 GB


def test_unknown_card_is_a_value_with_suggestions() -> None:
    r = estimate_speed(SpeedQuery(model="8B", gpu="RTX 4099"))
    assert not r.found and r.decode_tokens_per_s is None
    assert "GeForce RTX 4090" in r.suggestions
    assert r.summary_fr


def test_unknown_card_with_a_bandwidth_is_estimated() -> None:
    r = estimate_speed(SpeedQuery(model="8B", gpu="RTX 4099", bandwidth_gbs=500))
    assert r.found and r.bandwidth_gbs == 500


def test_a_name_not_in_the_data_is_never_another_model() -> None:
    r = estimate_speed(SpeedQuery(model="Zephyrine-Coder-22B", gpu="RTX 4090"))
    assert r.found and r.params_b == 22
    assert any("not in the model data" in a for a in r.assumptions)


def test_model_without_size_is_refused_clearly() -> None:
    r = estimate_speed(SpeedQuery(model="my favourite model", gpu="RTX 4090"))
    assert not r.found and "params_b" in (r.message or "")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (SpeedQuery(model="8B", gpu="RTX 4090", backend="mlx"), "Apple"),
        (SpeedQuery(model="8B", gpu="M2 Ultra", backend="exllamav2"), "Apple"),
        (SpeedQuery(model="8B", gpu="RTX 4090", precision="q3_weird"), "Unknown precision"),
        (SpeedQuery(model="8B"), "memory bandwidth in GB/s"),
    ],
)
def test_impossible_combinations_are_messages(query: SpeedQuery, words: str) -> None:
    r = estimate_speed(query)
    assert not r.found and words in (r.message or "")


def test_apple_card_has_no_prefill_without_tflops_but_does_with() -> None:
    r = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="M2 Ultra"))
    assert r.found and r.platform == "metal" and r.prefill_tokens_per_s is None
    r2 = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="M2 Ultra", fp16_tflops=27.2))
    u = load_speed_rules().prefill_utilisation
    assert r2.prefill_tokens_per_s == pytest.approx(u * 27.2e12 / (2 * 8.03e9), rel=0.01)


def test_requests_served_together_share_each_step() -> None:
    """Batched decode: each step reads the weights once and every request's KV cache, so each
    request is slower than one alone but the total is many times one request's speed."""
    one = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="RTX 4090", precision="bf16",
                                    context_tokens=1500))  # fmt: skip
    many = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="RTX 4090", precision="bf16",
                                     context_tokens=1500, concurrent_requests=20))  # fmt: skip
    assert one.per_request_tokens_per_s is None and one.total_tokens_per_s is None
    assert many.decode_tokens_per_s == pytest.approx(one.decode_tokens_per_s)
    each, total = many.per_request_tokens_per_s, many.total_tokens_per_s
    assert each is not None and total is not None
    assert each < (one.decode_tokens_per_s or 0) and total == pytest.approx(20 * each)
    assert total > 10 * (one.decode_tokens_per_s or 0)
    assert many.batch_compute_bound is False  # 20 requests of an 8B: bandwidth still limits
    assert "With 20 requests at once" in many.summary and "20 requêtes" in many.summary_fr
    assert many.inputs["concurrent_requests"] == 20


def test_a_large_batch_becomes_compute_bound_and_its_kv_cache_may_not_fit() -> None:
    short = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="RTX 4090", precision="bf16",
                                      context_tokens=256, concurrent_requests=200))  # fmt: skip
    assert short.batch_compute_bound is True
    assert not any("does not fit beside the weights" in n for n in short.notes)
    long = estimate_speed(SpeedQuery(model="Llama 3.1 8B", gpu="RTX 4090", precision="bf16",
                                     context_tokens=8192, concurrent_requests=64))  # fmt: skip
    assert long.batch_compute_bound is False
    assert any("does not fit beside the weights" in n for n in long.notes)
