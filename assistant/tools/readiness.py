"""What a card brings to a program whose needs are not known: "will this run on my GTX 1060 6GB?",
"would the app run on an 8 GB M1?". Nobody can say yes or no without the project's requirements;
what decides it is the card's memory, whether the program's framework build runs on the card, and
the precisions it computes at. This gathers those three from the other tools: the largest models
that fit (models_for), the PyTorch check (software_support) and the half-precision verdicts
(gpu_capability), so the asker can hold them against the project's README."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.gpus import GpuCard
from assistant.knowledge.sources import Source, dedupe_sources
from assistant.tools.capability import CapabilityQuery, check_capability
from assistant.tools.models_for import ModelsForQuery, ModelsForResult, models_for
from assistant.tools.software import SoftwareSupportQuery, software_support

# What the PyTorch check is run against: the framework most projects on GitHub are built on.
FRAMEWORK = "PyTorch"


class ReadinessQuery(BaseModel):
    """A card, and the memory it is sold with when the name alone does not say (an 8 GB M1)."""

    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(min_length=1, max_length=200, description="GPU name ('GTX 1060 6GB', 'M1')")
    vram_gb: float | None = Field(
        default=None, gt=0, le=4096, description="Memory as sold, when the name leaves it open"
    )
    gpu_count: int = Field(default=1, ge=1, le=64, description="How many of the card")
    training: bool = Field(
        default=False,
        description="The program trains or fine-tunes: the largest models for QLoRA, LoRA and "
        "full fine-tuning on the cards too",
    )


class LargestModel(BaseModel):
    """The largest model of a kind that fits the card, at its best precision."""

    model: str
    params_b: float
    precision: str
    total_gb: float


class Readiness(BaseModel):
    """What decides whether an unnamed program runs on the card, figure by figure."""

    gpu: str | None = Field(description="The catalog card's name; None when unknown")
    vendor: str | None = None
    architecture: str | None = None
    compute_capability: str | None = None
    vram_gb: float | None = Field(default=None, description="Memory the fit counts, binary GB")
    framework: str = FRAMEWORK
    framework_supported: str | None = Field(
        default=None, description="yes, no, partial or unknown: the framework's builds on the card"
    )
    framework_reason: str | None = None
    framework_reason_fr: str | None = None
    framework_fix: str | None = None
    framework_fix_fr: str | None = None
    framework_last: str | None = Field(default=None, description="Last release for the card")
    fp16_full_rate: str | None = Field(default=None, description="yes, partial, no or unknown")
    bf16: str | None = Field(default=None, description="yes, partial, no or unknown")
    cuda_only_code_runs: bool | None = Field(
        default=None,
        description="Whether code written for CUDA alone runs (NVIDIA: yes; AMD through PyTorch's "
        "ROCm build only; Apple and Intel: no)",
    )
    instead: str | None = Field(default=None, description="A non-NVIDIA card's own stack")
    instead_fr: str | None = None
    gpu_count: int = 1
    largest_llm: LargestModel | None = None
    largest_image_model: LargestModel | None = None
    largest_qlora: LargestModel | None = Field(
        default=None, description="Training asked: the largest model QLoRA fine-tunes on the cards"
    )
    largest_lora: LargestModel | None = None
    largest_full_finetune: LargestModel | None = Field(
        default=None,
        description="Full fine-tuning with Adam in mixed precision, states sharded over the cards",
    )
    models_fitting: int = 0
    image_models_fitting: int = 0
    sources: list[Source] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    message: str
    message_fr: str


def _largest(result: ModelsForResult) -> LargestModel | None:
    best = result.largest_that_fits
    if best is None or best.best is None:
        return None
    return LargestModel(
        model=best.model,
        params_b=best.params_b,
        precision=best.best.precision,
        total_gb=best.best.total_gb,
    )


def _gb(value: float) -> str:
    return f"{value:g}"


def card_readiness(query: ReadinessQuery) -> Readiness:
    """What a card brings to a program whose requirements are not given ("can I run this on my GTX
    1060 6GB?"): its memory and the largest LLM and image model that fit it, whether PyTorch's
    builds run on it (and which), and whether it computes FP16 at full rate and BF16. The answer
    to such a question depends on the program's README; these are the figures to hold against
    it. Unknown card names come back with near names."""
    count = query.gpu_count
    llms = models_for(ModelsForQuery(gpu=query.gpu, vram_gb=query.vram_gb, num_gpus=count))
    if llms.cards is None:
        return Readiness(
            gpu=None,
            suggestions=llms.suggestions,
            message=llms.message,
            message_fr=llms.message_fr,
        )
    images = models_for(
        ModelsForQuery(gpu=query.gpu, vram_gb=query.vram_gb, task="image_generation")
    )
    framework = software_support(SoftwareSupportQuery(gpu=query.gpu, software=FRAMEWORK))
    fp16 = check_capability(CapabilityQuery(gpu=query.gpu, topic="fp16_full_rate"))
    bf16 = check_capability(CapabilityQuery(gpu=query.gpu, topic="bf16"))
    card = _card(query.gpu)
    vendor = str(card.vendor) if card is not None else None
    label = llms.cards
    vram = llms.vram_gb
    # the memory it is sold with: the largest configuration for an Apple chip
    sold = query.vram_gb or (card.vram_gb if card is not None else None)
    memory, memory_fr = "its memory", "sa mémoire"
    if vram is not None:
        memory, memory_fr = f"{_gb(vram)} GB", f"{_gb(vram)} Go"
    if vram is not None and count > 1:
        memory = (
            f"{_gb(vram)} GB per card (the {count} cards do not pool their memory: a model "
            "larger than one card needs a split such as FSDP, DeepSpeed ZeRO-3 or tensor parallel, "
            "while DDP copies it whole to each)"
        )
        memory_fr = (
            f"{_gb(vram)} Go par carte (les {count} cartes ne mettent pas leur mémoire en commun : "
            "un modèle plus gros qu'une carte demande un découpage, FSDP, DeepSpeed ZeRO-3 ou "
            "parallélisme de tenseurs, alors que DDP le copie en entier sur chacune)"
        )
    trained = {
        task: _largest(
            models_for(
                ModelsForQuery(gpu=query.gpu, vram_gb=query.vram_gb, num_gpus=count, task=task)
            )
        )  # fmt: skip
        for task in (("qlora", "lora", "full_finetune") if query.training else ())
    }
    if vram is not None and sold and vendor == "apple" and vram < sold:
        memory = f"the about {_gb(vram)} GB of its {_gb(sold)} GB that the GPU may use"
        memory_fr = f"les quelque {_gb(vram)} Go de ses {_gb(sold)} Go que le GPU peut utiliser"
    runs, runs_fr = _framework_clause(
        framework.supported, framework.last, framework.compute_capability, vendor
    )
    return Readiness(
        gpu=label,
        vendor=vendor,
        architecture=framework.architecture,
        compute_capability=framework.compute_capability,
        vram_gb=vram,
        framework_supported=framework.supported,
        framework_reason=framework.reason,
        framework_reason_fr=framework.reason_fr,
        framework_fix=framework.fix,
        framework_fix_fr=framework.fix_fr,
        framework_last=framework.last,
        fp16_full_rate=fp16.verdict,
        bf16=bf16.verdict,
        cuda_only_code_runs={"nvidia": True, "amd": None}.get(vendor or "", False),
        instead=fp16.instead or bf16.instead,
        instead_fr=fp16.instead_fr or bf16.instead_fr,
        gpu_count=count,
        largest_qlora=trained.get("qlora"),
        largest_lora=trained.get("lora"),
        largest_full_finetune=trained.get("full_finetune"),
        largest_llm=_largest(llms),
        largest_image_model=_largest(images),
        models_fitting=llms.fitting,
        image_models_fitting=images.fitting,
        sources=dedupe_sources([*framework.sources, *fp16.sources, *bf16.sources, *llms.sources]),
        message=(
            f"It depends on what the program needs, which the question does not say: on {label} "
            f"it runs if it fits in {memory} and {runs}."
        ),
        message_fr=(
            f"Cela dépend de ce que demande le programme, que la question ne dit pas : sur "
            f"{label}, il tourne s'il tient dans {memory_fr} et {runs_fr}."
        ),
    )


def _card(gpu: str) -> GpuCard | None:
    from assistant.knowledge.matching import match_gpu

    return match_gpu(gpu).gpu


def _framework_clause(
    supported: str, last: str | None, cc: str | None, vendor: str | None
) -> tuple[str, str]:
    """The framework condition of the first sentence, in both languages."""
    if vendor == "apple":
        return (
            "runs on PyTorch's MPS device or Metal (code written for CUDA alone does not)",
            "passe par le périphérique MPS de PyTorch ou Metal (le code écrit pour CUDA seul ne "
            "tourne pas)",
        )
    if vendor == "amd":
        return (
            "runs on PyTorch's ROCm build (CUDA-only extensions do not)",
            "tourne avec la version ROCm de PyTorch (les extensions propres à CUDA non)",
        )
    if vendor == "intel":
        return (
            "runs on PyTorch's XPU device (code written for CUDA alone does not)",
            "passe par le périphérique XPU de PyTorch (le code écrit pour CUDA seul ne tourne pas)",
        )
    card = f"CC {cc}" if cc else "this card"
    if supported == "no":
        return (
            f"its PyTorch build still supports {card}, which no current build does",
            f"sa version de PyTorch prend encore en charge {card}, ce qu'aucune version actuelle "
            "ne fait",
        )
    if supported == "partial" and last:
        return (
            f"it uses a PyTorch build that still supports {card} (the newest: {last})",
            f"il utilise une version de PyTorch qui prend encore en charge {card} (la plus "
            f"récente : {last})",
        )
    return (
        f"its PyTorch build supports {card}, as current builds do",
        f"sa version de PyTorch prend en charge {card}, comme les versions actuelles",
    )
