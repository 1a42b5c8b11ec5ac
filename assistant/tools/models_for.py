"""Which models fit: the inverse of the workload fit. For a card (or several, or the probed
machine, or a card plus system RAM for CPU offload) and a task, every model of models.toml with
the precisions it fits at, grouped by family and ordered by size, the largest that fits called out."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from assistant.knowledge.models import MemoryRules, ModelSpec, load_memory_rules, load_models
from assistant.knowledge.sources import Source
from assistant.tools.fit.cards import CardSet, resolve_cards
from assistant.tools.fit.choices import candidates
from assistant.tools.fit.estimate import estimate
from assistant.tools.fit.models import FitQuery, Task, precision_name
from assistant.tools.fit.place import binding_slot, placed
from assistant.tools.fit.precision import check_on_cards, worst
from assistant.tools.fit.resolve import resolve_setup, verdict_for
from assistant.tools.fit.text import TASK_EN, TASK_FR, where
from assistant.tools.probe.models import ProbeReport
from assistant.tools.query import NullsMeanDefaults

Standing = Literal["fits", "tight", "offload", "does_not_fit"]
TRAINING: tuple[str, ...] = ("lora", "qlora", "full_finetune")


class ModelsForQuery(NullsMeanDefaults):
    """A card (or cards, or this machine) and a task: which models fit, at which precision?"""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    gpu: str | None = Field(default=None, max_length=200, description="GPU name ('RTX 3060')")
    gpus: list[str] | None = Field(
        default=None,
        max_length=64,
        description="Several cards: ['2x RTX 3090'] or ['RTX 3090', 'RTX 4090']; sharded",
    )
    vram_gb: float | None = Field(
        default=None, gt=0, le=100_000, description="Card memory in GB as sold, instead of a name"
    )
    num_gpus: int = Field(default=1, ge=1, le=1024, description="How many of `gpu`")
    machine: ProbeReport | None = Field(
        default=None,
        description="The probed machine (the probe_gpus result): free memory is used, not total",
    )
    system_ram_gb: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="System RAM in GB for CPU offload (llama.cpp/Ollama put the layers that do not "
        "fit in VRAM on the CPU): models that fit VRAM + RAM are listed as 'offload', and are slow",
    )
    task: Task = Field(
        default="inference",
        description="inference (LLMs), image_generation (diffusion), lora, qlora or full_finetune",
    )
    precisions: list[str] | None = Field(
        default=None,
        max_length=12,
        description="Precisions to try; default: bf16, fp8, q8_0, q4_k_m for inference, "
        "bf16, fp8, nf4 for images, the task's own for training",
    )
    context_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="Context for inference (default 4096)"
    )
    family: str | None = Field(
        default=None, max_length=100, description="Only this family ('Qwen3', 'Llama 3')"
    )

    @field_validator("precisions")
    @classmethod
    def _known_formats(cls, value: list[str] | None) -> list[str] | None:
        if not value:
            return None
        return [precision_name(name) for name in value]


class PrecisionFit(BaseModel):
    """One model at one precision on the card(s)."""

    precision: str
    total_gb: float = Field(description="On the fullest card, binary GB")
    verdict: Standing
    runs: str = Field(description="yes, weight_only, no or unknown on the card(s)")


class ModelFit(BaseModel):
    """One model: the best precision it fits at, and every precision tried."""

    model: str
    family: str
    params_b: float
    active_params_b: float | None = None
    best: PrecisionFit | None = Field(description="Highest precision that fits (None if none)")
    standing: Standing = Field(
        description="fits, tight, offload (needs system RAM) or does_not_fit"
    )
    precisions: list[PrecisionFit] = Field(default_factory=list)
    decode_tokens_per_s: float | None = Field(
        default=None,
        description="A family's largest language model that fits, at its best precision on the "
        "named card: tokens/s one request at a time (the speed estimate)",
    )


class FamilyFit(BaseModel):
    """A family's models, smallest first, and the largest that fits."""

    family: str
    models: list[ModelFit]
    largest_that_fits: str | None = None


class ModelsForResult(BaseModel):
    """Models and precisions that fit the card(s), by family, with the largest called out."""

    query: ModelsForQuery
    cards: str | None = Field(description="The card(s) as resolved")
    vram_gb: float | None = Field(description="Memory of the fullest card (free memory if probed)")
    total_vram_gb: float | None = Field(description="All cards together; not one pool")
    unit: str = "GB = binary gigabyte (2^30 bytes = 1 GiB), the unit cards are sold in"
    task: str
    precisions: list[str]
    families: list[FamilyFit] = Field(default_factory=list)
    largest_that_fits: ModelFit | None = None
    fitting: int = Field(default=0, description="How many models fit at some precision")
    with_offload: list[str] = Field(default_factory=list)
    formula: str = ""
    assumptions: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    message: str
    message_fr: str = ""
    suggestions: list[str] = Field(default_factory=list)


def _kinds(task: str) -> tuple[str, ...]:
    return (
        ("diffusion-image", "diffusion-video") if task == "image_generation" else ("llm", "llm-moe")
    )


def _precisions(q: ModelsForQuery, rules: MemoryRules) -> list[str]:
    if q.precisions:
        return q.precisions
    if q.task in rules.precision_choices:
        return list(rules.precision_choices[q.task])
    return {"qlora": ["nf4_dq"], "lora": ["bf16"], "full_finetune": ["mixed"]}.get(q.task, ["bf16"])


def _one(
    spec: ModelSpec, q: ModelsForQuery, cards: CardSet, names: list[str], rules: MemoryRules
) -> ModelFit:
    slot = binding_slot(cards)
    capacity = slot.vram_gb if slot else None
    ram = q.system_ram_gb or 0.0
    rows: list[PrecisionFit] = []
    if not q.precisions and q.task in rules.precision_choices:
        names = candidates(q.task, spec, rules)
    for name in names:
        fq = FitQuery(model=spec.name, task=q.task, precision=name, context_tokens=q.context_tokens)
        setup, _ = resolve_setup(fq, spec, spec.params_b, rules)
        if setup is None:
            continue
        est = estimate(placed(setup, cards, "shard"), rules)
        verdict = verdict_for(est, capacity, rules)
        standing: Standing = verdict if verdict in ("fits", "tight") else "does_not_fit"  # type: ignore[assignment]
        if (
            standing == "does_not_fit"
            and ram
            and capacity
            and q.task == "inference"
            and est.total_gb
            <= capacity * rules.fits_below_fraction + ram * rules.offload_ram_fraction
        ):
            standing = "offload"
        rows.append(
            PrecisionFit(
                precision=name,
                total_gb=est.total_gb,
                verdict=standing,
                runs=worst(check_on_cards(setup.fmt, cards.slots, rules)),
            )
        )
    best = None
    for wanted in ("fits", "tight"):  # the highest precision that fits, native formats first
        for ok in (("yes", "unknown"), ("weight_only",)):
            best = best or next((r for r in rows if r.verdict == wanted and r.runs in ok), None)
    if best is None:  # offload: the smallest format keeps the most layers on the GPU
        best = min(
            (r for r in rows if r.verdict == "offload" and r.runs != "no"),
            key=lambda r: r.total_gb,
            default=None,
        )
    return ModelFit(
        model=spec.name,
        family=spec.family,
        params_b=spec.params_b,
        active_params_b=spec.active_params_b,
        best=best,
        standing=best.verdict if best else "does_not_fit",
        precisions=rows,
    )


def _speeds(query: ModelsForQuery, groups: list[FamilyFit]) -> int:
    """Each family's largest language model that fits gets its decode speed on the named card
    (inference only); the number of speeds set."""
    from assistant.tools.speed import SpeedQuery, estimate_speed

    card = query.gpu or (query.gpus[0] if query.gpus and len(set(query.gpus)) == 1 else None)
    if card is None or query.task != "inference":
        return 0
    count = query.num_gpus if query.gpu else len(query.gpus or [])
    done = 0
    for group in groups:
        row = next((m for m in group.models if m.model == group.largest_that_fits), None)
        if row is None or row.best is None:
            continue
        speed = estimate_speed(
            SpeedQuery(
                model=row.model,
                gpu=card,
                precision=row.best.precision,
                gpu_count=max(count, 1),
                context_tokens=query.context_tokens,
            )  # fmt: skip
        )
        if speed.found and speed.decode_tokens_per_s:
            row.decode_tokens_per_s = speed.decode_tokens_per_s
            done += 1
    return done


def models_for(query: ModelsForQuery) -> ModelsForResult:
    """List the models of the model table that fit a card (or several cards, the probed machine's
    free memory, or a card plus system RAM for CPU offload) for a task, with the precisions each
    fits at (bf16, fp8, 8-bit, 4-bit), grouped by family and ordered by size, and the largest that
    fits called out. Each row's total is the workload-fit estimate on the fullest card, in binary
    GB. Unknown card names come back as a message with near names."""
    rules = load_memory_rules()
    cards = resolve_cards(
        FitQuery(
            model="-",
            gpu=query.gpu,
            gpus=query.gpus,
            vram_gb=query.vram_gb,
            num_gpus=query.num_gpus,
            machine=query.machine,
        )
    )
    names = _precisions(query, rules)
    base = dict(query=query, task=query.task, precisions=names)
    if cards.problems or not cards.slots:
        msg = (
            " ".join(cards.problems)
            or "Give a GPU, several GPUs, a memory size or the probed machine."
        )
        return ModelsForResult(
            **base,  # type: ignore[arg-type]
            cards=None,
            vram_gb=None,
            total_vram_gb=None,
            message=msg,
            message_fr=f"Impossible de répondre : {msg}",
            suggestions=cards.suggestions,
        )
    wanted = (query.family or "").strip().lower()
    specs = [
        s
        for s in load_models()
        if s.kind in _kinds(query.task) and (not wanted or wanted in s.family.lower())
    ]
    fits = [_one(s, query, cards, names, rules) for s in specs]
    families: dict[str, list[ModelFit]] = {}
    for row in sorted(fits, key=lambda r: (r.family, r.params_b, r.model)):
        families.setdefault(row.family, []).append(row)
    groups = []
    for family, rows in families.items():
        ok = [r for r in rows if r.standing == "fits"]
        groups.append(
            FamilyFit(
                family=family,
                models=rows,
                largest_that_fits=max(ok, key=lambda r: r.params_b).model if ok else None,
            )
        )
    groups.sort(key=lambda g: (g.largest_that_fits is None, g.family))
    speeds = _speeds(query, groups)
    fitting = [r for r in fits if r.standing == "fits"]
    largest = max(fitting, key=lambda r: r.params_b, default=None)
    slot = binding_slot(cards)
    assert slot is not None
    label, label_fr = where(cards)
    offload = [r.model for r in fits if r.standing == "offload"]
    parts = ["training"] if query.task in TRAINING else ["kv_cache"]
    if query.task == "image_generation":
        parts = ["diffusion"]
    sources = [src for part in [*parts, "overhead"] for src in rules.sources[part]]
    sources += [x for x in rules.precision_choice_sources if x not in sources]
    if query.system_ram_gb:
        sources += rules.offload_sources
    assumptions = [
        *cards.notes,
        "Each row is the workload-fit estimate for that model and precision"
        + (
            f" at {query.context_tokens} tokens of context"
            if query.context_tokens
            else " at its default context (4096 tokens for LLMs, capped at the model's maximum)"
        )
        + "; 'fits' means under "
        + f"{rules.fits_below_fraction:.0%} of the card, 'tight' up to 100%.",
        "A model's best precision is the highest one that fits and runs natively on the card; "
        "weight-only formats (FP8 without FP8 tensor cores) come after.",
        "Memory in binary GB (1 GB = 2^30 bytes), the unit cards are sold in.",
    ]
    if len(cards.slots) > 1:
        assumptions.append(rules.multi_gpu_notes.get("not_one_pool", ""))
    if speeds:
        assumptions.append(
            "Speeds: each family's largest model that fits, generating one request at a time "
            "with llama.cpp at its precision (the speed estimate: memory bandwidth ÷ bytes read "
            "per token)."
        )
    if query.system_ram_gb:
        assumptions.append(
            f"Offload: a model that does not fit the card is listed as 'offload' when it fits the "
            f"card plus {rules.offload_ram_fraction:.0%} of the {query.system_ram_gb:g} GB of system "
            "RAM; the offloaded layers run at system-RAM bandwidth, which is what makes it slow."
        )
    total_models = len(specs)
    task_en = TASK_EN[query.task]
    task_fr = TASK_FR[query.task]
    if largest is not None and largest.best is not None:
        p = largest.best
        msg = (
            f"{len(fitting)} of {total_models} models fit {label} for {task_en}; the largest is "
            f"{largest.model} ({largest.params_b:g}B) at {p.precision} ({p.total_gb:.1f} GB)."
        )
        msg_fr = (
            f"{len(fitting)} modèles sur {total_models} tiennent sur {label_fr} en {task_fr} ; "
            f"le plus gros est {largest.model} ({largest.params_b:g}B) en {p.precision} "
            f"({p.total_gb:.1f} Go)."
        )
    else:
        msg = f"None of the {total_models} models fits {label} for {task_en}."
        msg_fr = f"Aucun des {total_models} modèles ne tient sur {label_fr} en {task_fr}."
    if offload:
        msg += f" With CPU offload (slow): {', '.join(offload[:5])}."
        msg_fr += f" Avec déchargement sur le CPU (lent) : {', '.join(offload[:5])}."
    return ModelsForResult(
        **base,  # type: ignore[arg-type]
        cards=cards.label(),
        vram_gb=slot.vram_gb,
        total_vram_gb=cards.total_vram_gb,
        families=groups,
        largest_that_fits=largest,
        fitting=len(fitting),
        with_offload=offload,
        formula="per model and precision: weights + KV cache (or adapters, gradients, optimizer "
        "states) + activations + CUDA context on the fullest card, compared with "
        f"{rules.fits_below_fraction:.0%} of its memory; offload adds "
        f"{rules.offload_ram_fraction:.0%} of system RAM",
        assumptions=[a for a in assumptions if a],
        sources=sources,
        message=msg,
        message_fr=msg_fr,
    )
