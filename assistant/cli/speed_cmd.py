"""`gpu-advisor speed MODEL --gpu GPU`: how many tokens per second, one request at a time?"""

from __future__ import annotations

import argparse
from typing import Any

from assistant.cli._common import add_json_flag, finish, given_flags

BACKENDS = ("llama.cpp", "exllamav2", "mlc", "mlx", "vllm")


def register(sub: Any) -> None:
    """Add the `speed` command."""
    p = sub.add_parser(
        "speed",
        help="estimated tokens/s of an LLM on a card (decode and prefill, one request at a time)",
        description=(
            "Estimate single-stream LLM speed. Decode is memory-bound: efficiency x memory bandwidth / "
            "bytes read per token (active weights at the precision's real bits per weight, plus the KV "
            "cache at the context). Prefill comes from the card's FP16 tensor throughput. Handles "
            "mixture-of-experts models, several cards (tensor parallel over NVLink or PCIe, or a layer "
            "split) and partial CPU offload. Backend efficiencies are fitted on published measurements "
            "(tools/calibrate_speed.py). Sizes are GB (10^9 bytes), bandwidths GB/s."
        ),
        epilog=(
            "examples: gpu-advisor speed 'llama 3.1 8b' --gpu 4090 | "
            "gpu-advisor speed 'Llama 3.1 70B' --gpu 3090 --gpus 2 --split tensor --backend vllm --precision awq | "
            "gpu-advisor speed 'Qwen3 30B-A3B' --gpu 'M4 Max' --backend mlx | "
            "gpu-advisor speed 70B --gpu 4090 --offload 0.5 --json | "
            "gpu-advisor speed 13B --bandwidth 288 --precision q8_0"
        ),
    )
    p.add_argument("model", nargs="+", metavar="MODEL", help="model name or size ('8B')")
    p.add_argument("--gpu", help="card from the catalog")
    p.add_argument("--gpus", type=int, default=1, metavar="N", help="number of identical cards")
    p.add_argument("--bandwidth", type=float, metavar="GB/S", help="memory bandwidth per card")
    p.add_argument("--tflops", type=float, help="dense FP16 tensor TFLOPS per card (prefill)")
    p.add_argument(
        "--precision", help="q4_k_m (default), q8_0, q4_0, fp16, bf16, fp8, int8, awq, nf4…"
    )
    p.add_argument(
        "--bits", type=float, metavar="BPW", help="bits per weight, e.g. 4.65 for an EXL2"
    )
    p.add_argument("--backend", choices=BACKENDS, help="default llama.cpp")
    p.add_argument("--split", choices=("tensor", "layer"), help="with several cards")
    p.add_argument("--interconnect", choices=("nvlink", "pcie"), help="with several cards")
    p.add_argument("--context", type=int, metavar="TOKENS", help="tokens already in the context")
    p.add_argument(
        "--prompt", type=int, metavar="TOKENS", help="prompt length (time to first token)"
    )
    p.add_argument("--params", type=float, metavar="B", help="total parameters, billions")
    p.add_argument(
        "--active", type=float, metavar="B", help="active parameters (mixture of experts)"
    )
    p.add_argument("--offload", type=float, default=0.0, metavar="FRACTION",
                   help="share of layers kept in system RAM (0-1)")  # fmt: skip
    p.add_argument("--ram-bandwidth", type=float, metavar="GB/S", help="system RAM bandwidth")
    p.add_argument("--concurrent", type=int, metavar="N",
                   help="requests a server generates together: each one's and the total tokens/s")  # fmt: skip
    add_json_flag(p)
    p.set_defaults(func=run)


def build_query(args: argparse.Namespace) -> Any:
    """The speed tool's query from the command line's arguments."""
    from assistant.tools.speed import SpeedQuery

    fields: dict[str, Any] = {"model": " ".join(args.model), "gpu_count": args.gpus,
                              "offload_fraction": args.offload}  # fmt: skip
    given_flags(args, (
        ("gpu", "gpu"), ("bandwidth", "bandwidth_gbs"), ("tflops", "fp16_tflops"),
        ("precision", "precision"), ("bits", "bits_per_param"), ("backend", "backend"),
        ("split", "split"), ("interconnect", "interconnect"), ("context", "context_tokens"),
        ("prompt", "prompt_tokens"), ("params", "params_b"), ("active", "active_params_b"),
        ("ram_bandwidth", "ram_bandwidth_gbs"), ("concurrent", "concurrent_requests"),
    ), fields)  # fmt: skip
    return SpeedQuery.model_validate(fields)


def run(args: argparse.Namespace) -> int:
    """Print the speed estimate."""
    from assistant.tools.speed import estimate_speed

    result = estimate_speed(build_query(args))
    return finish(
        result,
        args.json,
        lambda: render(result),
        found=result.found,
        message=result.message,
        suggestions=result.suggestions,
    )


def render(result: Any) -> str:
    """The speed estimate for people."""
    lines = [result.summary, "", f"Formula: {result.formula}", "", "Inputs:"]
    lines += [f"  {k:<26} {v}" for k, v in result.inputs.items()]
    if result.notes:
        lines.append("\nNotes:")
        lines += [f"  - {n}" for n in result.notes]
    lines.append("\nAssumptions:")
    lines += [f"  - {a}" for a in result.assumptions]
    lines.append("\nSources:")
    lines += [f"  - {s.label()}" + (f" ({s.note})" if s.note else "") for s in result.sources]
    return "\n".join(lines)
