"""`gpu-advisor fit MODEL [--gpu GPU | --vram GB]`: will a model run or train in a card's memory?"""

from __future__ import annotations

import argparse
import re
from typing import Any

from assistant.cli._common import add_json_flag, finish, given_flags

TASKS = ("inference", "lora", "qlora", "full_finetune", "image_generation")
_VRAM_RE = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*(?:gb|go|gib|gio)\b", re.I)
# "2x 3090", "2 x RTX 3090", "8×A100" (not "8x7B", a model)
_COUNT_RE = re.compile(
    r"(?<![\w.])(\d{1,2})\s*[x×]\s*(?!\d+(?:[.,]\d+)?\s*b\b)(?=[a-z]*\s*[a-z]?\d)", re.I
)
_TASK_WORDS = (
    (re.compile(r"\bq-?lora\b", re.I), "qlora"),
    (re.compile(r"\blora\b", re.I), "lora"),
    (
        re.compile(
            r"\b(full[- ]?fine[- ]?tun\w*|fine[- ]?tun\w*|finetun\w*|entraîn\w*|entrain\w*|train\w*)\b",
            re.I,
        ),
        "full_finetune",
    ),
)
_PRECISION_WORDS = re.compile(
    r"\b(fp32|fp16|bf16|fp8|int8|int4|nf4|awq|gptq|mxfp4|q8_0|q6_k|q5_k_m|q4_k_m|q4_0|q4_1|4[- ]?bits?|8[- ]?bits?)\b",
    re.I,
)


def register(sub: Any) -> None:
    """Add the `fit` command."""
    p = sub.add_parser(
        "fit",
        help="will a model fit in a GPU's memory (inference, LoRA, QLoRA, full fine-tune, image generation)",
        description=(
            "Estimate the memory a model needs and compare it with a GPU from the catalog or a memory size: "
            "weights at a precision, KV cache, optimizer states, gradients, activations, text encoders and VAE, "
            "overhead; with assumptions, sources, the nearest measured figure and what would make it fit. "
            "Several cards (--cards, --gpus) are sized sharded (in equal shares with --equal) or one copy "
            "each (--replicate); the precision "
            "is checked against the card (FP8 needs CC 8.9+, BF16 8.0+); with no --precision the common "
            "ones are compared side by side. Memory is in binary GB, the unit cards are sold in. "
            "MODEL may be a name ('llama 3 70b', 'flux dev', sdxl), a size ('70B') or a whole question "
            "('will a 70B model fit in 24 GB')."
        ),
        epilog=(
            "examples: gpu-advisor fit 'llama 3.1 8b' --gpu 4090 | gpu-advisor fit flux dev --vram 24 --precision nf4 | "
            "gpu-advisor fit 70B --vram 24 --precision int4 --json | gpu-advisor fit 'Llama 3.1 8B' --task qlora --gpu 'RTX 3060 12GB' | "
            "gpu-advisor fit 'Llama 2 70B' --cards '4x A10G' --precision fp16 | gpu-advisor fit 'llama 3 70b on a 3090 + a 4090'"
        ),
    )
    p.add_argument(
        "model", nargs="+", metavar="MODEL", help="model name, size, or a question naming both"
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--gpu", help="GPU name from the catalog (its memory is used)")
    where.add_argument(
        "--vram", type=float, metavar="GB", help="card memory in GB as sold (e.g. 24)"
    )
    p.add_argument(
        "--task", choices=TASKS, help="default: inference (image_generation for diffusion models)"
    )
    p.add_argument(
        "--precision",
        help="fp32, bf16, fp16, fp8, int8, int4, nf4, nf4_dq, mxfp4, q8_0, q4_k_m, ... (mixed for full fine-tuning)",
    )
    p.add_argument(
        "--context",
        type=int,
        metavar="TOKENS",
        help="context (inference) or sequence length (training)",
    )
    p.add_argument(
        "--batch",
        type=int,
        default=1,
        metavar="N",
        help="concurrent sequences or images (default 1)",
    )
    p.add_argument(
        "--params",
        type=float,
        metavar="B",
        help="parameter count in billions, for a model not in the table",
    )
    p.add_argument(
        "--offload",
        choices=("none", "model", "sequential"),
        default="none",
        help="diffusion CPU offload",
    )
    p.add_argument("--kv-precision", help="KV-cache format (default bf16)")
    p.add_argument(
        "--gpus",
        type=int,
        metavar="N",
        help="number of such GPUs sharing the model (figures are for the fullest card)",
    )
    p.add_argument(
        "--cards",
        nargs="+",
        metavar="GPU",
        help="several cards, identical or not: --cards '4x A10G' or --cards 'RTX 3090' 'RTX 4090' "
        "(VRAM is not one pool: each card holds its share plus its own overhead)",
    )
    p.add_argument(
        "--in-use",
        type=float,
        metavar="GB",
        help="memory other programs already hold on each card (a game, the desktop): the model "
        "gets the rest",
    )
    p.add_argument(
        "--here",
        action="store_true",
        help="probe this machine and use its GPUs' free memory (a MIG slice when MIG is on)",
    )
    p.add_argument(
        "--replicate",
        action="store_true",
        help="with several cards, one full copy per card instead of one model sharded across them",
    )
    p.add_argument(
        "--equal",
        action="store_true",
        help="with several different cards, shard in equal shares as tensor parallelism does "
        "(vLLM, SGLang, TensorRT-LLM): the smallest card limits; default: shares in proportion "
        "to each card's memory (llama.cpp, accelerate)",
    )
    add_json_flag(p)
    p.set_defaults(func=run)


def parse_question(text: str) -> dict[str, Any]:
    """GPU, memory size, task and precision written inside a free question (flags win over these)."""
    found: dict[str, Any] = {}
    from assistant.knowledge.matching import find_gpu_mentions

    cards = find_gpu_mentions(text)
    names = list(dict.fromkeys(card.name for card in cards))
    if len(names) > 1:  # "a 3090 + a 4090": several different cards
        found["gpus"] = names
    elif cards:
        found["gpu"] = cards[0].name
    else:
        m = _VRAM_RE.search(text)
        if m:
            found["vram_gb"] = float(m.group(1).replace(",", "."))
    m = _COUNT_RE.search(text)
    if m:
        found["num_gpus"] = int(m.group(1))
    for pattern, task in _TASK_WORDS:
        if pattern.search(text):
            found["task"] = task
            break
    m = _PRECISION_WORDS.search(text)
    if m:
        word = m.group(1).lower().replace(" ", "").replace("-", "")
        found["precision"] = {"4bit": "nf4", "4bits": "nf4", "8bit": "int8", "8bits": "int8"}.get(
            word, word
        )
    return found


def build_query(args: argparse.Namespace) -> Any:
    """The fit tool's query from the command line (flags, or words such as `24 GB` or `QLoRA` in the model text)."""
    from assistant.tools.fit import FitQuery

    text = " ".join(args.model)
    fields: dict[str, Any] = {"model": text, "batch_size": args.batch, "offload": args.offload}
    if len(args.model) > 1 or " " in text:
        fields.update(parse_question(text))
    if args.gpu:
        fields.pop("vram_gb", None)
        fields.pop("gpus", None)
        fields["gpu"] = args.gpu
    if args.cards:
        fields.pop("vram_gb", None)
        fields.pop("gpu", None)
        fields["gpus"] = args.cards
    if args.replicate:
        fields["multi_gpu"] = "replicate"
    elif args.equal:
        fields["multi_gpu"] = "equal"
    if args.here:
        from assistant.tools.probe import probe_local_gpus

        fields["machine"] = probe_local_gpus()
    if args.vram is not None:
        fields.pop("gpu", None)
        fields.pop("gpus", None)
        fields["vram_gb"] = args.vram
    given_flags(
        args,
        (
            ("task", "task"),
            ("precision", "precision"),
            ("context", "context_tokens"),
            ("params", "params_b"),
            ("kv_precision", "kv_precision"),
            ("gpus", "num_gpus"),
            ("in_use", "in_use_gb"),
        ),
        fields,
    )
    return FitQuery.model_validate(fields)


def run(args: argparse.Namespace) -> int:
    """Print whether the model fits, with the memory breakdown."""
    from assistant.tools.fit import estimate_fit

    result = estimate_fit(build_query(args))
    return finish(
        result,
        args.json,
        lambda: render(result),
        found=result.total_gb is not None,
        message=result.message,
        suggestions=result.suggestions,
    )


def render(result: Any) -> str:
    """The fit estimate for people: verdict, breakdown and what would make it fit."""
    lines = [result.message, ""]
    for part in result.breakdown:
        lines.append(f"  {part.item:<17} {part.gb:8.2f} GB  {part.detail}")
    lines.append(f"  {'total':<17} {result.total_gb:8.2f} GB  ({result.unit})")
    if result.headroom_gb is not None:
        lines.append(f"  {'headroom':<17} {result.headroom_gb:8.2f} GB")
    if result.by_precision:
        lines.append("\nSide by side (no precision named):")
        lines += [
            f"  {r.precision:<8} {r.total_gb:8.2f} GB  {r.verdict.replace('_', ' ')}"
            + ("" if r.runs == "yes" else f"  [{r.runs.replace('_', '-')}]")
            for r in result.by_precision
        ]
    for check in result.precision_support:
        if check.runs != "yes":
            lines.append(f"\nPrecision on {check.gpu}: {check.reason}")
    if result.cards:
        lines.append("\nCards:")
        lines += [
            f"  {c.gpu:<28} {c.load_gb:8.2f} of {c.vram_gb:g} GB  {c.verdict.replace('_', ' ')}"
            for c in result.cards
        ]
    if result.formula:
        lines.append(f"\nFormula: {result.formula}")
    if result.fits_with:
        lines.append("\nWhat would change it:")
        lines += [
            f"  - {o.change}: {o.total_gb:.1f} GB ({o.verdict.replace('_', ' ')})"
            for o in result.fits_with
        ]
    if result.bigger_cards:
        lines.append(f"\nCards it fits: {', '.join(result.bigger_cards)}")
    m = result.nearest_measured
    if m is not None:
        lines.append(
            f"\nNearest measured: {m.value:g} {m.unit} — {m.model}, {m.precision_or_method}, {m.workload}, {m.gpu} [{m.source}]"
        )
    lines.append("\nAssumptions:")
    lines += [f"  - {a}" for a in result.assumptions]
    lines.append("\nSources:")
    lines += [f"  - {s.label()}" + (f" ({s.note})" if s.note else "") for s in result.sources]
    return "\n".join(lines)
