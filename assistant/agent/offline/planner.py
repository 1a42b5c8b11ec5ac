"""From a reading of the question to tool calls, with the tools' own argument names.

Each tool intent has one builder that fills the tool's input model from the entities. The
arguments are then checked against the input model itself, so a field a tool does not have is
never sent, and a call the model would reject is dropped rather than failing the turn.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from assistant.agent.offline.card_roles import card_vendors
from assistant.agent.offline.concepts import concept_starts, concepts_in, names_concept
from assistant.agent.offline.cues import asks_about_card_link, asks_which_card
from assistant.agent.offline.entities import Entities
from assistant.agent.offline.options import weighed_without_goal
from assistant.agent.offline.quantities import observed_speed
from assistant.agent.offline.reading import Conversation, Reading, read_turn
from assistant.agent.offline.scope import out_of_scope
from assistant.agent.offline.search_terms import search_query
from assistant.agent.offline.skills import get_skill
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.cloud_instances import instances_named
from assistant.agent.offline.skills.common import named_cards
from assistant.agent.offline.skills.llm_speed import not_a_language_model
from assistant.knowledge.topics import generic_topic_keys
from assistant.log import get_logger
from assistant.money import NoExchangeRate
from assistant.tools.software import DRIVER

log = get_logger(__name__)

SEARCH_TOOL = "search_corpus"
# Intents of a question about which card to have (not what renting or buying one costs).
CARD_CHOICE = frozenset(
    {"gpu_compare", "gpu_lookup", "cloud_instances", "workload_fit", "models_for", "recommend_gpus", "llm_speed",
     "guide_coverage", "gpu_capability"}
)  # fmt: skip
MAX_CALLS = 14  # a feature matrix takes up to 12 checks (gpu_capability.MAX_CHECKS)


@dataclass(frozen=True)
class PlannedCall:
    name: str
    args: dict[str, Any]


@dataclass
class ToolResult:
    """One tool's answer as the model reads it back."""

    name: str
    args: dict[str, Any]
    result: Any = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_content(cls, name: str, args: dict[str, Any], content: str) -> ToolResult:
        """A tool's reply as a result, or as an error when it is not JSON or only {'error': ...}."""
        try:
            value = json.loads(content)
        except ValueError:
            return cls(name=name, args=args, result=None, error=content[:300] or "no result")
        if isinstance(value, dict) and set(value) == {"error"}:
            return cls(name=name, args=args, result=None, error=str(value["error"]))
        return cls(name=name, args=args, result=value)


@lru_cache(maxsize=32)
def input_fields(tool: str) -> frozenset[str] | None:
    """The input model's field names for a tool, or None when the tool can't be imported."""
    from assistant.agent.toolset import TOOL_SPECS, resolve

    for spec in TOOL_SPECS:
        if spec.name == tool:
            try:
                _, model = resolve(spec)
            except (ImportError, AttributeError, TypeError):
                return None
            return frozenset(model.model_fields)
    return None


def _validated(tool: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """`args` restricted to the tool's fields, or None when its input model rejects them."""
    from pydantic import ValidationError

    from assistant.agent.toolset import TOOL_SPECS, resolve

    fields = input_fields(tool)
    if fields is None:
        return None
    clean = {k: v for k, v in args.items() if k in fields and v is not None}
    spec = next(s for s in TOOL_SPECS if s.name == tool)
    _, model = resolve(spec)
    try:
        model.model_validate(clean)
    except ValidationError as exc:
        kinds = {str(err.get("type")) for err in exc.errors()}
        if kinds <= {"missing", "extra_forbidden", "model_type"} or "value_error" in kinds:
            log.info("offline: dropped %s call %s: %s", tool, clean, exc.errors()[:1])
            return None
        # A value the user gave is out of range: call anyway, so the tool's own message explains it.
    return clean


def asks_speed_first(reading: Reading) -> bool:
    """The question is about speed before anything else: the router puts the speed tool first,
    or the question speaks of speed and not of memory fit ('will the L4 double my tokens/s?',
    'a Mac Studio vs 2x 4090 for a 70B: which is faster?')."""
    intents = reading.tool_intents
    if intents[:1] == ["llm_speed"]:
        return True
    text = reading.text
    return (
        ("llm_speed" in intents or reading.entities.options)
        and names_concept("speed", text)
        and not names_concept("fit", text)
    )


def probe_beside_the_point(reading: Reading) -> bool:
    """'Do you have recommendations for a graphics card? I plan to upgrade my computer': the card
    to get is asked, not what the asker's machine holds."""
    named = concepts_in(reading.text)
    return bool(named & _A_CARD_TO_GET) and not named & {"check_gpu", "what_is_there"}


_A_CARD_TO_GET = frozenset({"recommend", "buy", "upgrade"})


def _with_companions(reading: Reading) -> list[str]:
    """The reading's tool intents, plus the ones a question implies without saying.

    A memory-fit question that names no card ("LoRA on SDXL, which card?") also asks which card.
    """
    intents = list(reading.tool_intents)
    ent = reading.entities
    concepts = concepts_in(reading.text)
    if "probe_gpus" in intents and instances_named(reading.text):
        # 'which GPU is in Standard_NC40ads_H100_v5?': the instance's GPU, from the data
        at = intents.index("probe_gpus")
        intents[at : at + 1] = [] if "cloud_instances" in intents else ["cloud_instances"]
    if "probe_gpus" in intents and probe_beside_the_point(reading):
        at = intents.index("probe_gpus")
        intents[at : at + 1] = [] if "recommend_gpus" in intents else ["recommend_gpus"]
    if (
        "workload_fit" in intents
        and not named_cards(ent)
        and not ent.vram_gb
        and "recommend_gpus" not in intents
    ) and asks_which_card(reading.text):
        intents.append("recommend_gpus")
    held = bool((ent.models or ent.model_size_b) and (named_cards(ent) or ent.vram_gb))
    if not intents and held and "fit" in concepts and not reading.follow_up:
        # 'only one 48G card: how can I run a 72B model?' routed to no tool: a sized model, the
        # memory to hold it and a fit asked are the fit calculator's question
        intents.insert(0, "workload_fit")
    if held and "card_readiness" in intents and "workload_fit" not in intents:
        # 'can two A100 40G run Qwen2-72B?': whether a card runs a named model is its memory fit
        intents.insert(intents.index("card_readiness"), "workload_fit")
    if "llm_speed" in intents and "workload_fit" not in intents and not_a_language_model(ent):
        # No tokens/s for an image model: its memory fit is what can be answered, and comes first.
        intents.insert(intents.index("llm_speed"), "workload_fit")
    elif (
        "llm_speed" in intents
        and "workload_fit" not in intents
        and "context_room" in concepts
        and (named_cards(ent) or ent.vram_gb)
    ):
        # 'how many tok/s and how much context fits in the 24GB?': the context is the fit's
        intents.append("workload_fit")
    elif (
        "llm_speed" in intents
        and "workload_fit" not in intents
        and ("concurrency" in concepts or (ent.batch_size or 0) > 1)
        and (named_cards(ent) or ent.vram_gb)
    ):
        # 'how many students can chat at once, and the single-user speed?': how many requests
        # fit together is the fit's; it leads when it is asked before the speed.
        first = _asked_before(reading.text, "concurrency", "speed")
        intents.insert(intents.index("llm_speed") + (0 if first else 1), "workload_fit")
    elif "llm_speed" in intents and "workload_fit" not in intents and held and "fit" in concepts:
        # 'Mistral Small 24B at Q4_K_M: does it fit in 16 GB? and how fast?': both are asked,
        # in the message's order
        first = _asked_before(reading.text, "fit", "speed")
        intents.insert(intents.index("llm_speed") + (0 if first else 1), "workload_fit")
    if (
        "workload_fit" not in intents
        and "fit" in concepts
        and (ent.models or ent.model_size_b)
        and (named_cards(ent) or ent.vram_gb)
        and set(intents) & {"rent_cost", "purchase_price", "job_cost"}
    ):
        # 'if I rent 2x RTX 3090, does full fine-tuning of a 3B fit?': the fit is asked, the
        # rental is its setting; a cost asked as well keeps the lead
        intents.insert(len(intents) if "cost" in concepts else 0, "workload_fit")
    if (
        "cloud_instances" in intents
        and "workload_fit" not in intents
        and (ent.models or ent.model_size_b)
        and named_cards(ent)
        and instances_named(reading.text)  # no instance named: the search sizes each one
        and {"fit", "concurrency", "capability"} & concepts
    ):
        # 'Qwen2.5-7B on g2-standard-8 (1x L4 24GB) in BF16: enough? how many at once?': the
        # instance's card sized for the model, after the instance
        intents.insert(intents.index("cloud_instances") + 1, "workload_fit")
    if (
        "rent_vs_buy" not in intents
        and "break_even" in concepts
        and ent.purchase_total
        and (ent.hourly_rates or "rent" in concepts)
    ):
        # 'a vendor quotes Rs 3.4 lakh … we rent at $1.212/h: how many months to break even?':
        # a purchase price, a rental and a break-even asked are the rent-or-buy calculation
        intents.insert(0, "rent_vs_buy")
    if (
        not intents
        and len(named_cards(ent)) >= 2
        and (
            {"compare", "hindsight"} & concepts
            or (ent.options and (ent.models or ent.model_size_b))
        )
    ):
        # 'Orin NX 16 Go or Orin Nano Super 8 Go: what is the real difference?', 'a DGX Spark or
        # 2x RTX 5090 for R1 671B?' with no tool asked: the cards named, side by side (and the
        # model on each, below)
        intents.append("gpu_compare")
    elif "hindsight" in concepts and len(named_cards(ent)) >= 2 and "gpu_compare" not in intents:
        # 'in hindsight would an RTX 5070 have been smarter? same price here': the card owned
        # and the other compared, not the other's price
        intents = ["gpu_compare", *(i for i in intents if i != "purchase_price")]
    buying = "rent_vs_buy" in intents and not names_renting(reading)
    if (
        ent.options
        and (ent.models or ent.model_size_b)
        and len(named_cards(ent)) >= 2
        and (CARD_CHOICE & set(intents) or buying)
        and not reading.follow_up
    ):
        # Cards named as options for a model: each checked on its own against it, next to their
        # figures side by side (the writer leads with the pick). Cards to buy with no rental to
        # weigh ('sell the 4 4090s and buy one RTX PRO 6000, for our 70B?') are such options.
        if buying:
            intents.remove("rent_vs_buy")
        for name in ("gpu_compare", "workload_fit"):
            if name in intents:
                intents.remove(name)
            intents.insert(0, name)
        if "speed" in concepts and "llm_speed" not in intents:
            intents.append("llm_speed")  # "which is faster?": each option's speed too
        elif asks_speed_first(reading):
            intents.remove("llm_speed")  # 'how many tokens/s on each?': the speeds first
            intents.insert(0, "llm_speed")
    elif ent.options and "power_cost" in intents and _DRAW_VERSUS.search(reading.text):
        # 'what does an H200 node draw vs an MI300X node?': the draws compared, not the specs
        intents.remove("power_cost")
        intents.insert(0, "power_cost")
    elif ent.options and weighed_without_goal(ent) and (CARD_CHOICE & set(intents) or buying):
        # Options of another shape (one card or four, a Mac or a GPU laptop) and no model named:
        # their figures side by side, which the writer's trade-off leads.
        if buying:
            intents.remove("rent_vs_buy")  # which to buy, with no rental to weigh against
        if "gpu_compare" in intents:
            intents.remove("gpu_compare")
        intents.insert(0, "gpu_compare")
    elif ent.options and buying and len(named_cards(ent)) >= 2 and not CARD_CHOICE & set(intents):
        # 'soit une RTX 3060 d'occasion soit une RTX 5060 Ti neuve, laquelle prendre ?': two cards
        # to buy and no rental to weigh against, their figures side by side
        intents.remove("rent_vs_buy")
        intents.insert(0, "gpu_compare")
    if "rent_cost" in intents and ent.fuel_l_per_h and not ent.hourly_rates:
        # 'on the generator, what does it cost per hour?': the fuel's hour, not a rental's
        intents.remove("rent_cost")
    if "notebook_tiers" in intents and "rent_cost" in intents and not names_renting(reading):
        # "100 compute units on Colab Pro: how many hours of A100?": the notebook's units, not a
        # cloud rental nobody asked to price.
        intents.remove("rent_cost")
    if (
        "llm_speed" not in intents
        and (ent.models or ent.model_size_b)
        and observed_speed(reading.text) is not None
    ):
        # "I only get 3 t/s on my 3090 with a 13B": the speed to expect is the yardstick.
        intents.insert(0, "llm_speed")
    if (
        "forgotten_instance" in intents
        and ent.hours_per_day
        and ent.hourly_rates
        and "rent_cost" not in intents
    ):
        # 'used 10 h a day: the monthly bill, and if left on 24/7?': the planned use first.
        intents.insert(intents.index("forgotten_instance"), "rent_cost")
    if (
        "purchase_price" in intents
        and ent.hourly_rates
        and not {"buy", "purchase_price"} & concepts
    ):
        # An hourly rate and no word of buying: what the hours cost is asked, not a card's price.
        intents.remove("purchase_price")
    if ent.speedups and ent.hourly_rates and "rent_cost" not in intents:
        # One priced option faster than another: what the work costs on each is the question.
        intents.insert(0, "rent_cost")
    if ent.speedups and len(ent.hourly_rates) >= 2 and _job_hours(ent):
        # Two quotes for one job ("A at $X/h for 18 h, B at $Y/h but 2.5x longer"): the job's
        # cost on each is the whole question; spec sheets, fits and prices would answer another.
        intents = ["rent_cost", *(i for i in intents if i not in _BESIDE_QUOTES)]
    if "rent_cost" in intents and weighs_purchase(ent):
        # A purchase price next to an hourly rate: the two options are weighed, not one priced.
        at = intents.index("rent_cost")
        if "rent_vs_buy" not in intents:
            intents.insert(at, "rent_vs_buy")
        if not (ent.repeats_per_year or ent.speedups or _job_hours(ent)):
            intents.remove("rent_cost")
    if (
        "rent_vs_buy" in intents
        and "power_cost" in intents
        and intents.index("power_cost") < intents.index("rent_vs_buy")
        and (weighs_purchase(ent) or {"buy", "rent"} <= concepts)
    ):
        # 'buy a 5090 for $2,000 or keep renting? Power is 0.30/kWh': the electricity price is an
        # input of the weighing, which answers first.
        intents.remove("rent_vs_buy")
        intents.insert(intents.index("power_cost"), "rent_vs_buy")
    if weighs_purchase(ent) and "rent_vs_buy" not in intents and "break_even" in concepts:
        # 'renting at $X/h, or buying for $Y: after how many months do we win?'
        intents.insert(0, "rent_vs_buy")
    features = [t for t in ent.topics if not t.startswith("part")]
    if (
        features
        and set(features) <= generic_topic_keys()
        and "gpu_capability" in intents
        and _nvidia_only(ent)
        and {"support", "software", "error"} & concepts
    ):
        # 'Will my 5090 be supported? The new CUDA errors out': every NVIDIA card runs CUDA, so
        # which releases run on this one is the question.
        intents[intents.index("gpu_capability")] = "software_support"
    # "My 4090 is not detected, it runs on the CPU": every NVIDIA card runs CUDA, so a "yes" on
    # the card is no answer; why the program misses it (a CPU-only build, the driver) is.
    undetected_nvidia = (
        "not_detected" in concepts and _nvidia_only(ent) and set(features) <= generic_topic_keys()
    )
    if undetected_nvidia:
        # A CUDA release named beside it ("CUDA 12.4 installed") is context, not the question,
        # unless the asker asks whether it supports the card.
        # A driver version stated beside it ("the driver 535 from the repositories") is checked
        # against the card: an RTX 50 needs 570 or newer.
        kept = "support" in concepts or DRIVER.search(reading.text) is not None
        dropped = {"gpu_capability"} | (set() if kept else {"software_support"})
        intents = [i for i in intents if i not in dropped] or ["corpus_only"]
    checked = {
        "gpu_capability",
        "software_support",
    }  # "CUDA 13 on a V100": a release, not a feature
    if (
        features
        and named_cards(ent)
        and not checked & set(intents)
        and "not_detected" in concepts
        and "nvidia" not in card_vendors(named_cards(ent))
    ):
        # "No GPU found, but lspci lists my Intel UHD 620": whether the card runs what the
        # program looks for is the answer (CUDA never runs on it).
        intents.insert(0, "gpu_capability")
    if (
        named_cards(ent)
        and features
        and not checked & set(intents)
        and not reading.follow_up
        and not _reports_stack_error(reading, features)
        and not undetected_nvidia
    ):
        # A card and a feature named together: check it first (a false premise is corrected first).
        intents.insert(0, "gpu_capability")
    elif (
        named_cards(ent)
        and any(card_feature(f) for f in features)
        and "software_support" in intents
        and "gpu_capability" not in intents
        and not reading.follow_up
        and not _reports_stack_error(reading, features)
    ):
        # A hardware feature of the card ('Bfloat16 is only supported on GPUs with compute
        # capability of at least 8.0' on a Turing card) is checked before the toolkit the message
        # also names ('CUDA Version: 12.4' from nvidia-smi).
        intents.insert(intents.index("software_support"), "gpu_capability")
    if (
        named_cards(ent)
        and not reading.follow_up
        and asks_about_card_link(reading.text)
        and not {"gpu_lookup", "gpu_compare"} & set(intents)
    ):
        intents.insert(0, "gpu_lookup")
    if (
        "software_support" not in intents
        and not reading.follow_up
        and _nvidia_only(ent)
        and set(features) <= generic_topic_keys()
        and all(_retired(card) for card in named_cards(ent))
        and {"error", "not_detected", "support"} & concepts
    ):
        # "architecture (30) is not supported" on a GTX 760: the card left today's CUDA, and
        # which releases still build for it is the answer, before any spec sheet or feature.
        intents = [i for i in intents if i not in ("gpu_capability", "gpu_lookup")]
        intents.insert(0, "software_support")
    if (
        "recommend_gpus" in intents
        and "gpu_compare" not in intents
        and len(named_cards(ent)) >= 2
        and not ent.spendable
        and not any(_priced(card) for card in named_cards(ent))
    ):
        # 'the RTX 5000 Ada or the RTX 5090 laptop: which would you recommend?' with no budget
        # and no price in the data for either: the two named, side by side
        intents.insert(0, "gpu_compare")
    if not intents and instances_named(reading.text):
        # 'if we go NC96ads_A100_v4, is that NVLink or just PCIe?': what the instance holds
        intents.append("cloud_instances")
    return intents


# What a comparison of two quotes for one job does not ask.
_BESIDE_QUOTES = frozenset(
    {"rent_cost", "gpu_compare", "workload_fit", "purchase_price", "gpu_lookup", "llm_speed"}
)


# 'what does an 8-GPU H200 node draw vs an 8x MI300X node': the power of one against the other
_DRAW_VERSUS = re.compile(
    r"\b(?:draws?|pulls?|consumes?|consomment?)\b[^?.]{0,60}?\b(?:vs\.?|versus|against|compared "
    r"(?:to|with)|face (?:à|a)|contre)\b",
    re.IGNORECASE,
)


def _asked_before(text: str, concept: str, other: str) -> bool:
    """Whether the text names `concept` before `other` (or names only the first)."""
    mine, theirs = concept_starts(concept, text), concept_starts(other, text)
    return bool(mine) and (not theirs or mine[0] < theirs[0])


def card_feature(key: str) -> bool:
    """A hardware feature of NVIDIA cards (BF16, FP8, TMA...), not a vendor's whole stack (ROCm,
    Metal, CUDA itself)."""
    from assistant.knowledge.topics import get_topic

    topic = get_topic(key)
    return (
        topic is not None and key not in generic_topic_keys() and list(topic.vendors) == ["nvidia"]
    )


def _priced(card: str) -> bool:
    """The data holds a purchase or rental price for the card (the recommender's own list)."""
    from assistant.tools.recommend.rank import priced_cards

    return card in {c.name for c in priced_cards()}


def names_renting(reading: Reading) -> bool:
    """The question speaks of renting or gives an hourly rate: a rental may be priced."""
    return "rent" in concepts_in(reading.text) or bool(reading.entities.hourly_rates)


def _reports_stack_error(reading: Reading, features: list[str]) -> bool:
    """An error report that names a software stack, not a hardware feature ("device='mps' raised
    TypeError on my M2"): whether the card runs Metal or ROCm at all is not what is asked. A
    hardware feature in an error ("bf16 is not supported on my T4") is still checked."""
    from assistant.knowledge.features import get_feature

    return "error" in concepts_in(reading.text) and all(get_feature(f) is None for f in features)


def _retired(card: str) -> bool:
    """An NVIDIA card that no toolkit of the last two major releases builds for (a Fermi, a
    Kepler): "is it supported?" there means "which old CUDA still runs it?". A Pascal, left out
    only by the newest release, still runs current frameworks' CUDA 12 builds."""
    from assistant.knowledge.cuda_support import get_arch, load_cuda_support, version_key
    from assistant.knowledge.matching import match_gpu

    found = match_gpu(card).gpu
    arch = get_arch(found.compute_capability) if found and found.compute_capability else None
    if arch is None or arch.last_toolkit is None:
        return False
    newest = version_key(load_cuda_support().newest_toolkit)[0]
    return version_key(arch.last_toolkit)[0] < newest - 1


def _nvidia_only(ent: Entities) -> bool:
    """Every card the question names is an NVIDIA card."""
    return card_vendors(named_cards(ent)) == {"nvidia"}


def weighs_purchase(ent: Entities) -> bool:
    """Whether a question gives both a price to buy and a rate to rent."""
    return bool(ent.buy_mentioned and ent.budgets and ent.hourly_rates)


def _job_hours(ent: Entities) -> float | None:
    """A job's length in hours ('a 500-hour run'), not a calendar span of ownership."""
    return next((d.hours for d in ent.durations if d.hours and d.unit in ("hour", "minute")), None)


def _named_concepts(reading: Reading) -> set[str]:
    """The concepts the question names, and those its figures name: a price per kWh is about
    electricity even when written 'Rs 8 per unit'."""
    found = set(concepts_in(reading.text))
    if reading.entities.electricity_price is not None:
        found.add("electricity")
    return found


def tool_calls_for(reading: Reading) -> list[PlannedCall]:
    """The deterministic tool calls for a reading (without the corpus search)."""
    calls: list[PlannedCall] = []
    for intent in _with_companions(reading):
        name: str | None = intent
        tried: set[str] = set()
        while name is not None and name not in tried:
            tried.add(name)
            skill = get_skill(name)
            if skill is None:
                break
            if (
                skill.requires
                and not reading.follow_up  # a follow-up keeps the intent its question named
                and not set(skill.requires) & _named_concepts(reading)
            ):
                log.info(
                    "offline: %s not called: the question names none of %s", name, skill.requires
                )
                break
            ent = reading.entities_for(intent)
            built = _built(skill, ent, reading)
            if built:
                calls.extend(
                    PlannedCall(name, args)
                    for args in built
                    if PlannedCall(name, args) not in calls
                )
                break
            name = skill.next_tool(ent, reading)
    if not calls and not reading.tool_intents:
        calls.extend(_card_side(reading))
    for card in reading.entities.unknown_gpus[:2]:
        # An unknown card always gets the catalog's own verdict, so the answer can say so.
        if not any(card in json.dumps(c.args) for c in calls):
            args = _validated("gpu_lookup", {"gpu": card})
            if args is not None:
                calls.append(PlannedCall("gpu_lookup", args))
    return calls[:MAX_CALLS]


def _card_side(reading: Reading) -> list[PlannedCall]:
    """A question no tool was chosen for that asks whether its one card runs something ('is it
    compatible with an RTX 3060 Ti?'): the card's side of the answer (card_readiness), whose
    builder decides, rather than the nearest question of the knowledge base."""
    skill = get_skill("card_readiness")
    if skill is None:
        return []
    return [PlannedCall(skill.tool, a) for a in _built(skill, reading.entities, reading)]


def _built(skill: Skill[Any], ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """The skill's calls for these entities, each validated against its tool's input."""
    try:
        raw_calls = skill.build(ent, reading)
    except NoExchangeRate as exc:  # a price the builder compares, in a currency with no rate
        log.info("offline: %s not called: %s", skill.tool, exc)
        return []
    return [a for a in (_validated(skill.tool, raw) for raw in raw_calls) if a is not None]


def plan_tool_calls(conversation: Conversation, available: set[str]) -> list[PlannedCall]:
    """Every tool call for the turn: the intents' tools, then a corpus search for citations."""
    reading = read_turn(conversation)
    if out_of_scope(reading.text, reading.earlier):
        return []
    if (
        reading.intents == ["greeting"]
        or reading.intents == ["declined"]
        and not reading.entities.has_facts()
    ):
        return []
    calls = tool_calls_for(reading)
    if reading.intents == ["declined"]:
        # Nothing left to do but state the catalog's facts about the cards the injected text names.
        for card in named_cards(reading.entities):
            args = _validated("gpu_lookup", {"gpu": card})
            if args is not None and PlannedCall("gpu_lookup", args) not in calls:
                calls.append(PlannedCall("gpu_lookup", args))
    query = search_query(reading)
    if query:
        args = _validated(SEARCH_TOOL, {"query": query, "k": 4})
        if args is not None:
            calls.append(PlannedCall(SEARCH_TOOL, args))
    if available:
        calls = [c for c in calls if c.name in available]
    return calls
