"""Whole-job cost: a training, fine-tuning or inference run on a card or an instance. FLOPs ≈
k × parameters × tokens (k = 6 to train, 2 for inference), ÷ (dense tensor throughput ×
utilisation) = GPU-hours, × the hourly price = the total. Every result shows its formula and inputs."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field

from assistant.knowledge.prices import hourly_price_range
from assistant.knowledge.sources import Source, dedupe_sources
from assistant.money import format_money, format_number
from assistant.tools.cost_base import MIN_RATE, CostResult, MoneyQuery, money_context

Task = Literal["train", "full_finetune", "lora", "inference"]
FORMULA = (
    "FLOPs = k × parameters × tokens; GPU-hours = FLOPs ÷ (dense FP16/BF16 tensor FLOPS × "
    "utilisation) ÷ 3600; hours = GPU-hours ÷ cards; cost = GPU-hours × price per GPU-hour"
)
FORMULA_FR = (
    "FLOP = k × paramètres × tokens ; heures-GPU = FLOP ÷ (FLOPS tensoriels denses FP16/BF16 × "
    "utilisation) ÷ 3600 ; heures = heures-GPU ÷ cartes ; coût = heures-GPU × prix de l'heure-GPU"
)
TASK_EN = {"train": "Training", "full_finetune": "Full fine-tuning", "lora": "LoRA fine-tuning",
           "inference": "Inference"}  # fmt: skip
TASK_FR = {"train": "L'entraînement", "full_finetune": "Le fine-tuning complet", "lora": "Le fine-tuning LoRA",
           "inference": "L'inférence"}  # fmt: skip


def _tokens(n: float, lang: str = "en") -> str:
    for scale, en, fr in ((1e12, "T", "000 G"), (1e9, "B", " G"), (1e6, "M", " M")):
        if n >= scale:
            value = f"{n / scale:.3g}"
            return f"{value}{en}" if lang == "en" else f"{value.replace('.', ',')}{fr}"
    return f"{n:.0f}"


class JobCostQuery(MoneyQuery):
    """What does a whole training, fine-tuning or inference run cost?"""

    model: str | None = Field(default=None, max_length=200, description="Model name or size ('8B')")
    params_b: float | None = Field(
        default=None, gt=0, le=10_000, description="Parameters, billions"
    )
    tokens: float = Field(gt=0, le=1e15, description="Tokens processed (1e9 = one billion)")
    task: Task = Field(
        default="full_finetune", description="train, full_finetune, lora or inference"
    )
    gpu: str | None = Field(default=None, max_length=200, description="The card, e.g. 'H100'")
    gpu_count: int = Field(default=1, ge=1, le=100_000, description="Cards working together")
    tflops: float | None = Field(
        default=None, gt=0, le=100_000, description="Dense FP16/BF16 tensor TFLOPS per card"
    )
    utilisation: float | None = Field(
        default=None, gt=0, le=1, description="Share of peak reached (default 0.4)"
    )
    rate_per_hour: float | None = Field(
        default=None,
        ge=MIN_RATE,
        description="Price per GPU-hour in `currency` (default: price data)",
    )


class JobCost(CostResult):
    """GPU-hours, wall-clock hours and cost of the run, with the formula and every input."""

    found: bool = True
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)
    model: str | None = None
    params_b: float | None = None
    tokens: float
    task: Task
    flops: float | None = None
    gpu: str | None = None
    gpu_count: int = 1
    tflops: float | None = None
    utilisation: float | None = None
    gpu_hours: float | None = None
    wall_hours: float | None = None
    rate_per_hour: float | None = None
    total_cost: float | None = None
    cost_low: float | None = None
    cost_high: float | None = None
    formula: str = FORMULA
    formula_fr: str = FORMULA_FR
    inputs: dict[str, float | str] = Field(default_factory=dict)
    summary_fr: str = ""


@lru_cache(maxsize=1)
def _data() -> dict:  # type: ignore[type-arg]
    from assistant.knowledge.loader import read_toml_table

    return read_toml_table("job_cost.toml")


def job_cost(q: JobCostQuery) -> JobCost:
    """Estimate a whole training, fine-tuning or inference run: FLOPs ≈ 6 × parameters × tokens to
    train (4 for LoRA, 2 for inference), divided by the card's dense tensor throughput × a stated
    utilisation gives GPU-hours; × the hourly price (the price data's, or rate_per_hour) gives the
    total; ÷ the number of cards gives the wall-clock time. Shows the formula and every input."""
    from assistant.knowledge.matching import match_gpu
    from assistant.knowledge.model_matching import match_model, parse_param_count

    cur, rate_fx, assumptions = money_context(q)
    data = _data()
    base = {
        "currency": cur,
        "usd_per_eur": rate_fx,
        "tokens": q.tokens,
        "task": q.task,
        "gpu_count": q.gpu_count,
    }
    sources: list[Source] = [Source.model_validate(s) for s in data["sources"]["flops"]]
    params, label = q.params_b, q.model
    if params is None and q.model:
        m = match_model(q.model)
        if m.model is not None and m.score >= 1.0:
            params, label = m.model.params_b, m.model.name
        else:
            params = parse_param_count(q.model)
    if params is None:
        msg = "Say which model (a name or a size such as '8B'), or give params_b."
        return JobCost(found=False, message=msg, summary=msg, summary_fr="Précisez le modèle ou sa taille (par exemple « 8B »).",
                       assumptions=assumptions, **base)  # fmt: skip
    card = None
    if q.gpu:
        gm = match_gpu(q.gpu)
        card = gm.gpu
        if card is None and (q.tflops is None or q.rate_per_hour is None):
            msg = f"'{q.gpu}' is not in the GPU catalog; give tflops and rate_per_hour."
            return JobCost(found=False, message=msg, suggestions=gm.suggestions, summary=msg,
                           summary_fr="Carte absente du catalogue : donnez tflops et rate_per_hour.",
                           assumptions=assumptions, **base)  # fmt: skip
    tflops = q.tflops or (card.fp16_tensor_tflops if card else None)
    if not tflops:
        msg, msg_fr = (
            (
                f"The catalog has no tensor-core throughput for {card.name}, so I can't time a run "
                "on it (give its TFLOPS to estimate one).",
                f"Le catalogue n'a pas de débit tensoriel pour {card.name} : je ne peux pas estimer "
                "la durée d'un entraînement dessus (donnez ses TFLOPS pour l'estimer).",
            )
            if card
            else ("Say which card, or give tflops.", "Précisez la carte ou son débit (tflops).")
        )
        return JobCost(found=False, message=msg, summary=msg, summary_fr=msg_fr,
                       assumptions=assumptions, **base)  # fmt: skip
    if card and q.tflops is None:
        sources += card.source_for("fp16_tensor_tflops")
        assumptions.append(
            f"Throughput: {tflops:g} dense FP16/BF16 tensor TFLOPS per card, from the catalog."
        )
    util = q.utilisation or float(data["utilisation"]["default"])
    if q.utilisation is None:
        sources += [Source.model_validate(s) for s in data["sources"]["utilisation"]]
        assumptions.append(
            f"Utilisation: {util:.0%} of peak, typical of a well-tuned large run (smaller or less tuned runs reach less)."
        )
    if q.task == "inference":
        assumptions.append(
            "Inference here is the compute floor of batched serving; one request at a time is memory-bound "
            "and slower (see llm_speed)."
        )
    k = float(data["flops_per_param_token"][q.task])
    flops = k * params * 1e9 * q.tokens
    gpu_hours = flops / (tflops * 1e12 * util) / 3600
    wall = gpu_hours / q.gpu_count
    rate = q.rate_per_hour
    low = high = None
    if rate is None and card is not None:
        rng = hourly_price_range(card.name, currency=cur, usd_per_eur=rate_fx)
        if rng is not None:
            rate, low, high = rng.typical, rng.low * gpu_hours, rng.high * gpu_hours
            sources += rng.sources[:4]
            assumptions.append(
                f"Price: the median of {rng.n} sourced hourly prices per GPU (spot excluded)."
            )
    total = rate * gpu_hours if rate is not None else None
    name = card.name if card else q.gpu
    inputs: dict[str, float | str] = {"k_flops_per_param_token": k, "params_b": params, "tokens": q.tokens,
                                      "tflops_per_card": tflops, "utilisation": util, "cards": q.gpu_count}  # fmt: skip
    if rate is not None:
        inputs["price_per_gpu_hour"] = rate
    who = f"{q.gpu_count} × {name}" if q.gpu_count > 1 else str(name)
    summary = (
        f"{TASK_EN[q.task]} of a {params:g}B model on {_tokens(q.tokens)} tokens: {flops:.2e} FLOPs = "
        f"{format_number(gpu_hours, 1)} GPU-hours at {util:.0%} of {tflops:g} TFLOPS, "
        f"{format_number(wall, 1)} h on {who}"
    )
    summary_fr = (
        f"{TASK_FR[q.task]} d'un modèle de {format_number(params, 2, 'fr').rstrip('0').rstrip(',')} G paramètres "
        f"sur {_tokens(q.tokens, 'fr')} tokens : {flops:.2e} FLOP = {format_number(gpu_hours, 1, 'fr')} heures-GPU "
        f"à {util * 100:.0f}\u202f% de {format_number(tflops, 1, 'fr')} TFLOPS, {format_number(wall, 1, 'fr')} h sur {who}"
    )
    if total is not None and rate is not None:
        summary += f", about {format_money(total, cur)} at {format_money(rate, cur)} per GPU-hour."
        summary_fr += f", environ {format_money(total, cur, 'fr')} à {format_money(rate, cur, 'fr')} l'heure-GPU."
    else:
        summary += "; no hourly price for this card in the data (give rate_per_hour)."
        summary_fr += (
            " ; pas de prix horaire pour cette carte dans les données (donnez rate_per_hour)."
        )
    return JobCost(
        model=label, params_b=params, flops=flops, gpu=name, tflops=tflops, utilisation=util,
        gpu_hours=gpu_hours, wall_hours=wall, rate_per_hour=rate, total_cost=total, cost_low=low,
        cost_high=high, inputs=inputs, summary=summary, summary_fr=summary_fr,
        assumptions=assumptions, sources=dedupe_sources(sources), **base,
    )  # fmt: skip
