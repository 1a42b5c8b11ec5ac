"""Will a model fit: "will Llama 3 70B fit in 24 GB?", "LoRA on SDXL with a 3060?"."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import FAILURE_CONCEPTS, concepts_in, names_concept
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import named_cards
from assistant.agent.offline.texts import bullet_list, gb, in_language, num, pick
from assistant.language import Lang
from assistant.tools.fit import FitResult

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

FIT_VERDICTS = {
    "fits": ("Yes, it fits", "Oui, ça tient"),
    "tight": ("Tight: it just fits, with little headroom", "Juste : ça tient, avec peu de marge"),
    "does_not_fit": ("No, it does not fit", "Non, ça ne tient pas"),
    "unknown": ("Can't tell", "Impossible à dire"),
}
SHORT_VERDICTS = {
    "fits": ("fits", "tient"),
    "tight": ("tight", "juste"),
    "does_not_fit": ("does not fit", "ne tient pas"),
    "unknown": ("unknown", "inconnu"),
}
TASKS = {
    "inference": ("inference", "inférence"),
    "lora": ("LoRA fine-tuning", "fine-tuning LoRA"),
    "qlora": ("QLoRA fine-tuning", "fine-tuning QLoRA"),
    "full_finetune": ("full fine-tuning", "fine-tuning complet"),
    "image_generation": ("image generation", "génération d'images"),
}
ITEMS = {
    "weights": ("weights", "poids"),
    "text_encoders": ("text encoders", "encodeurs de texte"),
    "vae": ("VAE", "VAE"),
    "kv_cache": ("KV cache", "cache KV"),
    "activations": ("activations", "activations"),
    "gradients": ("gradients", "gradients"),
    "optimizer_states": ("optimizer states", "états de l'optimiseur"),
    "adapters": ("adapters", "adaptateurs"),
    "overhead": ("CUDA context and overhead", "contexte CUDA et surcoût"),
}
DIFFUSION = ("flux", "sd", "stable diffusion", "sdxl", "wan", "hunyuan")
METHOD_TASKS = {"lora": "lora", "qlora": "qlora", "full": "full_finetune", "inference": "inference"}
# Fine-tuning without a method named: every method is weighed, lightest first (on each card
# named as an option too: the pick is the card that trains the most weights).
FINETUNE_TASKS = ("qlora", "lora", "full_finetune")
FITTING = ("fits", "tight")


def precision_bits(name: str | None, default: int = 16) -> int:
    """Whole bits per weight of a precision ('q4_k_m' is 4, 'nf4_dq' 4, 'fp8' 8), from the memory
    rules' formats; `default` for a name that is no format ('mixed')."""
    from assistant.knowledge.models import load_memory_rules

    fmt = load_memory_rules().format(name) if name else None
    return int(fmt.bits_per_param) if fmt is not None else default


def _a(value: float | None) -> str:
    """'an' before a size read with a vowel sound ('an 8 GB card', 'an 11 GB card'), else 'a'."""
    lead = f"{value:g}" if value else ""
    return "an" if lead.startswith("8") or lead.split(".")[0] in ("11", "18") else "a"


def _gpu_count(question: str) -> int | None:
    """How many cards share the model, when the question names more than one."""
    from assistant.agent.offline.entities import extract_entities

    count = extract_entities(question).gpu_count
    return count if count and count > 1 else None


def _model_label(result: FitResult, lang: Lang) -> str:
    """The model as the answer names it: its name, else its size ('13B'), else '?'."""
    return result.model or (f"{num(result.params_b, lang)}B" if result.params_b else "?")


def _unknown(result: FitResult, lang: Lang) -> str:
    text = pick(lang, result.message, result.message_fr or "") or (
        in_language(result.message, lang) or pick(lang, "", "Modèle ou carte inconnu.")
    )
    if result.suggestions:
        text += (
            pick(lang, " Did you mean: ", " Vouliez-vous dire : ")
            + ", ".join(result.suggestions[:5])
            + pick(lang, "?", " ?")
        )
    return text


def _head(result: FitResult, question: str, lang: Lang) -> str:
    model = _model_label(result, lang)
    task = TASKS.get(result.task, (result.task, result.task))
    setup = (
        f"{model} ({pick(lang, *task)}"
        + (f", {result.precision}" if result.precision else "")
        + (f", {num(result.context_tokens, lang, 0)} tokens" if result.context_tokens else "")
        + ")"
    )
    capacity = result.capacity_gb or result.vram_gb
    if not result.gpu and not capacity:
        return f"**{setup}{pick(lang, ' needs about ', ' demande environ ')}{gb(result.total_gb, lang)}**."
    where = result.gpu or pick(
        lang,
        f"{_a(result.vram_gb or capacity)} {gb(result.vram_gb or capacity, lang)} card",
        f"une carte de {gb(result.vram_gb or capacity, lang)}",
    )
    multi = result.multi_gpu
    count = multi.cards if multi else (_gpu_count(question) if result.gpu else None)
    if count and " + " not in where:
        where = f"{count} × {where}"
    colon = " : " if lang == "fr" else ": "
    if multi:
        # Several cards are not one pool: the fullest card decides.
        load = pick(lang, " on the fullest card (", " sur la carte la plus chargée (") + (
            pick(
                lang, f"{gb(multi.whole_gb, lang)} in all)", f"{gb(multi.whole_gb, lang)} en tout)"
            )
        )
    else:
        load = pick(lang, " per GPU", " par GPU") if count else ""
    # a failure of memory or a crash: a slow run that loads contradicts no fit estimate
    failed = result.verdict in ("fits", "tight") and bool(
        concepts_in(question) & (FAILURE_CONCEPTS - {"slow_report"})
    )
    verdict = FAILED_FIT if failed else FIT_VERDICTS[result.verdict]
    return (
        f"**{pick(lang, *verdict)}** — {setup} {pick(lang, 'on', 'sur')} {where}{colon}"
        + pick(lang, "about ", "environ ")
        + gb(result.total_gb, lang)
        + load
        + pick(lang, " needed for ", " nécessaires pour ")
        + gb(capacity, lang)
        + _share_words(result, lang)
        + "."
        + (pick(lang, *FAILED_FIT_WHY) if failed else "")
        + _shared_card(result, question, lang)
    )


def _shared_card(result: FitResult, question: str, lang: Lang) -> str:
    """' That is the model alone: …' when the asker runs other programs on the card and gives no
    figure for what they hold (a game, OBS)."""
    from assistant.agent.offline.quantities import phrase_spans

    if result.query.in_use_gb or not phrase_spans("shares_card", question):
        return ""
    free = max((result.capacity_gb or result.vram_gb or 0) - (result.total_gb or 0), 0)
    return pick(
        lang,
        f" That is the model alone: whatever else runs on the card at the same time (a game, OBS's "
        f"encoder and preview) must fit in the {gb(free, lang)} left, or something spills into "
        "system memory and stutters; watch the dedicated GPU memory in Task Manager (or "
        "`nvidia-smi`) with everything running.",
        f" C'est pour le modèle seul : tout ce qui tourne en même temps sur la carte (un jeu, "
        f"l'encodeur et l'aperçu d'OBS) doit tenir dans les {gb(free, lang)} restants, sinon une "
        "partie déborde en mémoire système et saccade ; surveillez la mémoire GPU dédiée dans le "
        "Gestionnaire des tâches (ou `nvidia-smi`) avec tout lancé.",
    )


# A failure the asker reports though the estimate says it fits: the estimate is no contradiction
# of what they see, only a yardstick for what differs.
FAILED_FIT = ("By this estimate it should fit", "D'après cette estimation, ça devrait tenir")
FAILED_FIT_WHY = (
    " What you see differs, so something the estimate leaves out takes the memory: a longer "
    "context or a larger batch, other processes on the GPU, memory shared with the system, or a "
    "framework that reserves more than it uses.",
    " Ce que vous observez diffère : quelque chose que l'estimation ne compte pas prend la "
    "mémoire (un contexte ou un lot plus grand, d'autres processus sur le GPU, une mémoire "
    "partagée avec le système, ou un framework qui réserve plus qu'il n'utilise).",
)


def _share_words(result: FitResult, lang: Lang) -> str:
    """' (of the 64 GB of unified memory, the share macOS gives the GPU)' when the card's usable
    memory is less than its memory as sold; ' (what the card's 8 GB leave after the 5.5 GB other
    programs hold)' when the asker says something else holds memory."""
    capacity = result.capacity_gb
    held = result.query.in_use_gb
    if held and result.vram_gb and capacity is not None:
        return pick(
            lang,
            f" (what is left of the card's {gb(result.vram_gb, lang)} after the "
            f"{gb(held, lang)} other programs hold)",
            f" (ce qui reste des {gb(result.vram_gb, lang)} de la carte après les "
            f"{gb(held, lang)} pris par les autres programmes)",
        )
    if not (capacity and result.vram_gb and capacity < result.vram_gb - 0.5) or result.multi_gpu:
        return ""
    return pick(
        lang,
        f" (of the {gb(result.vram_gb, lang)} of unified memory, the share macOS lets the GPU use "
        "by default)",
        f" (sur les {gb(result.vram_gb, lang)} de mémoire unifiée, la part que macOS laisse au GPU "
        "par défaut)",
    )


def _support_caveat(result: FitResult, lang: Lang) -> str:
    """'It fits, but FP8 …': a precision the card(s) can't run natively, said on the verdict line."""
    reasons = list(
        dict.fromkeys(
            pick(lang, s.reason, s.reason_fr) for s in result.precision_support if s.runs != "yes"
        )
    )
    if not reasons:
        return ""
    text = " ".join(reasons)
    if result.verdict in FITTING:
        lowered = text[:1].lower() + text[1:]  # "…, but not checked on…"
        return pick(lang, f" It fits, but {lowered}", f" Ça tient, mais {lowered}")
    return f" {text}"


RUNS = {
    "yes": ("yes", "oui"),
    "weight_only": ("weights only (no speed-up)", "poids seuls (sans gain de vitesse)"),
    "no": ("no", "non"),
    "unknown": ("unknown", "inconnu"),
}


def _precision_table(result: FitResult, lang: Lang) -> str:
    """The common precisions side by side, the one the answer leads with in bold."""
    if len(result.by_precision) < 2:
        return ""
    verdicts = {k: pick(lang, *v) for k, v in FIT_VERDICTS.items()}
    rows = []
    # The precision the answer leads with (the best one that fits) comes first.
    ordered = sorted(result.by_precision, key=lambda o: o.precision != result.precision)
    for option in ordered:
        name = option.precision
        if name == result.precision:
            name = f"**{name}**"
        memory = gb(option.total_gb, lang) if option.total_gb is not None else "—"
        runs = pick(lang, *RUNS.get(option.runs, (option.runs, option.runs)))
        rows.append(f"| {name} | {memory} | {verdicts[option.verdict]} | {runs} |")
    head = pick(
        lang,
        "| Precision | Memory needed | Verdict | Native on the card |",
        "| Précision | Mémoire nécessaire | Verdict | Natif sur la carte |",
    )
    return head + "\n|---|---|---|---|\n" + "\n".join(rows)


def _multi_gpu_lines(result: FitResult, lang: Lang) -> list[str]:
    """Each card's load, then what sharing (or replicating) over several cards means."""
    multi = result.multi_gpu
    if multi is None:
        return []
    verdicts = {k: pick(lang, *v) for k, v in SHORT_VERDICTS.items()}
    of = pick(lang, " of ", " sur ")
    each = [
        f"{c.gpu}{' : ' if lang == 'fr' else ': '}{gb(c.load_gb, lang)}{of}{gb(c.vram_gb, lang)} "
        f"({verdicts[c.verdict]})"
        for c in result.cards
    ]
    # Cards that carry the same load are one line: '8 × H200 SXM 141GB: 74.6 GB of 141 GB'.
    loads = [f"{n} × {line}" if n > 1 else line for line, n in Counter(each).items()]
    lines = []
    if loads:
        lines.append(
            pick(lang, "Load per card:", "Charge par carte :") + "\n\n" + bullet_list(loads)
        )
    notes = multi.notes_fr if lang == "fr" else multi.notes
    if notes:
        lines.append(bullet_list(list(notes)))
    return lines


def _lower_precisions(result: FitResult) -> list[tuple[str, float]]:
    """(precision, GB) of the quantised versions that would fit, by the tool's own options."""
    out = []
    for option in result.fits_with:
        m = re.fullmatch(r"precision (\S+)", option.change)
        if m and option.verdict in FITTING and precision_bits(m.group(1)) < 16:
            out.append((m.group(1), option.total_gb))
    return out


def _precision_head(result: FitResult, question: str, lang: Lang) -> str | None:
    """'Yes at 8 or 4 bits, not at 16': the headline when the question names no precision."""
    from assistant.agent.offline.entities import extract_entities

    if (
        result.task != "inference"
        or result.verdict in FITTING
        or extract_entities(question).precision
    ):
        return None
    lower = _lower_precisions(result)
    if not lower:
        return None
    bits = sorted({precision_bits(p) for p, _ in lower}, reverse=True)
    model = _model_label(result, lang)
    where = result.gpu or pick(
        lang,
        f"{_a(result.capacity_gb)} {gb(result.capacity_gb, lang)} card",
        f"une carte de {gb(result.capacity_gb, lang)}",
    )
    levels = pick(lang, " or ", " ou ").join(str(b) for b in bits)
    capacity = f" ({gb(result.capacity_gb, lang)})" if result.gpu else ""
    figures = ", ".join(f"{p}: {gb(g, lang)}" for p, g in lower[:3])
    return pick(
        lang,
        f"**Yes at {levels} bits, not at 16 bits** — {model} on {where}{capacity}: "
        f"about {gb(result.total_gb, lang)} at {result.precision or '16 bits'}; quantised, {figures}.",
        f"**Oui en {levels} bits, pas en 16 bits** — {model} sur {where}{capacity} : "
        f"environ {gb(result.total_gb, lang)} en {result.precision or '16 bits'} ; quantifié, {figures}.",
    )


def _way_head(result: FitResult, question: str, lang: Lang) -> str | None:
    """'Not as is; yes with an fp8 base (14.4 GB)': the headline when the model does not fit as
    asked but one of the tool's own ways (a lighter base, offloading) makes it fit on the card."""
    from assistant.agent.offline.entities import extract_entities

    if result.verdict != "does_not_fit" or not result.capacity_gb or result.multi_gpu:
        return None
    if result.task == "inference" or extract_entities(question).precision:
        return None  # inference has its own precision headline; a named precision is the question
    ways = [o for o in result.fits_with if o.verdict == "fits"]
    if not ways:
        return None
    way = max(ways, key=lambda o: o.total_gb)  # the heaviest way that fits keeps the most quality
    model = _model_label(result, lang)
    change = in_language(way.change, lang) or way.change
    size = gb(result.capacity_gb, lang)
    where = pick(
        lang,
        f"{result.gpu} ({size})" if result.gpu else f"{_a(result.capacity_gb)} {size} card",
        f"{result.gpu} ({size})" if result.gpu else f"une carte de {size}",
    )
    return pick(
        lang,
        f"**Not as is, yes with {change}** (about {gb(way.total_gb, lang)}) — {model} "
        f"({task_name(result, lang)}) on {where}: about "
        f"{gb(result.total_gb, lang)} at {result.precision or '16 bits'}.",
        f"**Pas tel quel, oui avec {change}** (environ {gb(way.total_gb, lang)}) — {model} "
        f"({task_name(result, lang)}) sur {where} : environ "
        f"{gb(result.total_gb, lang)} en {result.precision or '16 bits'}.",
    )


def _count_head(result: FitResult, question: str, lang: Lang) -> str | None:
    """'By memory: 3 × H100 at bf16, 2 at fp8, 1 at q4_k_m': the headline when the question asks
    how many cards a model needs. A floor: every card also keeps its own CUDA context and
    activations."""
    from assistant.agent.offline.concepts import concepts_in

    capacity = result.capacity_gb or result.vram_gb
    if result.multi_gpu or not result.gpu or not capacity:
        return None
    if "card_count" not in concepts_in(question):
        return None
    if result.by_precision and all(
        o.total_gb <= capacity for o in result.by_precision if o.total_gb
    ):
        return None  # one card holds it: the plain verdict answers
    if not result.by_precision and (result.cards_needed or 1) <= 1:
        return None
    from assistant.knowledge.models import load_memory_rules

    usable = capacity * load_memory_rules().fits_below_fraction  # the fit's own 'fits' line
    rows = [
        (math.ceil(o.total_gb / usable), o.precision, gb(o.total_gb, lang))
        for o in result.by_precision
        if o.total_gb and o.runs != "no"
    ]
    if not rows and result.cards_needed and result.total_gb and result.precision:
        # The precision was named: that one, with every card's own context counted.
        rows = [(result.cards_needed, result.precision, gb(result.total_gb, lang))]
    if not rows:
        return None
    batch = result.query.batch_size
    setup = ", ".join(
        x
        for x in (
            _model_label(result, lang),
            pick(lang, f"{batch} sequences at once", f"{batch} séquences à la fois")
            if batch > 1
            else "",
            f"{num(result.context_tokens, lang, 0)} tokens" if result.context_tokens else "",
        )
        if x
    )
    at = pick(lang, "at", "en")
    listed = pick(lang, "; ", " ; ").join(
        f"{n}{f' × {result.gpu}' if i == 0 else ''} {at} {precision} ({total})"
        for i, (n, precision, total) in enumerate(rows)
    )
    return pick(
        lang,
        f"**By memory: {listed}** — {setup}, {gb(capacity, lang)} per card. That is a floor: each "
        "card also keeps its own CUDA context and activations, and tensor parallelism splits the "
        "attention heads evenly, so it usually takes a power of two of cards (2, 4, 8).",
        f"**Pour la mémoire : {listed}** — {setup}, {gb(capacity, lang)} par carte. C'est un "
        "minimum : chaque carte garde aussi son contexte CUDA et ses activations, et le "
        "parallélisme de tenseurs répartit les têtes d'attention à parts égales, d'où en général "
        "une puissance de deux de cartes (2, 4, 8).",
    )


def _sharded_over(result: FitResult, lang: Lang) -> tuple[int, str]:
    """How many cards the model is sharded over (1 when not), and where it runs ('8 × H200')."""
    multi = result.multi_gpu
    cards = multi.cards if multi is not None and multi.mode != "replicate" else 1
    where = result.gpu or gb(result.capacity_gb, lang)
    if cards > 1 and result.gpu and "×" not in result.gpu:
        where = f"{cards} × {result.gpu}"
    return cards, where


def _concurrency_head(result: FitResult, question: str, lang: Lang) -> str | None:
    """'About 20 sequences of 8,192 tokens at once': the headline when the question asks how many
    requests or users the setup serves together."""
    from assistant.agent.offline.concepts import concepts_in

    if not result.max_sequences or result.query.batch_size > 1:
        return None  # '20 concurrent users': the count is given, the fit for it answers
    if not {"concurrency"} & concepts_in(question) or "card_count" in concepts_in(question):
        return None
    cards, where = _sharded_over(result, lang)
    kv = next((line.gb for line in result.breakdown if line.item == "kv_cache"), None)
    # The breakdown is the fullest card's: its share of each sequence's KV cache when sharded.
    per_sequence = kv * cards / max(1, result.query.batch_size) if kv else None
    tokens = num(result.context_tokens or 0, lang, 0)
    n = result.max_sequences
    each = (
        pick(
            lang,
            f" about {gb(per_sequence, lang)} of KV cache each;",
            f" environ {gb(per_sequence, lang)} de cache KV chacune ;",
        )  # fmt: skip
        if per_sequence
        else ""
    )
    return pick(
        lang,
        f"**About {n} sequences of {tokens} tokens at once** — {_model_label(result, lang)} "
        f"({task_name(result, lang)}, {result.precision}) on {where}:{each} the weights and each "
        "card's CUDA context come first. Shorter requests fit more: servers such as vLLM allocate "
        "the KV cache in pages as tokens arrive, not a full context per request.",
        f"**Environ {n} séquences de {tokens} tokens à la fois** — {_model_label(result, lang)} "
        f"({task_name(result, lang)}, {result.precision}) sur {where} :{each} les poids et le "
        "contexte CUDA de chaque carte passent d'abord. Des requêtes plus courtes en font tenir "
        "davantage : des serveurs comme vLLM allouent le cache KV par pages au fil des tokens, pas "
        "un contexte complet par requête.",
    )


def _context_head(result: FitResult, question: str, lang: Lang) -> str | None:
    """'About 7,200 tokens of context fit': the headline when the question asks how much context
    the card holds (the fit tool's longest context for one sequence, which the builder asks for
    only then)."""
    n = result.max_context_tokens
    if not n or result.query.batch_size > 1:
        return None
    cards, where = _sharded_over(result, lang)
    kv = next((line.gb for line in result.breakdown if line.item == "kv_cache"), None)
    per_1k = kv * cards / (result.context_tokens or 1) * 1000 if kv else None
    each = (
        pick(
            lang,
            f" the KV cache takes about {gb(per_1k, lang)} per 1,000 tokens after the weights",
            f" le cache KV prend environ {gb(per_1k, lang)} par tranche de 1 000 tokens après les "
            "poids",
        )
        if per_1k
        else ""
    )
    tokens = num(n // 100 * 100 if n >= 1000 else n, lang, 0)  # the bisection's own ±64 aside
    return pick(
        lang,
        f"**About {tokens} tokens of context fit** — {_model_label(result, lang)} "
        f"({task_name(result, lang)}, {result.precision}) on {where}, one sequence at a time:"
        f"{each}. A KV cache in 8-bit (llama.cpp's `--cache-type-k q8_0 --cache-type-v q8_0`, "
        "vLLM's `--kv-cache-dtype fp8`) holds about twice as many.",
        f"**Environ {tokens} tokens de contexte tiennent** — {_model_label(result, lang)} "
        f"({task_name(result, lang)}, {result.precision}) sur {where}, une séquence à la fois :"
        f"{each}. Un cache KV en 8 bits (`--cache-type-k q8_0 --cache-type-v q8_0` de llama.cpp, "
        "`--kv-cache-dtype fp8` de vLLM) en contient environ deux fois plus.",
    )


def _users_head(result: FitResult, lang: Lang) -> str | None:
    """'The model fits, but not 32 sequences of 131,072 tokens at once: about 8 do': the headline
    when the users or sequences asked for do not fit together but fewer do."""
    users, n = result.query.batch_size, result.max_sequences
    if result.verdict != "does_not_fit" or users <= 1 or not n or n >= users:
        return None
    cards, where = _sharded_over(result, lang)
    tokens = num(result.context_tokens or 0, lang, 0)
    room = _room_left(result, cards, lang)
    return pick(
        lang,
        f"**The model fits, but not {users} sequences of {tokens} tokens at once: about {n} "
        f"do** — {_model_label(result, lang)} ({task_name(result, lang)}, {result.precision}) on "
        f"{where}.{room} Each sequence holds its own KV cache; shorter "
        "requests fit more, since servers such as vLLM allocate the KV cache in pages as tokens "
        f"arrive. The figures below are for all {users} sequences at once.",
        f"**Le modèle tient, mais pas {users} séquences de {tokens} tokens à la fois : environ {n} "
        f"tiennent** — {_model_label(result, lang)} ({task_name(result, lang)}, {result.precision}) "
        f"sur {where}.{room} Chaque séquence a son propre cache KV ; des "
        "requêtes plus courtes en font tenir davantage, car des serveurs comme vLLM allouent le "
        f"cache KV par pages au fil des tokens. Les chiffres ci-dessous valent pour les {users} "
        "séquences à la fois.",
    )


def _room_left(result: FitResult, cards: int, lang: Lang) -> str:
    """' After the weights and the CUDA context, about 92 GB a card (736 GB in all) is left for
    the KV cache and activations.': what the cards hold beyond the model itself."""
    per_card = (
        result.cards[0].vram_gb if result.cards else (result.capacity_gb or 0) / max(1, cards)
    )
    fixed = sum(line.gb for line in result.breakdown if line.item in ("weights", "overhead"))
    room = per_card - fixed
    if not per_card or room <= 0:
        return ""
    whole = (
        pick(lang, f" ({gb(room * cards, lang)} in all)", f" ({gb(room * cards, lang)} en tout)")
        if cards > 1
        else ""
    )
    return pick(
        lang,
        f" After the weights and the CUDA context, about {gb(room, lang)} a card{whole} is left "
        "for the KV cache and activations.",
        f" Après les poids et le contexte CUDA, il reste environ {gb(room, lang)} par carte{whole} "
        "pour le cache KV et les activations.",
    )


def render(result: FitResult, question: str, lang: Lang) -> str:
    """The verdict with its setup (model, task, precision) first, then the memory breakdown."""
    if result.verdict == "unknown" and not result.total_gb:
        return _unknown(result, lang)
    colon = " : " if lang == "fr" else ": "
    lines = [
        (
            _concurrency_head(result, question, lang)
            or _context_head(result, question, lang)
            or _users_head(result, lang)
            or _count_head(result, question, lang)
            or _precision_head(result, question, lang)
            or _way_head(result, question, lang)
            or _head(result, question, lang)
        )
        + _support_caveat(result, lang)
    ]
    parts: dict[str, float] = {}  # one bullet per item: the logits count with the activations
    for line in result.breakdown:
        parts[line.item] = parts.get(line.item, 0.0) + line.gb
    breakdown = [
        f"{pick(lang, *ITEMS.get(item, (item, item)))}{colon}{gb(size, lang)}"
        for item, size in parts.items()
        if size > 0.005
    ]
    if breakdown:
        lines.append(bullet_list(breakdown))
    lines.append(_precision_table(result, lang))
    lines.extend(_multi_gpu_lines(result, lang))
    options = [o for o in result.fits_with if o.verdict in ("fits", "tight")]
    if options and result.verdict != "fits":
        lines.append(
            pick(lang, "What would make it fit: ", "Pour que ça tienne : ")
            + pick(lang, "; ", " ; ").join(
                f"{in_language(o.change, lang) or o.change} (→ {gb(o.total_gb, lang)})"
                for o in options[:3]
            )
        )
    if result.bigger_cards and result.verdict == "does_not_fit":
        lines.append(
            pick(lang, "Cards it fits on: ", "Cartes où ça tient : ")
            + ", ".join(result.bigger_cards[:4])
        )
    measured = result.nearest_measured
    if measured is not None and measured.value_gb:
        where = " · ".join(
            x for x in (measured.model, measured.precision_or_method, measured.gpu) if x
        )
        lines.append(
            pick(lang, "Nearest measured peak: ", "Pic mesuré le plus proche : ")
            + f"{gb(measured.value_gb, lang)} ({where})."
        )
    return "\n\n".join(line for line in lines if line)


def task_name(result: FitResult, lang: Lang) -> str:
    """The method of a fit check, in words ("QLoRA fine-tuning")."""
    return pick(lang, *TASKS.get(result.task, (result.task, result.task)))


def _sizes(results: list[FitResult], question: str, lang: Lang) -> str:
    """A model named without its size, checked at two sizes on one card: when the larger does not
    fit and the smaller does at some precision, that is the answer ("Wan 2.1 14B needs 37.9 GB;
    the 1.3B fits at fp8")."""
    big, small = results
    capacity = small.capacity_gb
    if big.verdict in FITTING or not big.total_gb or not capacity:
        return ""
    ways = [(small.precision, small.total_gb)] if small.verdict in FITTING else []
    ways += [
        (o.precision, o.total_gb)
        for o in small.by_precision
        if o.total_gb and o.total_gb <= capacity
    ]
    if not ways:
        return ""
    precision, total = ways[0]
    sold = big.vram_gb or capacity
    where = big.gpu or pick(
        lang, f"{_a(sold)} {gb(sold, lang)} card", f"une carte de {gb(sold, lang)}"
    )
    left = pick(lang, " left", " libres") if big.query.in_use_gb else ""
    head = pick(
        lang,
        f"**{_model_label(big, lang)} does not fit {where} (about {gb(big.total_gb, lang)} at "
        f"{big.precision}); the smaller {_model_label(small, lang)} does, at {precision}** (about "
        f"{gb(total, lang)} of {gb(capacity, lang)}{left}).",
        f"**{_model_label(big, lang)} ne tient pas sur {where} (environ {gb(big.total_gb, lang)} en "
        f"{big.precision}) ; le plus petit {_model_label(small, lang)} tient, en {precision}** "
        f"(environ {gb(total, lang)} sur {gb(capacity, lang)}{left}).",
    )
    sections = (head, render(small, question, lang), render(big, question, lang))
    return "\n\n".join(p for p in sections if p)


def _need(result: FitResult, lang: Lang) -> str:
    """What the model needs, in a headline: at the precision checked, or, when it does not fit
    there, at the lightest precision compared ('about 19.9 GB even at q4_k_m', not its BF16)."""
    about = pick(lang, "about ", "environ ")
    lightest = min(
        (p for p in result.by_precision if p.total_gb is not None),
        key=lambda p: p.total_gb or 0.0,
        default=None,
    )
    if (
        result.verdict not in FITTING
        and lightest is not None
        and lightest.total_gb is not None
        and lightest.total_gb < (result.total_gb or 0.0)
    ):
        even = pick(lang, " even at ", " même en ")
        return f"{about}{gb(lightest.total_gb, lang)}{even}{lightest.precision}"
    return f"{about}{gb(result.total_gb, lang)}{pick(lang, ' at ', ' en ')}{result.precision}"


def _models(results: list[FitResult], question: str, lang: Lang) -> str:
    """Two models on one card: each one's verdict in the headline, then each one's figures."""
    first = results[0]
    if not first.capacity_gb:
        return ""
    verdicts = {k: pick(lang, *v) for k, v in SHORT_VERDICTS.items()}
    each = pick(lang, "; ", " ; ").join(
        f"{_model_label(r, lang)}{' : ' if lang == 'fr' else ': '}{verdicts[r.verdict]} "
        f"({_need(r, lang)})"
        for r in results
    )
    sold = first.vram_gb or first.capacity_gb
    where = first.gpu or pick(
        lang, f"{_a(sold)} {gb(sold, lang)} card", f"une carte de {gb(sold, lang)}"
    )
    head = f"**{each}** — {pick(lang, 'on', 'sur')} {where} ({gb(first.capacity_gb, lang)})."
    together = _together(results, question)
    if together:
        head = _together_head(together, where, first.capacity_gb, lang) + "\n\n" + head
    return "\n\n".join([head, *(render(r, question, lang) for r in results)])


def _together(results: list[FitResult], question: str) -> list[FitResult]:
    """The models a sentence asks to hold on the card at once ('llama 3.1 8b … AND whisper
    large-v3 …, both on the gpu at the same time'), in the order checked; none when no sentence
    says so of two of them (a model asked 'instead' in another sentence is not added)."""
    from assistant.agent.offline.concepts import concept_starts
    from assistant.agent.offline.entities import extract_entities
    from assistant.language import sentence_after, sentence_start

    for at in concept_starts("models_together", question):
        start = sentence_start(question, at)
        named = set(extract_entities(sentence_after(question[start:])).models)
        chosen = [r for r in results if r.model in named and r.total_gb]
        if len(chosen) >= 2:
            return chosen
    return []


def _together_head(together: list[FitResult], where: str, capacity: float, lang: Lang) -> str:
    """'Together, no: … need about 9.3 GB for 8 GB': the sum of what each needs, one CUDA context
    counted once."""
    overheads = [sum(b.gb for b in r.breakdown if b.item == "overhead") for r in together]
    total = sum(r.total_gb or 0.0 for r in together) - sum(overheads) + max(overheads)
    names = pick(lang, " and ", " et ").join(
        f"{_model_label(r, lang)} ({gb(r.total_gb, lang)}{pick(lang, ' at ', ' en ')}{r.precision})"
        for r in together
    )
    if total <= capacity:
        return pick(
            lang,
            f"**Together, yes: {names} need about {gb(total, lang)} at once on {where}, for "
            f"{gb(capacity, lang)}.**",
            f"**Ensemble, oui : {names} demandent environ {gb(total, lang)} à la fois sur {where}, "
            f"pour {gb(capacity, lang)}.**",
        )
    return pick(
        lang,
        f"**Together, no: {names} need about {gb(total, lang)} at once on {where}, more than its "
        f"{gb(capacity, lang)}.** One after the other (unloading the first), or with a smaller or "
        "more quantized second model, they fit.",
        f"**Ensemble, non : {names} demandent environ {gb(total, lang)} à la fois sur {where}, plus "
        f"que ses {gb(capacity, lang)}.** L'un après l'autre (en déchargeant le premier), ou avec "
        "un second modèle plus petit ou plus quantifié, ils tiennent.",
    )


def combine(results: list[FitResult], question: str, lang: Lang) -> str:
    """Several methods for one model on one card: the verdict on each, lightest first, as a table.
    One method for a model at two sizes: the size that fits (`_sizes`)."""
    if (
        len(results) in (2, 3)
        and len({r.task for r in results}) == 1
        and len({_model_label(r, lang) for r in results}) == len(results)
        and len({(r.gpu, r.capacity_gb) for r in results}) == 1
    ):
        sizes = _sizes(results, question, lang) if len(results) == 2 else ""
        return sizes or _models(results, question, lang)
    if (
        len({r.task for r in results}) < 2
        or len({(r.model, r.gpu, r.capacity_gb) for r in results}) > 1
    ):
        return ""
    first = results[0]
    model = _model_label(first, lang)
    where = first.gpu or pick(
        lang,
        f"{_a(first.capacity_gb)} {gb(first.capacity_gb, lang)} card",
        f"une carte de {gb(first.capacity_gb, lang)}",
    )
    multi = first.multi_gpu
    if multi:
        # Several cards share the model: the figures are the fullest card's, against one card.
        where = (
            f"{multi.cards} × {first.gpu}"
            if first.gpu
            else pick(
                lang,
                f"{multi.cards} cards of {gb(first.capacity_gb, lang)}",
                f"{multi.cards} cartes de {gb(first.capacity_gb, lang)}",
            )
        )
    per_card = pick(lang, " per card", " par carte") if multi else ""
    fitting = [r for r in results if r.verdict in FITTING]
    failing = [r for r in results if r.verdict not in FITTING]
    joiner = pick(lang, " or ", " ou ")
    if not first.capacity_gb:
        # No card or memory named: what each method needs is the answer.
        needs = ", ".join(
            f"{pick(lang, 'about ', 'environ ')}{gb(r.total_gb, lang)} {pick(lang, 'with', 'en')} "
            f"{task_name(r, lang)}"
            for r in results
        )
        head = pick(
            lang,
            f"**Fine-tuning {model} takes {needs}.**",
            f"**Affiner {model} demande {needs}.**",
        )
    elif fitting:
        ways = joiner.join(
            f"{task_name(r, lang)} ({pick(lang, 'about ', 'environ ')}{gb(r.total_gb, lang)})"
            for r in fitting
        )
        head = pick(lang, f"**Yes, with {ways}**", f"**Oui, en {ways}**") + pick(
            lang, f" — {model} on {where}", f" — {model} sur {where}"
        )
        if failing:
            no = ", ".join(f"{task_name(r, lang)} ({gb(r.total_gb, lang)})" for r in failing)
            head += pick(lang, f"; not with {no}", f" ; pas en {no}")
        head += pick(
            lang,
            f", for {gb(first.capacity_gb, lang)}{per_card}.",
            f", pour {gb(first.capacity_gb, lang)}{per_card}.",
        )
    else:
        lightest = min(results, key=lambda r: r.total_gb or 0.0)
        head = pick(
            lang,
            f"**No: {model} can't be fine-tuned on {where}**, even with {task_name(lightest, lang)} "
            f"(about {gb(lightest.total_gb, lang)} for {gb(first.capacity_gb, lang)}{per_card}).",
            f"**Non : {model} ne peut pas être affiné sur {where}**, même en {task_name(lightest, lang)} "
            f"(environ {gb(lightest.total_gb, lang)} pour {gb(first.capacity_gb, lang)}{per_card}).",
        )
    if first.capacity_gb and not multi and names_concept("card_count", question):
        head = _cards_per_method(results, where, first.capacity_gb, lang)
    verdicts = {k: pick(lang, *v) for k, v in FIT_VERDICTS.items()}
    held = bool(first.capacity_gb)  # a card or a memory size to hold each method against
    header = pick(lang, "| Method | Memory needed |", "| Méthode | Mémoire nécessaire |")
    header += " Verdict |" if held else ""
    rows = [
        f"| {task_name(r, lang)} | {gb(r.total_gb, lang)} |"
        + (f" {verdicts[r.verdict]} |" if held else "")
        for r in results
    ]
    table = "\n".join([header, "|---|---|---|" if held else "|---|---|", *rows])
    from assistant.agent.offline.entities import named_methods

    why = (
        pick(lang, "Each method the question names is checked", "Chaque méthode citée est vérifiée")
        if len(named_methods(question)) >= 2
        else pick(
            lang,
            "The question names no method, so the three usual ones are compared",
            "La question ne précise pas la méthode : les trois méthodes courantes sont comparées",
        )
    )
    note = pick(
        lang,
        f"<sub>{why} (QLoRA: 4-bit base + adapters; LoRA: 16-bit base + adapters; full: every weight trained with AdamW).</sub>",
        f"<sub>{why} (QLoRA : base 4 bits + adaptateurs ; LoRA : base 16 bits + adaptateurs ; complet : tous les poids entraînés avec AdamW).</sub>",
    )
    return "\n\n".join(p for p in (head, table, note) if p)


def _cards_per_method(results: list[FitResult], card: str, capacity: float, lang: Lang) -> str:
    """'how many H100 do we need for a full fine-tune? and vs LoRA?': the cards each method's
    memory calls for, in the order the question names the methods: the fit tool's count (the
    state sharded, FSDP or ZeRO-3, what cannot be sharded kept on every card); past one card, a
    floor, since the memory alone sets it."""
    parts = []
    for r in results:
        n = r.cards_needed or max(1, math.ceil((r.total_gb or 0.0) / capacity))
        floor = pick(lang, "at least ", "au moins ") if n > 1 else ""
        parts.append(
            f"{task_name(r, lang)}{pick(lang, ': ', ' : ')}{floor}{n} × {card} "
            f"({pick(lang, 'about ', 'environ ')}{gb(r.total_gb, lang)})"
        )
    sharded = any((r.total_gb or 0.0) > capacity for r in results)
    tail = (
        pick(
            lang,
            " — by memory alone, with the training state sharded across the cards (FSDP or ZeRO-3).",
            " — pour la mémoire seule, l'état d'entraînement réparti entre les cartes (FSDP ou ZeRO-3).",
        )
        if sharded
        else "."
    )
    return f"**{pick(lang, '; ', ' ; ').join(parts)}**{tail}"


def _asked_apart(reading: Reading, cards: list[str]) -> bool:
    """Each card is named in a sentence of its own, no sentence naming two: cards asked about one
    after the other, not one machine holding them all (which the message would say: 'in the same
    PC as the 5090', 'together')."""

    if names_concept("several_gpus", reading.text):
        return False
    seen: list[str] = []
    for clause in reading.clauses:
        named = [c for c in clause.gpus if c in cards]
        if len(named) > 1:
            return False
        seen += named
    return sorted(set(seen)) == sorted(cards) and len(seen) == len(set(seen))


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """The fit checks of the model on the cards or memory named, or none without a model."""
    from assistant.agent.offline.concepts import concepts_in, names_concept

    model = (
        ent.models[0] if ent.models else (f"{ent.model_size_b:g}B" if ent.model_size_b else None)
    )
    if model is None:
        return []
    method = None if _method_of_another(reading, model) else ent.method
    if method == "finetune" and reading.entities.method in METHOD_TASKS:
        # 'On veut affiner Qwen3-8B … Un fine-tuning complet en BF16, ça passe ?': the method
        # named in another sentence of the message is how the model is fine-tuned
        method = reading.entities.method
    several = [METHOD_TASKS[m] for m in reading.entities.methods]
    if len(several) >= 2 and method != "inference":
        method = "finetune"  # 'a QLoRA? a 16-bit LoRA? a full fine-tune?': each method named
    task = METHOD_TASKS.get(method or "")
    if task in (None, "inference") and model.lower().startswith(DIFFUSION):
        task = "image_generation"
    cards = named_cards(ent)
    weighed = ent.options and len(cards) >= 2  # cards named as options, each checked on its own
    if method == "finetune" and not weighed:
        target: dict[str, Any] = (
            {"gpus": cards}
            if len(cards) >= 2
            else {"gpu": cards[0], "num_gpus": ent.gpu_count, "vram_gb": ent.memory_of(cards[0])}
            if cards
            else {"vram_gb": ent.vram_gb, "num_gpus": ent.gpu_count}
        )
        return [
            {"model": model, "params_b": ent.model_size_b if not ent.models else None, "task": t,
             "context_tokens": ent.context_tokens, "batch_size": ent.batch_size,
             "in_use_gb": ent.memory_in_use_gb, **target}
            for t in (several if len(several) >= 2 else FINETUNE_TASKS)
        ]  # fmt: skip
    base = {
        "model": model, "params_b": ent.model_size_b if not ent.models else None, "task": task,
        "precision": ent.precision, "context_tokens": ent.context_tokens, "batch_size": ent.batch_size,
        "num_gpus": ent.gpu_count, "in_use_gb": ent.memory_in_use_gb,
        # 'how much context fits in the 24GB?': the tool's longest context, only when asked
        "longest_context": "context_room" in concepts_in(reading.text),
    }  # fmt: skip
    every = named_cards(reading.entities)
    # Cards named as options ("a 5080 or a 4090?"): each one checked on its own, for each model
    # the question names (the pick weighs them all); the message's options when the clause that
    # asks the fit names fewer of them ('… une H100-2-80G suffit ? Combien reste-t-il pour le KV
    # cache … ? Ou faut-il la H100-SXM-2-80G ?')
    options = (
        (ent, cards)
        if weighed
        else (reading.entities, every)
        if len(every) > len(cards) and reading.entities.options
        else None
    )
    if options is not None:
        holder, choices = options
        del base["model"], base["num_gpus"]
        tasks = FINETUNE_TASKS if method == "finetune" else (task,)
        return [
            {**base, "model": m, "task": t, **_option_target(holder, card)}
            for m in _goal_models(ent, model)
            for card in choices
            for t in tasks
        ]
    if len(every) >= 2 and not weighed and _asked_apart(reading, every):
        # 'Will it fit on ONE L4? … also would it fit on the T4?': each card its own check
        return [
            {**base, "gpu": card, "vram_gb": reading.entities.memory_of(card)} for card in every
        ]
    if len(every) > len(cards) and names_concept("several_gpus", reading.text):
        cards = every  # 'a 3090 … in the same PC as my 4090': the message's cards, together
    if len(cards) >= 2:
        # Several cards named: one machine holding them all (the tool's `gpus`), in equal shares
        # when a tensor-parallel engine serves them (vLLM, SGLang: the smallest card limits)
        del base["num_gpus"]
        counted = [f"{n}x {c}" if (n := ent.count_of(c) or 1) > 1 else c for c in cards]
        return [{**base, "gpus": counted, **_equal_shares(reading.text)}]
    target = (
        {"gpu": cards[0], "vram_gb": ent.memory_of(cards[0])} if cards else {"vram_gb": ent.vram_gb}
    )
    named = _named_models(ent, model)
    if len(named) > 1:
        # 'Llama 3.2 3B at Q4, or drop to 1B?': each model on the same card (at the precision
        # its own sentence gives, when the models are asked in two sentences).
        return [
            {**base, "model": m, "params_b": None,
             "precision": ent.model_precisions.get(m, base["precision"]), **target}
            for m in named
        ]  # fmt: skip
    sibling = _sibling(ent, model)
    return [{**base, **target}] + ([{**base, "model": sibling, **target}] if sibling else [])


def _equal_shares(text: str) -> dict[str, str]:
    """The tool's equal-share placement when the message names tensor parallelism or an engine
    that shards in equal shares; nothing (the tool's default split) otherwise."""
    from assistant.agent.offline.quantities import phrase_spans

    if phrase_spans("tensor_parallel", text) or phrase_spans("equal_shares", text):
        return {"multi_gpu": "equal"}
    return {}


def _method_of_another(reading: Reading, model: str) -> bool:
    """The task word sits in a sentence about another model only ('for the 70b use case which
    wins? and for lora fine-tuning an 8b model?'): the first model is not asked with it."""
    from assistant.knowledge.model_matching import parse_param_count

    size = parse_param_count(model)
    for clause in reading.clauses:
        named = clause.models[0] if clause.models else clause.model_size_b
        if named is None:
            continue
        own_size = parse_param_count(named) if isinstance(named, str) else named
        if clause.method and own_size != size:
            return not any(c.method for c in reading.clauses if c is not clause)
    return False


def _named_models(ent: Entities, first: str) -> list[str]:
    """The models a question weighs on one card (at most three): those it names, and a bare size
    after a named model ('or drop to 1B?'), as that model's sibling of that size when there is one."""
    from assistant.knowledge.model_matching import parse_param_count, sibling_of_size

    named = list(ent.models)
    if ent.models and ent.model_size_b:
        size = ent.model_size_b
        if parse_param_count(ent.models[0]) != size:
            # not 'Llama 2 70B' saying its size once more: a second model
            named.append(sibling_of_size(ent.models[0], size) or f"{size:g}B")
    return list(dict.fromkeys([first, *named]))[:MAX_GOAL_MODELS]


def _sibling(ent: Entities, model: str) -> str | None:
    """A smaller model of the same release, when the question names the model without its size
    ('Wan 2.1' is the 14B or the 1.3B): both are checked, the smaller in case the larger fails."""
    from assistant.knowledge.model_matching import smaller_sibling

    return smaller_sibling(model) if model in ent.unsized_models else None


MAX_GOAL_MODELS = 3


def _goal_models(ent: Entities, first: str) -> list[str]:
    """The models an options question weighs the cards against (at most two)."""
    return list(dict.fromkeys([first, *ent.models]))[:MAX_GOAL_MODELS]


def _option_target(ent: Entities, card: str) -> dict[str, Any]:
    """One option's cards: how many, and the memory the asker gives them."""
    count = ent.card_counts.get(card, 1)
    return {"gpu": card, "num_gpus": count if count > 1 else None, "vram_gb": ent.memory_of(card)}


def _without_a_model(ent: Entities, reading: Reading) -> str:
    """No model to fit: a card the asker has, asked whether it runs something unnamed ('Can
    RTX8000 48G run with inference?', 'I only have 2 RTX 4090. Is it enough for training?'),
    gets that card's side; otherwise, which card to get."""
    from assistant.agent.offline.skills.card_readiness import asks_if_card_runs

    return "card_readiness" if asks_if_card_runs(ent, reading) else "recommend_gpus"


SKILL = Skill(
    tool="workload_fit",
    result=FitResult,
    build=build,
    render=render,
    search_hint="VRAM 24 Go modèles",
    slots=(
        "models",
        "model_size_b",
        "gpus",
        "vram_gb",
        "precision",
        "method",
        "context_tokens",
        "batch_size",
        "gpu_count",
        "card_memory",
        "card_counts",
        "options",
        "memory_in_use_gb",
    ),  # fmt: skip
    needs=("models", "model_size_b"),
    concepts=("fit", "model_task", "card_count", "out_of_memory"),
    fallback=_without_a_model,
    combine=combine,
)
