"""Whether a card can do something: "can my 4090 do megakernels?", "does the T4 have cp.async?"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.agent.offline.concepts import concepts_in, names_concept
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import memory_pick, named_cards, render_unknown
from assistant.agent.offline.skills.gpu_lookup import provenance_note
from assistant.agent.offline.texts import (
    bullet_list,
    in_language,
    localized_name,
    pick,
    to_french,
    verdict_word,
)
from assistant.knowledge.stacks import VendorStack, load_stacks
from assistant.language import Lang
from assistant.tools.capability import CapabilityVerdict

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

GENERIC_HINT = "ce qui manque"
MAX_CARDS = 4  # 'H100 vs H200 vs B200: FP4?' checks every card compared
MAX_TOPICS = (
    8  # 'cp.async, ldmatrix, mma.sync, FP8, TMA, wgmma, tcgen05?' checks each feature listed
)
MAX_CHECKS = 12  # cards x features, at most


def _macos_stack(result: CapabilityVerdict, question: str) -> VendorStack | None:
    """AMD's stack when the card is AMD and the question says it runs macOS (no ROCm there)."""
    if result.gfx_target is None and result.rocm_supported is None:
        return None  # not an AMD card
    stack = load_stacks().get("amd")
    if stack is None or not stack.on_macos_en or not names_concept("macos", question):
        return None
    return stack


def _stack_lines(result: CapabilityVerdict, lang: Lang, question: str = "") -> list[str]:
    """An AMD, Intel or Apple card: what to use instead of CUDA, its gfx target, the guide's fit.
    An AMD card under macOS: Metal, never ROCm, which macOS does not have."""
    macos = _macos_stack(result, question)
    if macos is not None and macos.on_macos_en:
        french = macos.on_macos_fr or macos.on_macos_en
        return [pick(lang, f"**Instead:** {macos.on_macos_en}", f"**À la place :** {french}")]
    lines = []
    instead = pick(lang, result.instead or "", result.instead_fr or result.instead or "")
    if instead and result.verdict != "yes" and result.cuda_only is not False:
        lines.append(pick(lang, f"**Instead:** {instead}", f"**À la place :** {instead}"))
    if result.gfx_target:
        target = f"`{result.gfx_target}`"
        if result.rocm_supported:
            lines.append(
                pick(
                    lang,
                    f"Compiler target {target}, listed in AMD's ROCm support tables.",
                    f"Cible de compilation {target}, présente dans les tables de support ROCm d'AMD.",
                )
            )
        elif result.rocm_supported is False:
            lines.append(
                pick(
                    lang,
                    f"Compiler target {target}, not listed in AMD's ROCm support tables "
                    "(it may work unofficially, without AMD's support).",
                    f"Cible de compilation {target}, absente des tables de support ROCm d'AMD "
                    "(cela peut marcher officieusement, sans le support d'AMD).",
                )
            )
        else:
            lines.append(
                pick(lang, f"Compiler target {target}.", f"Cible de compilation {target}.")
            )
    guide = pick(lang, result.guide_fit or "", result.guide_fit_fr or result.guide_fit or "")
    if guide:
        lines.append(guide)
    return lines


def _is_stack_reason(reason: str, result: CapabilityVerdict) -> bool:
    """A reason the typed stack fields already say (rendered from them in either language)."""
    return bool(
        (result.instead and result.instead in reason)
        or (result.guide_fit and reason == result.guide_fit)
        or reason.startswith(f"{result.gpu} compiles as")
        or reason.endswith("targets NVIDIA GPUs.")  # the verdict line says it
    )


def render(result: CapabilityVerdict, question: str, lang: Lang) -> str:
    """The verdict first (card, target, topic), then the reasons and the cheapest way to get it."""
    found = result.curated is not None or result.arch_target or result.compute_capability
    if result.verdict == "unknown" and not found:
        return render_unknown(result.gpu, result.suggestions, lang)
    topic = localized_name(result.topic_name or result.topic, lang)
    target = result.arch_target
    cc = f", CC {result.compute_capability}" if result.compute_capability else ""
    where = f" (`{target}`{cc})" if target else ""
    word = (
        pick(lang, "Not known here", "Non établi ici")
        if result.verdict == "unknown"
        else verdict_word(result.verdict, lang)
    )  # a card the catalog knows, on a question its data does not settle
    head = f"**{word}** — {result.gpu}{where} × {topic}"
    if result.cuda_only and result.verdict != "yes":
        head += pick(
            lang, ": CUDA runs only on NVIDIA GPUs", " : CUDA ne tourne que sur les GPU NVIDIA"
        )
    lines = [head]
    stack = bool(result.instead)
    caveat = provenance_note(result.gpu, result.curated, result.provenance, lang)
    kept = [
        r
        for r in result.reasons
        if not (stack and _is_stack_reason(r, result))
        and not (caveat and "not in the curated catalog" in r)  # said once, after the verdict
    ]
    if lang == "en":
        lines.append(bullet_list(kept))
    else:
        reasons = [r for r in (in_language(r, lang) for r in kept) if r]
        if result.missing and not stack:
            missing = [to_french(m) or m for m in result.missing]
            reasons.insert(0, "Ce qui manque : " + ", ".join(missing))
        lines.append(bullet_list(reasons))
    lines.extend(_stack_lines(result, lang, question))
    if result.corpus_note:
        lines.append(
            pick(
                lang,
                f"⚠️ {result.corpus_note}",
                "⚠️ Le guide affirme ici autre chose que les documents de NVIDIA ; ce verdict suit NVIDIA "
                f"(cible `{target}`).",
            )
        )
    alt = result.cheapest_alternative
    if alt and result.verdict != "yes":
        text = in_language(alt, lang)
        if text:
            lines.append(
                pick(
                    lang,
                    f"Cheapest way to get it: {text}",
                    f"Le moins cher pour y accéder : {text}",
                )
            )
    lines.append(caveat)  # a long-tail card: where its figures come from, after the verdict
    return "\n\n".join(line for line in lines if line)


def _why(result: CapabilityVerdict, lang: Lang) -> str:
    if result.verdict == "yes":
        return f"`{result.arch_target}`" if result.arch_target else ""
    missing = ", ".join(to_french(m) or m if lang == "fr" else m for m in result.missing)
    lacks = pick(lang, f"lacks {missing}", f"il manque {missing}") if missing else ""
    return ", ".join(
        x for x in (f"`{result.arch_target}`" if result.arch_target else "", lacks) if x
    )


def _feature_matrix(results: list[CapabilityVerdict], lang: Lang) -> str:
    """Several features asked of one card or more: per card what it has and lacks, then a table
    of each feature on each card with the compute capabilities that have it."""
    from assistant.knowledge.features import get_feature

    if any(r.verdict == "unknown" for r in results):
        return ""
    cards = list(dict.fromkeys(r.gpu for r in results))
    topics = list(dict.fromkeys(r.topic for r in results))
    by = {(r.gpu, r.topic): r for r in results}
    names = {r.topic: localized_name(r.topic_name or r.topic, lang).split(" (")[0] for r in results}
    sentences = []
    for card in cards:
        mine = [by[(card, t)] for t in topics if (card, t) in by]
        has = [names[r.topic] for r in mine if r.verdict == "yes"]
        partly = [names[r.topic] for r in mine if r.verdict == "partial"]
        lacks = [names[r.topic] for r in mine if r.verdict == "no"]
        target = next((f" (`{r.arch_target}`)" for r in mine if r.arch_target), "")
        parts = []
        if has:
            parts.append(pick(lang, f"{', '.join(has)} yes", f"{', '.join(has)} oui"))
        if partly:
            parts.append(
                pick(lang, f"{', '.join(partly)} partly", f"{', '.join(partly)} en partie")
            )
        if lacks:
            parts.append(pick(lang, f"{', '.join(lacks)} no", f"{', '.join(lacks)} non"))
        sentences.append(
            f"{card}{target}{pick(lang, ': ', ' : ')}{pick(lang, '; ', ' ; ').join(parts)}."
        )
    head = "**" + " ".join(sentences) + "**"

    def where(topic: str) -> str:
        feature = get_feature(topic)
        if feature is None:
            return "—"
        return ", ".join(
            f"{a.cc} (`{a.target}`)" if a.target else a.cc for a in feature.availability
        )

    rows = [
        f"| {names[t]} | "
        + " | ".join(verdict_word(by[(c, t)].verdict, lang) if (c, t) in by else "—" for c in cards)
        + f" | {where(t)} |"
        for t in topics
    ]
    exists = pick(lang, "Compute capabilities that have it", "Compute capabilities qui l'ont")
    table = (
        f"| {pick(lang, 'Feature', 'Fonction')} | {' | '.join(cards)} | {exists} |\n"
        + "|---" * (len(cards) + 2)
        + "|\n"
        + "\n".join(rows)
    )
    missing = [t for t in topics if all(by[(c, t)].verdict == "no" for c in cards if (c, t) in by)]
    # each missing feature's own way to get it: wgmma (an H100) and tcgen05 (a B200) are not on
    # one card, so features are grouped only when their alternative is the same
    ways: dict[str, list[str]] = {}
    for t in missing:
        alt = next(
            (by[(c, t)].cheapest_alternative for c in cards
             if (c, t) in by and by[(c, t)].cheapest_alternative),
            None,
        )  # fmt: skip
        way = in_language(alt, lang) if alt else None
        if way:
            ways.setdefault(way, []).append(names[t])
    tail = " ".join(
        pick(
            lang,
            f"For {', '.join(features)}, none of these cards: {extra}",
            f"Pour {', '.join(features)}, aucune de ces cartes : {extra}",
        )
        for extra, features in ways.items()
    )
    noted = [r for r in results if r.corpus_note]
    warning = ""
    if noted:
        # Where the guide says otherwise, the answer shows both (as a single verdict does).
        warning = pick(
            lang,
            "\n".join(f"⚠️ {note}" for note in dict.fromkeys(r.corpus_note or "" for r in noted)),
            "⚠️ Le guide affirme ici autre chose que les documents de NVIDIA pour "
            + ", ".join(dict.fromkeys(r.gpu for r in noted))
            + " ; ce tableau suit NVIDIA.",
        )
    return "\n\n".join(p for p in (head, table, warning, tail) if p)


def combine(results: list[CapabilityVerdict], question: str, lang: Lang) -> str:
    """Several cards against one goal: those that can't meet it ruled out first, then a table.
    Several features: a matrix of each feature on each card."""
    if len({r.topic for r in results}) > 1:
        return _feature_matrix(results, lang)
    if len({r.gpu for r in results}) < 2:
        return ""
    if any(r.verdict == "unknown" for r in results):
        return ""
    topic = localized_name(results[0].topic_name or results[0].topic, lang).split(" (")[0]
    able = [r.gpu for r in results if r.verdict == "yes"]
    partly = [r.gpu for r in results if r.verdict == "partial"]
    unable = [r for r in results if r.verdict == "no"]
    out = pick(lang, " and ", " et ").join(r.gpu for r in unable)
    if unable and len(able) == 1:
        head = pick(
            lang,
            f"**{able[0]} is the only one of these that can do {topic}**: {out} can't ({_why(unable[0], lang)}).",
            f"**{able[0]} est la seule de ces cartes à permettre {topic}** : {out} non ({_why(unable[0], lang)}).",
        )
    elif unable and not able and not partly:
        head = pick(
            lang,
            f"**None of these cards can do {topic}.**",
            f"**Aucune de ces cartes ne permet {topic}.**",
        )
    elif able:
        head = pick(
            lang,
            f"**{pick(lang, ' and ', ' et ').join(able)} can do {topic}**"
            + (f"; {out} can't." if unable else "."),
            f"**{pick(lang, ' and ', ' et ').join(able)} permet{'tent' if len(able) > 1 else ''} {topic}**"
            + (f" ; {out} non." if unable else "."),
        )
        if concepts_in(question) & {"buy", "recommend"} or extract_entities(question).options:
            # a pick among cards that all can: only when the asker is choosing one ('RTX 3060 or
            # RTX 4060 to learn CUDA?', 'which to buy to learn TMA?'), not for the cards a
            # learner already has, or compares to a free notebook's
            head += memory_pick(able, lang)
    else:
        head = pick(
            lang,
            f"**Only partly: {', '.join(partly)}** for {topic}"
            + (f"; {out} can't." if unable else "."),
            f"**Partiellement seulement : {', '.join(partly)}** pour {topic}"
            + (f" ; {out} non." if unable else "."),
        )
    rows = "\n".join(
        f"| {r.gpu} | {verdict_word(r.verdict, lang)} | {_why(r, lang)} |" for r in results
    )
    table = (
        pick(lang, "| Card | Verdict | Why |", "| Carte | Verdict | Pourquoi |")
        + "\n|---|---|---|\n"
        + rows
    )
    alt = next(
        (r.cheapest_alternative for r in results if r.cheapest_alternative and not able), None
    )
    extra = in_language(alt, lang) if alt else None
    tail = (
        pick(lang, f"Cheapest way to get it: {extra}", f"Le moins cher pour y accéder : {extra}")
        if extra
        else ""
    )
    return "\n\n".join(p for p in (head, table, tail) if p)


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call per card and topic named (four cards, five topics and twelve checks at most). The precision a named model is to
    run at is no feature question on another maker's card ('a 100B model in bf16 on an M2 Ultra'):
    the fit says whether that format runs there, and a CUDA verdict would only say 'not NVIDIA'."""
    from assistant.knowledge.matching import match_gpu

    topics = list(ent.topics) or [f"part {p}" for p in ent.parts]
    whole = reading.entities
    if topics and named_cards(whole) == named_cards(ent):
        # 'does A100 do FP8? what about TF32 / BF16': a feature asked in another clause, with no
        # card of its own, is asked of the same cards
        topics += [t for t in whole.topics if t not in topics]

    def asked(card: str, topic: str) -> bool:
        if topic != ent.model_precision:
            return True
        found = match_gpu(card).gpu
        return found is None or found.vendor == "nvidia"

    return [
        {"gpu": card, "topic": topic}
        for card in named_cards(ent)[:MAX_CARDS]
        for topic in topics[:MAX_TOPICS]
        if asked(card, topic)
    ][:MAX_CHECKS]


def fallback(ent: Entities, reading: Reading) -> str | None:
    """A card without a named feature: its own feature list; a feature without a card: what has it.
    None when the only feature named is the precision of a model to fit (the fit answers)."""
    if ent.model_precision and ent.model_precision in ent.topics:
        return None
    from assistant.agent.offline.skills.card_readiness import asks_if_card_runs

    if not ent.topics and asks_if_card_runs(ent, reading):
        return "card_readiness"  # '8 * 3090 supports fine-tuning training?': the card's side
    if named_cards(ent):
        return "gpu_lookup"
    return "recommend_gpus" if ent.topics or ent.parts else None


def search_terms(reading: Reading) -> str:
    """The features' own names and the cards' architectures.

    A question about one feature ("does the H100 support FP8?") finds the passages that name the
    feature and the architectures; a guide topic (megakernels, a part) keeps the generic hint, the
    guide's answers about topics being written as what works and what is missing.
    """
    from assistant.knowledge.features import get_feature
    from assistant.knowledge.matching import match_gpu

    names: list[str] = []
    generic = not reading.entities.topics
    for key in reading.entities.topics[:2]:
        feature = get_feature(key)
        if feature is None:
            generic = True
            continue
        names.append(feature.name.split(" (")[0])
    for card in reading.entities.gpus[:2]:
        found = match_gpu(card).gpu
        if found is not None and found.architecture:
            names.append(str(found.architecture))
    if generic:
        names.append(GENERIC_HINT)
    return " ".join(dict.fromkeys(names))


SKILL = Skill(
    tool="gpu_capability",
    result=CapabilityVerdict,
    build=build,
    render=render,
    search_hint=GENERIC_HINT,
    search_terms=search_terms,
    slots=("gpus", "unknown_gpus", "topics", "parts"),
    needs=("topics", "parts"),
    concepts=("capability",),
    fallback=fallback,
    combine=combine,
)
