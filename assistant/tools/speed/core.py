"""The arithmetic of the speed estimate, on plain numbers, shared by the tool and its calibration.

Single-stream decode is memory-bound: every generated token reads the active weights and the KV
cache once, so time per token = bytes read ÷ (efficiency × bandwidth) + a fixed overhead per layer.
Several cards split that work (tensor parallel: each reads 1/N, then two all-reduces per layer) or
take turns (layer split: no speed-up for one stream). Layers kept in system RAM are read at RAM
bandwidth. Prefill is compute-bound: 2 × active parameters FLOPs per token at a utilisation.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.knowledge.speed import Split

GB = 1e9


@dataclass(frozen=True)
class DecodeTime:
    """Seconds per generated token, and where they go."""

    memory_s: float
    gpu_memory_s: float
    ram_memory_s: float
    overhead_s: float
    communication_s: float

    @property
    def total_s(self) -> float:
        """Seconds per token: memory reads, overhead and communication."""
        return self.memory_s + self.overhead_s + self.communication_s

    @property
    def tokens_per_s(self) -> float:
        """Tokens generated per second, the inverse of `total_s`."""
        return 1.0 / self.total_s


def bytes_per_token_gb(
    active_params_b: float,
    bits_per_param: float,
    *,
    input_embedding_b: float = 0.0,
    output_matrix_16bit_b: float = 0.0,
    kv_values_per_token: float = 0.0,
    context_tokens: int = 0,
    kv_bits: float = 16.0,
) -> tuple[float, float]:
    """(weights GB, KV cache GB) read for one generated token.

    The input embedding is a table lookup (one row per token), so it is not read in full; a
    format that keeps the output matrix in 16-bit reads that part at 16 bits.
    """
    weights = max(active_params_b - input_embedding_b, 0.0) * bits_per_param / 8
    weights += output_matrix_16bit_b * max(16.0 - bits_per_param, 0.0) / 8
    kv = kv_values_per_token * context_tokens * kv_bits / 8 / GB
    return weights, kv


def decode_time(
    read_gb: float,
    bandwidth_gbs: float,
    efficiency: float,
    overhead_ms_per_32_layers: float,
    layers: float,
    *,
    gpu_count: int = 1,
    split: Split = "layer",
    allreduce_latency_us: float = 0.0,
    layer_split_hop_ms: float = 0.0,
    offload_fraction: float = 0.0,
    ram_bandwidth_gbs: float = 1.0,
    cpu_efficiency: float = 1.0,
) -> DecodeTime:
    """Time per token for `read_gb` read per token on `gpu_count` cards of `bandwidth_gbs`."""
    on_gpu = read_gb * (1.0 - offload_fraction)
    in_ram = read_gb * offload_fraction
    parallel = gpu_count if split == "tensor" else 1
    gpu_s = on_gpu / (parallel * efficiency * bandwidth_gbs)
    ram_s = in_ram / (cpu_efficiency * ram_bandwidth_gbs) if in_ram else 0.0
    overhead_s = overhead_ms_per_32_layers * layers / 32 / 1000
    comm_s = 0.0
    if gpu_count > 1:
        if split == "tensor":
            comm_s = 2 * layers * allreduce_latency_us / 1e6
        else:
            comm_s = (gpu_count - 1) * layer_split_hop_ms / 1000
    return DecodeTime(
        memory_s=gpu_s + ram_s,
        gpu_memory_s=gpu_s,
        ram_memory_s=ram_s,
        overhead_s=overhead_s,
        communication_s=comm_s,
    )


def prefill_tokens_per_s(active_params_b: float, tflops: float, utilisation: float) -> float:
    """Prompt tokens per second: utilisation × FLOPS ÷ (2 × active parameters)."""
    return utilisation * tflops * 1e12 / (2 * active_params_b * GB)


def generic_layers(params_b: float, layers_at_7b: float, exponent: float) -> float:
    """Layer count of a dense decoder of this size when the model's own is unknown."""
    return max(1.0, layers_at_7b * (params_b / 7.0) ** exponent)
