"""Entity and keyword cues that confirm or rule out an intent the embedding proposes.

The embedding similarity says what a question resembles; these cues say whether the question
has what that intent needs (two cards to compare, a model to fit, a budget to plan).
"""

from __future__ import annotations

import re

from assistant.agent.offline.entities import Entities

_COMPARE = re.compile(
    r"\b(?:vs\.?|versus|compare[sd]?|comparing|comparison|compar(?:er|ez|aison|atif)|difference|différences?"
    r"|better than|meilleure? que|faster than|plus rapide que|against|contre|face (?:à|a)|or the|ou la|ou le"
    r"|stack up|which is (?:better|faster)|laquelle|lequel|entre|between|le plus de|the most|the more"
    r"|which (?:one |card )?has (?:more|less|the most)|more \w+ than|plus de \w+ que)\b",
    re.IGNORECASE,
)
_SPECS = re.compile(
    r"\b(?:specs?|specifications?|caractéristiques|fiche|vram|memory|mémoire|bandwidth|bande passante|sms?"
    r"|compute capability|cc|tdp|power|consommation|watts?|architecture|arch|tflops|flops|fp64|shared memory"
    r"|how much (?:ram|memory|vram)|combien de (?:go|vram|mémoire)|génération|generation|cores?|cœurs?|year|année"
    r"|details?|détails?|tell me about|parle-moi|what is the|quelle est la)\b",
    re.IGNORECASE,
)
_CAPABILITY = re.compile(
    r"\b(?:support[s]?|supporte|can (?:i|it|my|the|a|you)|could|does .{0,30}(?:have|do|support|run)|has|have"
    r"|peut|peux|puis-je|gère|a-t-elle|a-t-il|dispose|enough for|suffi\w*|good for|able to|capable|works? with"
    r"|marche|fonctionne|available|disponible|dispo)\b",
    re.IGNORECASE,
)
_RENT = re.compile(
    r"\b(?:rent\w*|hire|cloud|hourly|per hour|an hour|/h|louer|location|loue|à l'heure|de l'heure|horaire"
    r"|runpod|vast|lambda|coreweave|aws|gcp|azure)\b|/h\b",
    re.IGNORECASE,
)
_COST = re.compile(
    r"\b(?:cost\w*|price\w*|pay|bill|expensive|cheap\w*|how much|coût\w*|coute\w*|prix|tarif\w*|combien|payer"
    r"|facture|cher|€|\$)|[€$]",
    re.IGNORECASE,
)
# "How much VRAM", "combien de mémoire": a quantity of a spec, not a price.
_SPEC_QUANTITY = re.compile(
    r"\b(?:how (?:much|many)|combien)\s+(?:de\s+|d')?(?:vram|ram|memory|mémoire|go|gb|bandwidth|bande passante"
    r"|sms?|cores?|cœurs?|watts?|power|tflops|shared memory|cache|tensor cores?)\b",
    re.IGNORECASE,
)
_SPOT = re.compile(
    r"\b(?:spot|preemptible|pre-emptible|interruptible|préemptible|on-demand|à la demande|dedicated|dédiée?s?"
    r"|interrupt\w*|interromp\w*)\b",
    re.IGNORECASE,
)
_BUY_WORDS = r"(?:buy|buying|purchas\w*|own|owning|acheter|achat|ach[eè]te\w*|poss[eé]der)"
_RENT_WORDS = r"(?:rent|renting|rental|cloud|louer|location|by the hour|per hour|hourly|à l'heure|pay(?:ing)? as you go)"
_BUY_VS_RENT = re.compile(
    rf"\b{_BUY_WORDS}\b.{{0,40}}\b{_RENT_WORDS}(?!\w)"
    rf"|\b{_RENT_WORDS}\b.{{0,40}}\b{_BUY_WORDS}\b"
    r"|break-?even|pays? off|rentab\w*|amorti\w*|seuil"
    r"|how many hours.{0,30}(?:per|a|each) day|combien d'heures.{0,30}par jour",
    re.IGNORECASE,
)
_FORGOT = re.compile(
    r"\b(?:forg[oe]t\w*|left .{0,30}(?:on|running)|idle|oubli\w*|laiss\w* .{0,30}(?:allum|tourn)\w*|allumée?"
    r"|shut ?down|turn(?:ed)? off|éteindre|éteint|ran idle|running all|stayed on|kept running|by mistake"
    r"|par erreur|rest\w+ allum\w*|tourn\w+ pour rien)\b",
    re.IGNORECASE,
)
_STORAGE = re.compile(
    r"\b(?:storage|disk|disque|stockage|volume|ssd|persistent|persistant)\b", re.IGNORECASE
)
_BUDGET = re.compile(
    r"\b(?:budget|spend|dépenser|répartir|split|allocate|plan|with \d+|avec \d+|i have|j'ai|dispose)\b",
    re.IGNORECASE,
)
_LEARN = re.compile(
    r"\b(?:learn\w*|apprend\w*|former|formation|study|étudier|teach|guide|course|cours|débuter|beginner|débutant)\b",
    re.IGNORECASE,
)
_FIT = re.compile(
    r"\b(?:fit|fits|tient|tenir|rentre|run|runs|serve|load|charger|tourner|inference|inférence|fine-?tun\w*"
    r"|train\w*|entraîn\w*|affiner|lora|qlora|vram needed|how much vram|combien de vram|enough vram"
    r"|context|contexte|kv cache|tokens?)\b",
    re.IGNORECASE,
)
_RECOMMEND = re.compile(
    r"\b(?:recommend\w*|suggest\w*|conseil\w*|recommand\w*|which (?:gpu|card)|what (?:gpu|card)|quel(?:le)? (?:gpu|carte)"
    r"|best (?:gpu|card)|meilleure? (?:gpu|carte)|should i (?:buy|get|rent)|what should i|que prendre"
    r"|que (?:me )?conseill\w*|cheapest (?:hardware|gpu|card)|moins cher"
    r"|(?:buy|get|purchase) (?:a |an |one |my first )?(?:new |used )?(?:gpu|graphics card|card)"
    r"|(?:acheter|prendre) (?:une |un )?(?:nouvelle |nouveau )?(?:carte|gpu))\b",
    re.IGNORECASE,
)
_PROBE = re.compile(
    r"\b(?:this machine|my machine|my computer|my pc|this computer|this runtime|cette machine|mon ordinateur"
    r"|ma machine|mon poste|ce poste|mon ordi|cet ordi|ma config\w*|this box|my laptop|mon portable|this notebook"
    r"|mon pc|cet ordinateur|nvidia-smi|detect\w*|détect\w*|probe|sond\w*|installed|installée?"
    r"|what gpu do i have|quel gpu ai-je|colab (?:gave|m'a)|runtime|do i have a gpu)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^\W*(?:hello|hi|hey|bonjour|salut|coucou|thanks?|thank you|merci|help|aide)\b", re.IGNORECASE
)
_ABOUT = re.compile(
    r"\b(?:who are you|what can you do|what are you|which model|qui es-tu|que sais-tu|que peux-tu"
    r"|comment ça marche|how does this work|are you an? (?:ai|llm|bot))\b",
    re.IGNORECASE,
)
DOMAIN_WORDS = re.compile(
    r"\b(?:gpu|gpus|cuda|vram|nvidia|amd|rocm|kernel\w*|noyau\w*|tensor|sm_\d+\w*|colab|kaggle|cloud|rent\w*|louer"
    r"|location|spot|instance\w*|megakernel\w*|tma|wgmma|tcgen05|fp8|fp4|fp16|bf16|nvlink|llm|lora|flux|sdxl"
    r"|mémoire|memory|carte graphique|graphics card|apple silicon|metal|mojo|triton|nsight|h100|a100|b200"
    r"|serverless|hopper|blackwell|ampere|ada|turing|programming|programmation|compute capability|rocm|hip|radeon|geforce|rtx|gtx|toolkit|driver|pilote|pytorch|torch|quantiz\w*|quantif\w*)\b",
    re.IGNORECASE,
)


# "How many hours of H100 does 150 € buy?": a rental budget turned into hours, not a purchase.
_HOURS_FOR_MONEY = re.compile(
    r"\b(?:how many hours|combien d'heures)(?!.{0,40}\b(?:per|a|each|par) (?:day|jour)\b)",
    re.IGNORECASE,
)


def asks_hours_for_money(text: str) -> bool:
    return bool(_HOURS_FOR_MONEY.search(text))


def mentions_cost(text: str) -> bool:
    """A price cue, not counting "how much VRAM" / "combien de mémoire" (a spec's quantity)."""
    return bool(_COST.search(_SPEC_QUANTITY.sub(" ", text)))


def buys_and_rents(text: str) -> bool:
    """Both buying and renting named in one question, however far apart."""
    return bool(re.search(rf"\b{_BUY_WORDS}\b", text, re.I)) and bool(
        re.search(rf"\b{_RENT_WORDS}(?!\w)", text, re.I)
    )


def cue_boosts(text: str, ent: Entities) -> dict[str, float]:
    """Per-intent adjustments to the embedding score, from what the question explicitly holds."""
    cards = len(ent.gpus) + len(ent.unknown_gpus)
    has_card = cards > 0
    domain = bool(DOMAIN_WORDS.search(text)) or ent.has_facts()
    b: dict[str, float] = {}
    b["gpu_compare"] = (0.1 if cards >= 2 else -0.3) + (
        0.15 if _COMPARE.search(text) and cards >= 2 else 0.0
    )
    b["gpu_lookup"] = (0.05 if has_card else -0.3) + (
        0.1 if _SPECS.search(text) and has_card else 0.0
    )
    b["gpu_capability"] = (
        (0.15 if ent.topics else 0.0)
        + (0.1 if ent.parts and has_card else 0.0)
        + (0.05 if _CAPABILITY.search(text) and has_card else 0.0)
        - (0.1 if not has_card else 0.0)
    )
    rent = bool(_RENT.search(text))
    cost = mentions_cost(text)
    b["rent_cost"] = (0.1 if rent else 0.0) + (0.05 if rent and (cost or ent.total_hours) else 0.0)
    b["rent_cost"] += 0.05 if ent.hourly_rates else 0.0
    if has_card and cost and ent.total_hours and not _FORGOT.search(text):
        b["rent_cost"] += 0.1  # a card's price for a number of hours is a rental price
    b["spot_vs_dedicated"] = 0.25 if _SPOT.search(text) else -0.1
    # "How much is a (used) 3090?": a card's price with no rental or time in sight is its purchase price.
    buy_vs_rent = bool(_BUY_VS_RENT.search(text)) or buys_and_rents(text)
    hours_for_money = asks_hours_for_money(text) and bool(ent.budgets) and not buy_vs_rent
    purchase_price = (
        has_card
        and cost
        and not rent
        and not ent.durations
        and not ent.topics
        and not hours_for_money
    )
    if hours_for_money and has_card:
        b["rent_cost"] += 0.2
    b["rent_vs_buy"] = (0.2 if buy_vs_rent or purchase_price else -0.05) + (
        0.05 if ent.hours_per_day else 0.0
    )
    b["forgotten_instance"] = 0.25 if _FORGOT.search(text) else -0.1
    b["storage_cost"] = 0.25 if _STORAGE.search(text) else -0.2
    budget = bool(ent.budgets) or bool(re.search(r"\bbudget\b", text, re.I))
    b["budget_plan"] = (0.15 if budget and _LEARN.search(text) else 0.0) + (
        0.05 if _BUDGET.search(text) else 0.0
    )
    recommend = bool(_RECOMMEND.search(text))
    if not budget:
        b["budget_plan"] -= 0.2
    if ent.mode == "buy" and (recommend or not _LEARN.search(text)):
        b["budget_plan"] -= 0.15
    b["workload_fit"] = (
        (0.2 if ent.models else 0.0)
        + (0.1 if ent.model_size_b else 0.0)
        + (0.05 if ent.method in ("lora", "qlora", "full") else 0.0)
        + (0.05 if _FIT.search(text) else 0.0)
    )
    # "Recommend a hiking trail": a recommendation is about cards only in a GPU question.
    recommend = recommend and domain
    b["recommend_gpus"] = (0.15 if recommend else 0.0) + (
        0.1 if recommend and ent.mode == "buy" else 0.0
    )
    b["probe_gpus"] = 0.2 if _PROBE.search(text) else -0.1
    b["greeting"] = (0.2 if _GREETING.search(text) or _ABOUT.search(text) else -0.1) - (
        0.3 if ent.has_facts() else 0.0
    )
    b["off_topic"] = -0.35 if domain else 0.1
    b["corpus_only"] = 0.0 if domain else -0.1
    b.update(concept_boosts(text, ent, set(b)))
    return b


CONCEPT_CUE = 0.25  # a skill's own concept named in the question
FILLED_CUE = 0.05  # ... with what its tool needs
ABSENT_CUE = -0.05


def concept_boosts(text: str, ent: Entities, skip: set[str]) -> dict[str, float]:
    """Cues for the skills that declare concepts and have no cue of their own above."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.skills import all_skills

    hits = concepts_in(text)
    out: dict[str, float] = {}
    for name, skill in all_skills().items():
        if name in skip or not skill.concepts:
            continue
        named = bool(hits & set(skill.concepts))
        filled = not skill.needs or any(getattr(ent, slot, None) for slot in skill.needs)
        out[name] = (CONCEPT_CUE + (FILLED_CUE if filled else 0.0)) if named else ABSENT_CUE
    return out


_SMALL_BUDGET = re.compile(
    r"\b(?:small|tight|limited|low|modest|shoestring|student)\s+budget|\bon a budget\b|\bbudget (?:card|gpu|option)"
    r"|\bpetit budget|\bbudget (?:serré|limité|réduit|modeste|étudiant)|\bpas cher|\bbon marché|\bà petit prix"
    r"|\b(?:cheap|inexpensive|affordable|abordable)\b",
    re.IGNORECASE,
)


def asks_small_budget(text: str) -> bool:
    """A budget called small without an amount ("petit budget", "on a budget", "cheap")."""
    return bool(_SMALL_BUDGET.search(text))


_LINK = re.compile(r"\bnv-?link\b|\bsli\b|\bpont\b|\bbridge\b", re.IGNORECASE)


def asks_about_card_link(text: str) -> bool:
    """Whether the question is about linking cards (NVLink), a figure of the card's own sheet."""
    return bool(_LINK.search(text))


def asks_which_card(text: str) -> bool:
    """Whether the question asks which card to get."""
    return bool(_RECOMMEND.search(text))


def is_about_backend(text: str) -> bool:
    return bool(_ABOUT.search(text))


def is_greeting(text: str) -> bool:
    return bool(_GREETING.search(text)) and len(text.split()) <= 6


def has_domain_words(text: str) -> bool:
    return bool(DOMAIN_WORDS.search(text))


def mentions_spot(text: str) -> bool:
    return bool(_SPOT.search(text))


def mentions_rent(text: str) -> bool:
    return bool(_RENT.search(text))


def mentions_storage(text: str) -> bool:
    return bool(_STORAGE.search(text))


def mentions_forgotten(text: str) -> bool:
    return bool(_FORGOT.search(text))
