"""What a recommendation query asks for: topics whose capability verdicts must not be 'no', and the
VRAM a workload needs, read from the structured fields or from a free-text goal."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.knowledge.sources import Source
from assistant.knowledge.thresholds import vram_threshold
from assistant.knowledge.topics import (
    Topic,
    find_topic_mentions,
    get_topic,
    match_topic,
    suggest_topics,
    topic_for_part,
)
from assistant.tools.fit import FitQuery, estimate_fit, minimum_vram_gb
from assistant.tools.recommend.models import RecommendQuery, Workload

_TASKS: dict[str, str] = {
    "lora": "lora",
    "qlora": "qlora",
    "flux": "image_generation",
    "llm_inference": "inference",
    "training": "full_finetune",
}
_WORKLOAD_WORDS: tuple[tuple[re.Pattern[str], Workload], ...] = (
    (re.compile(r"\bq-?lora\b", re.I), "qlora"),
    (re.compile(r"\blora\b", re.I), "lora"),
    (re.compile(r"\bflux\b", re.I), "flux"),
    (
        re.compile(
            r"\b(train\w*|entra[iî]n\w*|deep learning|apprentissage profond|machine learning|"
            r"fine-?tun\w*|affin\w*)\b",
            re.I,
        ),
        "training",
    ),
    (
        re.compile(r"\b(llms?|inference|inférence|serv(e|ing)|chatbot|local (ai|llms?))\b", re.I),
        "llm_inference",
    ),
)
_LEARNING_WORDS = re.compile(
    r"\b(learn\w*|apprend\w*|apprentissage|guide|cours|course|gpu programming|"
    r"programmation gpu|cuda)\b",
    re.I,
)
_UP_TO_PART = re.compile(
    r"\b(?:up to|through|jusqu'?[àa] (?:la )?)\s*(?:part|partie)\s*(\d)\b", re.I
)


@dataclass(frozen=True)
class FitTier:
    """Cards with at least `min_vram_gb` (as sold) run the workload as described by `label`."""

    min_vram_gb: float
    label: str


@dataclass
class Goal:
    """The resolved goal: what the verdicts and the VRAM check test, and how options are ranked."""

    topics: list[Topic] = field(default_factory=list)
    learning: bool = False
    feature_topics: list[Topic] = field(default_factory=list)
    workload: Workload | None = None
    model: str | None = None
    fit_tiers: list[FitTier] = field(default_factory=list)
    description: str = ""
    program: str | None = None  # a program named as the goal (Blender...), not a workload
    assumed: bool = False  # no goal stated at all: learning with the guide was assumed
    assumptions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)

    @property
    def parts(self) -> list[int]:
        """Guide parts of a learning goal (a feature goal such as megakernels names none)."""
        features = {t.key for t in self.feature_topics}
        return [t.part for t in self.topics if t.part is not None and t.key not in features]

    def add_topic(self, topic: Topic, as_guide_part: bool = False) -> None:
        """A requirement; a guide part makes it a learning goal, anything else a feature goal."""
        if all(t.key != topic.key for t in self.topics):
            self.topics.append(topic)
        if as_guide_part:
            self.learning = True
        elif all(t.key != topic.key for t in self.feature_topics):
            self.feature_topics.append(topic)


def _guide_up_to(goal: Goal, part: int) -> None:
    for n in range(1, part + 1):
        topic = topic_for_part(n)
        if topic is not None:
            goal.add_topic(topic, as_guide_part=True)


def resolve_goal(q: RecommendQuery) -> Goal:
    """Structured fields first, then the free-text goal; nothing at all means learning the guide."""
    goal = Goal()
    if q.guide_part is not None:
        _guide_up_to(goal, q.guide_part)
    if q.feature:
        topic = get_topic(q.feature) or match_topic(q.feature)
        if topic is None:
            goal.problems.append(f"'{q.feature}' is not a known feature or topic.")
            goal.suggestions.extend(suggest_topics(q.feature))
        else:
            goal.add_topic(topic, as_guide_part=_names_a_part(q.feature, topic))
    workload: Workload | None = q.workload
    model = q.model
    if q.goal:
        workload, model = _read_goal_text(goal, q.goal, workload, model)
    goal.workload = workload
    if workload or model or q.model_params_b:
        _size_workload(goal, workload, model, q.model_params_b)
        tensor_cores = get_topic("tensor_cores")
        # Running an LLM is bound by memory and its bandwidth, not matrix units: Apple silicon and
        # Radeon cards run it (llama.cpp, MLX, ROCm), so the corpus's criterion holds for the
        # other AI work only.
        if (
            tensor_cores is not None
            and workload != "llm_inference"
            and all(t.key != tensor_cores.key for t in goal.topics)
        ):
            goal.topics.append(tensor_cores)
            goal.assumptions.append(
                "AI workloads need tensor cores (the corpus's criterion), so cards without them "
                "are left out."
            )
    program = _program_named(q.goal) if q.goal and not goal.topics and not goal.workload else None
    if program is not None and not goal.fit_tiers and not about_learning(q.goal or ""):
        # A named program (Blender, DaVinci...) is the goal, not learning GPU programming
        goal.description = goal.program = program
        goal.assumptions.append(
            f"No memory or speed requirement is known for {program}: the most capable cards the "
            "budget buys come first (memory bandwidth, then memory)."
        )
        return goal
    if not goal.topics and not goal.workload and not goal.fit_tiers and not goal.problems:
        _guide_up_to(goal, 9)
        goal.assumed = True
        goal.assumptions.append(
            "No goal given: assumed learning GPU programming with the whole guide (parts 1–9)."
        )
    goal.description = _describe(goal)
    return goal


def _program_named(text: str) -> str | None:
    """The program a free-text goal names (from the programs' data), or None."""
    from assistant.knowledge.programs import find_program

    program = find_program(text)
    return program.name if program is not None else None


def workload_in(text: str) -> Workload | None:
    """The workload a free text names ("run a local LLM" -> llm_inference), or None."""
    return next((w for pattern, w in _WORKLOAD_WORDS if pattern.search(text)), None)


def about_learning(text: str) -> bool:
    """The text speaks of learning (GPU programming, CUDA, a course or the guide)."""
    return bool(_LEARNING_WORDS.search(text))


def _read_goal_text(
    goal: Goal, text: str, workload: Workload | None, model: str | None
) -> tuple[Workload | None, str | None]:
    up_to = _UP_TO_PART.search(text)
    if up_to:
        _guide_up_to(goal, int(up_to.group(1)))
    for mention in find_topic_mentions(text):
        topic = get_topic(mention.key)
        if topic is not None and not (up_to and topic.part and topic.part <= int(up_to.group(1))):
            goal.add_topic(topic, as_guide_part=_names_a_part(mention.text, topic))
    if workload is None:
        workload = workload_in(text)
    if model is None:
        from assistant.knowledge.model_matching import find_model_mentions

        mentions = [m for m in find_model_mentions(text) if m.model is not None or m.params_b]
        if mentions:
            m = mentions[0]
            model = m.model.name if m.model is not None else f"{m.params_b:g}B"
    if not goal.topics and not workload and not model and about_learning(text):
        _guide_up_to(goal, 9)
        goal.assumptions.append("Goal read as learning GPU programming with the guide (parts 1–9).")
    return workload, model


def _names_a_part(text: str, topic: Topic) -> bool:
    """'part 8' / 'partie 8' names a guide part; 'megakernels' names the same topic as a feature."""
    return topic.part is not None and bool(re.match(r"(?i)\s*part", text))


def _size_workload(
    goal: Goal, workload: Workload | None, model: str | None, params_b: float | None
) -> None:
    from assistant.knowledge.model_matching import match_model

    if model is None and params_b is None:
        if workload == "flux":
            model = "flux dev"
        elif workload in ("lora", "qlora"):
            lora = vram_threshold("lora")
            goal.fit_tiers.append(FitTier(lora.vram_gb, lora.label))
            goal.assumptions.append(
                f"No model given: used the corpus's rule of thumb that LoRA work wants "
                f"{lora.vram_gb:g} GB of VRAM."
            )
            goal.sources.extend(lora.sources)
            return
        elif workload == "training":
            floor = vram_threshold("learning_comfort")
            goal.fit_tiers.append(FitTier(floor.vram_gb, floor.label))
            goal.assumptions.append(
                f"No model given for training: cards with tensor cores and at least "
                f"{floor.vram_gb:g} GB rank first (the guide's purchase table starts there); "
                f"LoRA and image-generation training want {vram_threshold('lora').vram_gb:g} GB."
            )
            goal.sources.extend(floor.sources)
            return
        else:
            goal.notes.append(
                "No model size given for LLM inference: no fit was checked, and the cards with "
                "the most VRAM for the budget come first (memory bounds the models a card holds). "
                "Give a model name or a parameter count for a fit check."
            )
            return
    name = model or f"{params_b:g}B"
    task = _TASKS.get(workload or "", "inference")
    if workload is None and model is not None:
        spec = match_model(model).model
        if spec is not None and spec.is_diffusion:
            task = "image_generation"
    query = FitQuery.model_validate(
        {"model": name, "params_b": params_b if model is None else None, "task": task}
    )
    result = estimate_fit(query)
    goal.model = result.model or name
    full = minimum_vram_gb(query)
    if full is None:
        goal.problems.append(result.message)
        goal.suggestions.extend(result.suggestions)
        return
    goal.fit_tiers.append(FitTier(full, f"{result.precision or 'default precision'}"))
    goal.assumptions.extend(f"Fit: {a}" for a in result.assumptions[:3])
    goal.sources.extend(result.sources[:3])
    reduced = _reduced(query)
    if reduced is not None:
        low = minimum_vram_gb(reduced)
        if low is not None and low < full:
            label = "QLoRA (4-bit base)" if reduced.task == "qlora" else f"{reduced.precision}"
            goal.fit_tiers.append(FitTier(low, label))


def _reduced(query: FitQuery) -> FitQuery | None:
    if query.task == "lora":
        return query.model_copy(update={"task": "qlora"})
    if query.task in ("inference", "image_generation") and query.precision is None:
        return query.model_copy(update={"precision": "fp8"})
    return None


def _describe(goal: Goal) -> str:
    bits = []
    parts = goal.parts
    if parts:
        if parts == list(range(1, max(parts) + 1)) and len(parts) > 1:
            bits.append(f"the guide, parts 1–{max(parts)}")
        else:
            bits.append("guide part " + ", ".join(str(p) for p in parts))
    bits.extend(t.name for t in goal.feature_topics)
    if goal.workload:
        bits.append(goal.workload.replace("_", " "))
    if goal.model:
        bits.append(goal.model)
    return "; ".join(bits)
