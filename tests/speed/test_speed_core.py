"""The speed arithmetic on numbers worked out by hand."""

from __future__ import annotations

import pytest

from assistant.tools.speed.core import (
    bytes_per_token_gb,
    decode_time,
    generic_layers,
    prefill_tokens_per_s,
)


def test_single_card_is_bandwidth_over_bytes() -> None:
    # 10 GB per token at 50 % of 1000 GB/s = 0.02 s per token = 50 tokens/s
    t = decode_time(10.0, 1000.0, 0.5, 0.0, 32)
    assert t.total_s == pytest.approx(0.02)
    assert t.tokens_per_s == pytest.approx(50.0)


def test_overhead_scales_with_layers() -> None:
    # 2 ms per 32 layers on 64 layers = 4 ms on top of 20 ms
    t = decode_time(10.0, 1000.0, 0.5, 2.0, 64)
    assert t.overhead_s == pytest.approx(0.004)
    assert t.total_s == pytest.approx(0.024)


def test_tensor_parallel_halves_memory_time_and_pays_two_all_reduces_per_layer() -> None:
    # 10 / (2 x 0.5 x 1000) = 0.01 s; 2 x 32 layers x 50 µs = 0.0032 s
    t = decode_time(
        10.0, 1000.0, 0.5, 0.0, 32, gpu_count=2, split="tensor", allreduce_latency_us=50
    )
    assert t.memory_s == pytest.approx(0.01)
    assert t.communication_s == pytest.approx(0.0032)
    assert t.total_s == pytest.approx(0.0132)


def test_layer_split_gives_one_card_speed() -> None:
    one = decode_time(10.0, 1000.0, 0.5, 1.0, 32)
    two = decode_time(10.0, 1000.0, 0.5, 1.0, 32, gpu_count=2, split="layer")
    assert two.total_s == pytest.approx(one.total_s)


def test_offloaded_half_is_read_at_ram_bandwidth() -> None:
    # 5 GB on the card: 5 / 500 = 0.01 s; 5 GB in RAM at 50 % of 100 GB/s: 5 / 50 = 0.1 s
    t = decode_time(10.0, 1000.0, 0.5, 0.0, 32, offload_fraction=0.5,
                    ram_bandwidth_gbs=100.0, cpu_efficiency=0.5)  # fmt: skip
    assert t.gpu_memory_s == pytest.approx(0.01)
    assert t.ram_memory_s == pytest.approx(0.1)
    assert t.tokens_per_s == pytest.approx(1 / 0.11)


def test_bytes_per_token() -> None:
    # 8B at 4 bits, minus a 0.5B input embedding: 7.5 x 0.5 = 3.75 GB; a 0.5B output matrix kept
    # in 16-bit adds 0.5 x (16 - 4) / 8 = 0.75 GB. KV: 1000 values x 1000 tokens x 2 bytes = 2 MB.
    weights, kv = bytes_per_token_gb(
        8.0, 4.0, input_embedding_b=0.5, output_matrix_16bit_b=0.5,
        kv_values_per_token=1000, context_tokens=1000, kv_bits=16,
    )  # fmt: skip
    assert weights == pytest.approx(4.5)
    assert kv == pytest.approx(0.002)


def test_prefill_from_flops() -> None:
    # 0.5 x 100 TFLOPS / (2 x 10e9) = 2500 tokens/s
    assert prefill_tokens_per_s(10.0, 100.0, 0.5) == pytest.approx(2500.0)


def test_generic_layers_follow_the_llama_family() -> None:
    assert generic_layers(7.0, 32, 0.4) == pytest.approx(32)
    assert generic_layers(70.0, 32, 0.4) == pytest.approx(80, rel=0.05)
    assert generic_layers(1.2, 32, 0.4) == pytest.approx(16, rel=0.1)
