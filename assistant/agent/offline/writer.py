"""Write the offline answer: one renderer per tool result, the passages as numbered references.

The answer is in the question's language, gives the tools' figures and verdicts, and cites the
retrieved passages as [1], [2]... in the order the agent records them (the answer's citations).
"""

from __future__ import annotations

import re
from typing import Any

from assistant.agent.offline import knowledge_lead, lead_match, premises
from assistant.agent.offline.card_roles import asks_to_pick
from assistant.agent.offline.concepts import names_concept, reports_failure
from assistant.agent.offline.planner import (
    SEARCH_TOOL,
    ToolResult,
    asks_speed_first,
    card_feature,
)
from assistant.agent.offline.reading import Conversation, Reading, read_turn
from assistant.agent.offline.requirements import requirement_check
from assistant.agent.offline.safety import passage_is_safe
from assistant.agent.offline.scope import out_of_scope, outside_answer
from assistant.agent.offline.sentences import MIN_CLAUSE_WORDS, asked_sentences
from assistant.agent.offline.skills import get_skill
from assistant.agent.offline.texts import gb, localized_name, num, pick
from assistant.knowledge.names import fold
from assistant.knowledge.topics import generic_topic_keys
from assistant.language import STOPWORDS, Lang, cjk_language

MAX_QUOTES = 2
# A passage is quoted only when it holds this many of the question's salient terms.
MIN_BEARING = 2
FEW_TERMS = 3  # ... or one of them, when the question has no more than this many
# Words too common in this domain to show that a passage is about the question.
GENERIC_TERMS = frozenset(
    [
        "gpus",
        "cuda",
        "vram",
        "nvidia",
        "guide",
        "card",
        "cards",
        "carte",
        "cartes",
        "memory",
        "memoire",
        "model",
        "models",
        "modele",
        "modeles",
        "want",
        "need",
        "would",
        "could",
        "should",
        "does",
        "with",
        "have",
        "pour",
        "avec",
        "est-ce",
        "quelle",
        "quel",
        "quels",
        "quelles",
        "what",
        "which",
        "good",
        "bien",
        "faut",
        "peux",
        "peut",
    ]
)
# A passage scoring under this fraction of the best one is not cited.
RELATIVE_MIN_SCORE = 0.85
# Below this lead-model probability an entry is not quoted after a tool's answer: on blind batch 14
# and real questions 11, 13 quotes fell below it and readers called six of them irrelevant (of the
# quotes above it, 13 of 51).
QUOTE_MIN_PROBABILITY = 0.02
_COMMON = STOPWORDS | frozenset({"card", "cards", "carte", "cartes", "much", "many"})
MAX_QUOTE_CHARS = 280
WHAT_I_DO = {
    "en": (
        "I answer questions about GPUs with sourced data and deterministic tools: card specifications "
        "and comparisons, whether a card supports a CUDA feature or a part of the guide, rental costs, "
        "spot vs dedicated, rent vs buy, forgotten instances and storage, learning budgets, whether a "
        "model fits in VRAM, recommendations, and the GPU of this machine — with passages from the "
        "guide's documents."
    ),
    "fr": (
        "Je réponds aux questions sur les GPU avec des données sourcées et des outils déterministes : "
        "caractéristiques et comparaisons de cartes, prise en charge d'une fonctionnalité CUDA ou d'une "
        "partie du guide, coûts de location, spot ou dédiée, louer ou acheter, instance oubliée et "
        "stockage, budget d'apprentissage, tenue d'un modèle en VRAM, recommandations et GPU de cette "
        "machine — avec les passages des documents du guide."
    ),
}
SELF = {
    "en": "I am gpu-advisor's **offline backend**: a deterministic program (entity extraction and an "
    "intent classifier over example questions), not a language model. ",
    "fr": "Je suis le **mode hors ligne** de gpu-advisor : un programme déterministe (extraction "
    "d'entités et classifieur d'intentions sur des questions d'exemple), pas un modèle de langage. ",
}
EXAMPLES = {
    "en": "Try: *Can my RTX 4090 do megakernels?* · *How much does an H100 cost for 100 hours?* · "
    "*I have 200 € to learn GPU programming, how should I spend it?*",
    "fr": "Essayez : *Ma RTX 4090 peut-elle faire des megakernels ?* · *Combien coûte une H100 pendant "
    "100 heures ?* · *J'ai 200 € pour apprendre la programmation GPU, comment les dépenser ?*",
}


# Said in the asker's own language when they wrote in Chinese, Japanese or Korean: the offline
# backend writes English and French only.
ANSWERED_IN_ENGLISH = {
    "zh": "（离线模式只能用英文或法文回答，以下为英文回答。）",
    "ja": "（オフラインモードは英語かフランス語でしか回答できません。以下は英語での回答です。）",
    "ko": "(오프라인 모드는 영어나 프랑스어로만 답변할 수 있어 아래에 영어로 답변합니다.)",
}


def _passages(results: list[ToolResult]) -> list[dict[str, Any]]:
    """Every retrieved passage, numbered as the answer's citations will be (first seen first)."""
    seen: set[Any] = set()
    out: list[dict[str, Any]] = []
    for result in results:
        if result.name != SEARCH_TOOL or not isinstance(result.result, dict):
            continue
        for passage in result.result.get("passages") or []:
            if not isinstance(passage, dict) or passage.get("chunk_id") in seen:
                continue
            seen.add(passage.get("chunk_id"))
            out.append(passage)
    return out


def _relevant(passages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passages whose score is close enough to the best one's to be cited."""
    scores = [p.get("score") for p in passages]
    if not passages or not all(isinstance(x, int | float) for x in scores):
        return passages
    best = max(float(x) for x in scores)  # type: ignore[arg-type]
    return [p for p in passages if float(p["score"]) >= RELATIVE_MIN_SCORE * best]


def _cited_ids(kept: list[dict[str, Any]], lang: Lang) -> str:
    """The ids of the passages the answer cites, when weaker ones were left out of its sources."""
    ids = [str(p.get("chunk_id")) for p in kept if p.get("chunk_id")]
    if not ids:
        return ""
    return f"<sub>{pick(lang, 'Passages cited: ', 'Passages cités : ')}{', '.join(ids)}</sub>"


def _quote(passage: dict[str, Any], lang: Lang | None = None) -> str:
    if is_knowledge_entry(passage):
        text = direct_answer(passage, lang)
    else:
        text = knowledge_lead.strip_comments(
            str(passage.get("snippet") or passage.get("text") or "")
        )
    if len(text) > MAX_QUOTE_CHARS:
        text = text[: MAX_QUOTE_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return text


def _salient_terms(reading: Reading) -> set[str]:
    """Words of the question worth finding in a passage: card numbers, topics, models, long words."""
    terms = {
        t
        for t in re.findall(r"[a-z0-9_.]{4,}", fold(reading.text))
        if t not in _COMMON and t not in GENERIC_TERMS
    }
    for card in reading.entities.gpus:
        terms.update(re.findall(r"\d{3,4}|[a-z]\d{2,3}", fold(card)))
    terms.update(t.replace("_", ".") for t in reading.entities.topics)
    terms.update(reading.entities.topics)
    for model in reading.entities.models:
        terms.update(w for w in re.findall(r"[a-z]{4,}", fold(model)) if w not in GENERIC_TERMS)
    return terms


def _bearing(passage: dict[str, Any], terms: set[str]) -> int:
    """How many of the question's salient terms the passage holds."""
    text = fold(str(passage.get("text") or ""))
    return sum(1 for t in terms if t in text)


def _ranked(passages: list[dict[str, Any]], reading: Reading) -> list[tuple[int, dict[str, Any]]]:
    """(number, passage) that bear on the question, those sharing the most salient terms first."""
    terms = _salient_terms(reading)
    needed = 1 if len(terms) <= FEW_TERMS else MIN_BEARING
    numbered = [(n, p) for n, p in enumerate(passages, 1) if _bearing(p, terms) >= needed]
    return sorted(numbered, key=lambda item: (-_bearing(item[1], terms), item[0]))


def _section(passage: dict[str, Any]) -> str:
    return str(passage.get("section") or passage.get("title") or "").split(" > ")[-1]


def _quoted(
    passages: list[dict[str, Any]], reading: Reading, limit: int
) -> list[tuple[int, dict[str, Any]]]:
    """The passages worth quoting, best first: safe ones, and no entry about another kind of
    model than the question's (a FLUX LoRA entry under a question on a language model), about
    memory in another task (the inference entry under a fine-tuning OOM), or about a
    feature the question does not name (an FP8 entry under a question on training speed), or about
    other cards than those it names (a Jetson entry under a question on a Quadro)."""
    from assistant.agent.offline.lead_match import (
        about_something_else,
        about_unasked_feature,
        other_model_kind,
        other_task,
    )

    generic = knowledge_lead.settings().generic_topics
    ranked = [
        (n, p)
        for n, p in _ranked(passages, reading)
        if passage_is_safe(str(p.get("text") or ""))
        and not (
            (key := entry_id(p))
            and (
                other_model_kind(reading.text, key)
                or other_task(reading.task_text, key)
                or about_unasked_feature(reading, key)
                or about_something_else(reading, key, generic)
            )
        )
    ]
    if any(entry_id(p) for _, p in ranked):
        # An entry the lead model finds all but impossible for this question is not quoted under
        # it (a P40 entry under a question on a blur kernel); one it did not weigh may be.
        probs = knowledge_lead.entry_probabilities(
            reading, [knowledge_lead.passage_entry_id(p) for p in passages]
        )
        ranked = [
            (n, p)
            for n, p in ranked
            if not ((key := entry_id(p)) and probs.get(key, 1.0) < QUOTE_MIN_PROBABILITY)
        ]
    return ranked[:limit]


def _entry_title(passage: dict[str, Any], lang: Lang) -> str:
    """The passage's section; for a knowledge entry, its question in the answer's language."""
    from assistant.knowledge.entries import get_entry

    key = entry_id(passage)
    own = get_entry(key, lang) if key else None
    return own.title if own is not None else _section(passage)


def _quotes(quoted: list[tuple[int, dict[str, Any]]], lang: Lang) -> str:
    lines = [f"> {_quote(p, lang)} [{n}] — *{_entry_title(p, lang)}*" for n, p in quoted]
    if not lines:
        return ""
    if all(is_knowledge_entry(p) for _, p in quoted):
        label = pick(lang, "From the knowledge base:", "D'après la base de connaissances :")
    elif any(is_knowledge_entry(p) for _, p in quoted):
        label = pick(
            lang,
            "From the knowledge base and the guide:",
            "D'après la base de connaissances et le guide :",
        )
    else:
        label = pick(lang, "From the guide:", "D'après le guide :")
    return label + "\n" + "\n>\n".join(lines)


_COMMENT = re.compile(r"<!--.*?-->", re.S)


def is_knowledge_entry(passage: dict[str, Any]) -> bool:
    """A passage from the knowledge entries (one question, a direct answer, sources)."""
    title = str(passage.get("title") or "")
    return title.startswith(("Knowledge ·", "Base de connaissances ·")) or "<!-- id:" in str(
        passage.get("text") or ""
    )


def entry_id(passage: dict[str, Any]) -> str | None:
    """The knowledge entry a passage comes from ('knowledge-<lang>-<topic>:<id>:<hash>')."""
    parts = str(passage.get("chunk_id") or "").split(":")
    return parts[1] if len(parts) >= 2 and parts[0].startswith("knowledge-") else None


def direct_answer(passage: dict[str, Any], lang: Lang | None = None) -> str:
    """A knowledge entry's direct answer (in `lang` when the entry exists in it), else its first
    paragraph after the heading."""
    from assistant.knowledge.entries import get_entry

    key = entry_id(passage)
    if key is not None:
        entry = get_entry(key, lang or str(passage.get("language") or "en"))
        if entry is not None:
            return " ".join(entry.answer.split())
    text = _COMMENT.sub("", str(passage.get("text") or ""))
    paragraphs = [
        " ".join(p.split())
        for p in re.split(r"\n\s*\n", text)
        if p.strip() and not p.lstrip().startswith(("#", "**Sources", "- ", "|"))
    ]
    return paragraphs[0] if paragraphs else _quote(passage)


def _knowledge_answer(
    passages: list[dict[str, Any]], reading: Reading
) -> tuple[str, list[dict[str, Any]]]:
    """The answer when no tool fits: the best knowledge entry's direct answer, else passages."""
    lang = reading.language
    quoted = _quoted(passages, reading, limit=MAX_QUOTES + 1)
    if not quoted:
        return "", []
    entries = [(n, p) for n, p in quoted if is_knowledge_entry(p)]
    same_language = [(n, p) for n, p in entries if p.get("language") in (None, lang)]
    if entries:
        number, entry = (same_language or entries)[0]
        heading = _entry_title(entry, lang)
        text = f"{direct_answer(entry, lang)} [{number}]\n\n" + pick(
            lang,
            f"<sub>From the knowledge entry *{heading}*.</sub>",
            f"<sub>D'après la fiche *{heading}*.</sub>",
        )
        return text, [entry]
    return _quotes(quoted, lang), [p for _, p in quoted]


def _error_section(result: ToolResult, lang: Lang) -> str:
    error = str(result.error or "no readable result")
    if error.startswith("invalid arguments"):
        detail = error.split("—", 1)[-1].strip()
        return pick(
            lang,
            f"I can't compute that with these values (`{result.name}`): {detail}.",
            f"Je ne peux pas calculer avec ces valeurs (`{result.name}`) : {detail}.",
        )
    return (
        pick(
            lang,
            f"The `{result.name}` tool could not answer: ",
            f"L'outil `{result.name}` n'a pas pu répondre : ",
        )
        + error[:200]
    )


def _ruled_out(results: list[ToolResult], lang: Lang) -> tuple[list[ToolResult], str]:
    """Options that can't meet the question's goal are ruled out before they are weighed.

    "Buy a 4090 or rent a B200 to learn tcgen05?": the 4090 has no tcgen05, so its break-even
    against renting is beside the point; the answer says so instead of computing it.
    """
    from assistant.tools.buy import RentVsBuy
    from assistant.tools.capability import CapabilityVerdict

    verdicts = [
        v
        for r in results
        if r.name == "gpu_capability" and not r.error
        for v in [_parse(CapabilityVerdict, r.result)]
        if v is not None
    ]
    unable = {v.gpu: v for v in verdicts if v.verdict == "no"}
    # one name each, though several features of the card were checked
    able = list(dict.fromkeys(v.gpu for v in verdicts if v.verdict in ("yes", "partial")))
    kept, notes = [], []
    for result in results:
        bought = _parse(RentVsBuy, result.result) if result.name == "rent_vs_buy" else None
        if bought is not None and bought.gpu in unable:
            topic = localized_name(
                unable[bought.gpu].topic_name or unable[bought.gpu].topic, lang
            ).split(" (")[0]
            instead = pick(lang, " or ", " ou ").join(able)
            notes.append(
                pick(
                    lang,
                    f"Buying {bought.gpu} can't reach this goal (no {topic}), so its break-even against renting doesn't matter"
                    + (f": renting {instead} is the way among these." if instead else "."),
                    f"Acheter {bought.gpu} ne permet pas d'atteindre ce but (pas de {topic}) : son seuil de rentabilité n'a donc pas d'intérêt"
                    + (f" ; louer {instead} est la voie parmi ces options." if instead else "."),
                )
            )
            continue
        kept.append(result)
    return kept, " ".join(notes)


def _parse(model: Any, payload: Any) -> Any:
    from pydantic import ValidationError

    try:
        return model.model_validate(payload)
    except ValidationError:
        return None


def _unknown_cards(reading: Reading) -> list[str]:
    """What the answer opens with for each card-like name that no catalog knows: the question is
    about a card that may not exist. A listing for sale under such a name is flagged."""
    from assistant.agent.offline.skills.common import render_unknown

    ent, lang = reading.entities, reading.language
    notes = [render_unknown(n, ent.suggestions.get(n, []), lang) for n in ent.unknown_gpus]
    if notes and (ent.buy_mentioned or ent.money):
        notes.append(
            pick(
                lang,
                "A card offered for sale under a name that no database knows is most often a "
                "mislabelled, modified or fake product: check the exact model before paying.",
                "Une carte vendue sous un nom qu'aucune base ne connaît est le plus souvent mal "
                "étiquetée, modifiée ou contrefaite : vérifiez le modèle exact avant de payer.",
            )
        )
    return notes


def _only_unknown_cards(result: ToolResult, reading: Reading) -> bool:
    """A tool called only on cards no catalog knows: it can only say so, which the answer's
    first sentence already does."""
    args = result.args
    cards = [args["gpu"]] if isinstance(args.get("gpu"), str) else []
    cards += [c for c in args.get("gpus") or [] if isinstance(c, str)]
    return bool(cards) and all(c in reading.entities.unknown_gpus for c in cards)


def _precision_confirmed(result: ToolResult, reading: Reading) -> bool:
    """A 'yes' on the format a named model is to run at ('Llama 405B in FP8' on an H100): the fit
    already says the format runs on the card, and a 'Yes' would answer a question not asked. A
    'no' stays: it corrects the asker's premise."""
    ent = reading.entities
    precision = ent.model_precision
    return (
        result.name == "gpu_capability"
        and precision is not None
        # 'a full fine-tune in BF16': the format named, which the fit reads as mixed precision
        and result.args.get("topic") in {precision, *ent.precisions}
        and isinstance(result.result, dict)
        and result.result.get("verdict") == "yes"
    )


# Calculators that answer "not in the data" or "say which card" when an input is missing.
_NEEDS_INPUT = frozenset({"purchase_price", "llm_speed", "power_cost", "job_cost"})


def _answered(result: ToolResult) -> bool:
    return result.error is None and not (
        isinstance(result.result, dict) and result.result.get("found") is False
    )


def _without_unanswered(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """Without a calculator's 'not in the data' or 'say which card' when another tool answers
    ('sell my 4070 Super for ~$450 and buy…': the options' comparison answers, not 'no used
    price'; 'both cards in one box, 24 + 16 GB': the fit answers, not 'say which card'). A speed
    asked for in so many words keeps its 'say which card', with the bound it gives ('how many
    tok/s and how much context fits in the 24GB?')."""
    from assistant.agent.offline.planner import names_renting

    others = any(_answered(r) and r.name not in _NEEDS_INPUT | {SEARCH_TOOL} for r in results)
    speed_asked = names_concept("speed", reading.text)
    renting = names_renting(reading)
    compared = any(r.name == "gpu_compare" and _answered(r) for r in results)
    return [
        r
        for r in results
        if not (others and _missing_input(r) and not (speed_asked and r.name == "llm_speed"))
        # 'each epoch costs me 18 hours': no rental was asked, so no 'no rental price' either
        and not (r.name == "rent_cost" and not _answered(r) and not renting)
        # the cards named, compared, answer 'which of these two?' when none has a price
        and not (r.name == "recommend_gpus" and compared and _picks_nothing(r))
    ]


def _picks_nothing(result: ToolResult) -> bool:
    """A recommendation with no option and nothing close (the cards named have no price)."""
    found = result.result if isinstance(result.result, dict) else {}
    return not found.get("options") and not found.get("closest")


def _missing_input(result: ToolResult) -> bool:
    """A calculator with nothing to say: a price the data lacks, or no card to work on (not a
    verdict such as 'no tokens/s for an image model')."""
    if result.name not in _NEEDS_INPUT or _answered(result):
        return False
    return result.name == "purchase_price" or not result.args.get("gpu")


# Tools whose verdict on a card answers the question; its spec sheet beside them is noise unless
# specifications are asked.
_CARD_VERDICTS = frozenset({"software_support", "gpu_capability"})


def _without_unasked_specs(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """Without a card's spec sheet when a verdict on that card answers ('TensorFlow 1.8 on a
    3090?': the software check) and no specification is asked."""
    verdict_cards = {
        r.args.get("gpu") for r in results if r.name in _CARD_VERDICTS and _answered(r)
    }
    if not verdict_cards or knowledge_lead.settings().asks_specs.search(reading.text):
        return results
    return [
        r for r in results if not (r.name == "gpu_lookup" and r.args.get("gpu") in verdict_cards)
    ]


def _own_figures_computed(reading: Reading, results: list[ToolResult]) -> bool:
    """A calculator worked on figures the question gave (a wattage and a price per kWh, hours,
    a budget): its result answers, and a passage found on the same words adds nothing."""
    conf = knowledge_lead.settings()
    return reading.entities.has_figures() and any(
        r.name in conf.tool_first and r.name not in conf.spec_tools and _answered(r)
        for r in results
    )


def _without_unasked_picks(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """Without a recommendation that has nothing to go on (no goal, budget or card: "which card
    depends on what you run") when the question does not ask which card: it answers nothing
    that was asked ('do I need to calibrate INT8 in TensorRT?')."""
    from assistant.agent.offline.skills.recommend_gpus import picks_for_nothing
    from assistant.tools.recommend.models import Recommendation

    if "recommend_gpus" not in _weak_tools(reading, results):
        return results
    return [
        r
        for r in results
        if not (
            r.name == "recommend_gpus"
            and (parsed := _parse(Recommendation, r.result)) is not None
            and picks_for_nothing(parsed)
        )
    ]


def _beside_requirement(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """The results kept after a check against a project's card: not the two cards' spec sheets,
    which say again what the check weighed, nor a shopping list, unless either is asked for."""
    conf = knowledge_lead.settings()
    dropped = set() if conf.asks_specs.search(reading.text) else set(conf.spec_tools)
    if not conf.asks_recommendation.search(reading.text):
        dropped |= set(conf.recommend_tools)
    return [r for r in results if r.name not in dropped]


def _without(section: str, notes: list[str]) -> str:
    """A tool section without the notes the answer opens with (a comparison of a known and an
    unknown card renders the same unknown-card note; a spec sheet, the same no-NVLink line)."""
    for note in notes:
        section = section.replace(note, "")
    return section.strip()


def _tool_sections(reading: Reading, results: list[ToolResult]) -> tuple[list[str], int]:
    """One section per tool, in the order called; a skill's several results may be merged.
    Cards named as options get the pick first, in place of the sections it sums up."""
    from assistant.agent.offline.options import holds_none, weigh_options

    sections: list[str] = []
    program_first: list[str] = []
    errors = 0
    weighed = weigh_options(reading, results)
    # 'how many tokens/s on a 4090 vs a 3090?': the speeds answer first, the pick after them
    speed_first = (
        weighed is not None
        and asks_speed_first(reading)
        and any(r.name == "llm_speed" and not r.error for r in results)
        and not holds_none(results)  # a model that loads on none of them: the fits first
    )
    if weighed is not None:
        if not speed_first:
            sections.append(weighed[0])
        results = [r for r in results if r.name not in weighed[1]]
    results, ruled_out = _ruled_out(results, reading.language)
    by_tool: dict[str, list[ToolResult]] = {}
    if speed_first or (
        _speed_seen(reading) and any(r.name == "llm_speed" and not r.error for r in results)
    ):
        # "only 5 t/s on my 3060, why?": the rate set against the estimate answers first
        by_tool["llm_speed"] = []
    for result in results:
        if result.name != SEARCH_TOOL and get_skill(result.name) is not None:
            by_tool.setdefault(result.name, []).append(result)
    for name, group in by_tool.items():
        skill = get_skill(name)
        assert skill is not None
        ok = [r for r in group if not r.error]
        texts = skill.answer_many([r.result for r in ok], reading.text, reading.language)
        if name == "gpu_compare" and weighed is not None:
            # the options' pick leads (counts included): no second pick on one card each
            texts = [_without_pick(t, r, reading.language) for t, r in zip(texts, ok, strict=False)]
        failed = [r for r in group if r.error] + [
            r for r, t in zip(ok, texts, strict=False) if t is None
        ]
        for result in failed:
            errors += 1
            sections.append(_error_section(result, reading.language))
        verdicts = [_program_verdict(r) or _cuda_denied(r) for r in ok]
        for text, verdict in zip(texts, verdicts, strict=False):
            text = (text or "").strip()
            if text and text not in sections:
                sections.append(text)
                if verdict:
                    program_first.append(text)
        if name == "gpu_capability" and ruled_out:
            sections.append(ruled_out)
        if name == "llm_speed" and speed_first and weighed is not None:
            sections.append(weighed[0])
    # "Does DeepFaceLab work on an Arc A770?": the program's verdict answers it, before any
    # comparison of the cards named
    return program_first + [t for t in sections if t not in program_first], errors


def _without_pick(text: str | None, result: ToolResult, lang: Lang) -> str | None:
    """A comparison's section without its own pick, which reads each card alone."""
    from assistant.agent.offline.skills.common import memory_pick

    cards = result.result.get("cards") if isinstance(result.result, dict) else None
    if not text or not cards:
        return text
    pick_line = memory_pick([c["name"] for c in cards if isinstance(c, dict)], lang).strip()
    return text.replace(pick_line, "").strip() if pick_line else text


def _program_verdict(result: ToolResult) -> bool:
    """A software check of a program on a card, with a verdict (not an unknown card)."""
    payload = result.result if isinstance(result.result, dict) else {}
    return (
        result.name == "software_support"
        and payload.get("kind") == "program"
        and payload.get("supported") in ("yes", "no", "partial")
    )


def _without_stated_absence(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """A card's "no" to a feature the asker already says it lacks ("the L4s are PCIe, without
    NVLink: tensor or pipeline parallel?") confirms, it corrects nothing: the entry answers."""
    from assistant.agent.offline.phrases import negated_words

    negated = negated_words(reading.text)
    if not negated:
        return results

    def stated_absent(result: ToolResult) -> bool:
        payload = result.result if isinstance(result.result, dict) else {}
        if result.name == "gpu_capability" and payload.get("verdict") == "no":
            return str(payload.get("topic") or "").lower() in negated
        card = payload.get("gpu") if result.name == "gpu_lookup" else None
        return isinstance(card, dict) and card.get("nvlink") is False and "nvlink" in negated

    return [r for r in results if not stated_absent(r)]


def _cuda_denied(result: ToolResult) -> bool:
    """CUDA asked on a card of another maker: that "no" corrects the question's premise ("a friend
    says my Radeon has CUDA cores"), before what the card does run."""
    payload = result.result if isinstance(result.result, dict) else {}
    return result.name == "software_support" and payload.get("supported") == "not_applicable"


def _probe_unavailable(reading: Reading, results: list[ToolResult]) -> bool:
    """The question asks about the asker's own machine, which this interface can't probe."""
    from assistant.agent.offline.planner import probe_beside_the_point

    ent = reading.entities
    return (
        "probe_gpus" in reading.tool_intents
        and not probe_beside_the_point(reading)
        and not (ent.gpus or ent.unknown_gpus)
        and not any(r.name in ("probe_gpus", "cloud_instances") for r in results)
    )


def _asks_how_to_check(reading: Reading, results: list[ToolResult]) -> bool:
    """The message asks how to see which GPU is there or in use, and no probe of this machine
    found one to name ('laptop has intel graphics too, how i know which gpu is actually used')."""
    from assistant.agent.offline.concepts import names_concept

    found = any(
        r.name == "probe_gpus" and isinstance(r.result, dict) and r.result.get("gpus")
        for r in results
    )
    return names_concept("check_gpu", reading.text) and not found


def _lead_for(
    reading: Reading, retrieved: list[dict[str, Any]], results: list[ToolResult]
) -> knowledge_lead.Lead | None:
    """The knowledge entry whose question this is (and the search found), inside the scope.

    A question the router calls off topic still gets its entry when the search found one whose
    question is this one: the explicit out-of-scope patterns have already answered the rest."""
    if reading.intents in (["declined"], ["greeting"]):
        return None
    found = [knowledge_lead.passage_entry_id(p) for p in retrieved]
    return _lead_of(reading, found, results)


def _lead_of(
    reading: Reading, found: list[str | None], results: list[ToolResult]
) -> knowledge_lead.Lead | None:
    """The fitted lead for this reading, given the searched passages' entry ids. A failure the
    asker reports (an out-of-memory error, a very slow run) next to an estimate that would only
    contradict it ("it fits") is led by the likeliest entry, even one the model is unsure of."""
    if (
        any(_program_verdict(r) for r in results)
        and reading.pasted_error is None
        and not premises.premise_entries(reading.text, reading.entities)
        and not lead_match.reports_slow_run(reading)
    ):
        # "does Fooocus run on my UHD 630?": the program's sourced verdict answers, unless the
        # question stands on a false premise ("install CUDA on the MacBook for vLLM") or reports
        # a run slower than expected (the program runs: why it is slow is the question)
        return None
    context = knowledge_lead.context_of(reading, results, _weak_tools(reading, results))
    lead = knowledge_lead.find_lead(reading, found, context)
    estimated = {r.name for r in results if r.error is None} & _ESTIMATES
    if lead is None and estimated and reports_failure(reading.text) and not _speed_seen(reading):
        lead = knowledge_lead.nearest_entry(reading, found, context)
    return lead


def _speed_seen(reading: Reading) -> bool:
    """The asker gives the speed they get ("only 3 t/s"): the speed tool sets it against its
    estimate, which says first how far off it is and what to check."""
    from assistant.agent.offline.quantities import observed_speed

    return observed_speed(reading.text) is not None


_ESTIMATES = frozenset({"workload_fit", "llm_speed", "models_for"})


# A message's questions, not its sentences (`assistant.language.sentences`): a statement that sets
# up a question ('I have a 3090. Can it run 70B?') belongs to it, so only '?' and line breaks cut.
_CLAUSE_END = re.compile(r"\?+|\n+")


def _leads(
    reading: Reading,
    retrieved: list[dict[str, Any]],
    results: list[ToolResult],
    first: knowledge_lead.Lead,
) -> list[knowledge_lead.Lead]:
    """The entries that open the answer, in the order the message asks them: for a message of
    two questions or more, each read on its own (with the message's passages), at most two."""
    from assistant.agent.offline.reading import Conversation, read_turn
    from assistant.knowledge.entries import get_entry

    clauses = [c.strip() for c in _CLAUSE_END.split(reading.text)]
    clauses = [c for c in clauses if len(c.split()) >= MIN_CLAUSE_WORDS]
    if reading.pasted_error is not None:
        # 'now getting this when i run whisper while ollama is loaded:' introduces the error
        clauses = [c for c in clauses if not c.endswith(":")]
    if reading.follow_up or len(clauses) < 2:
        return [first]
    found = [knowledge_lead.passage_entry_id(p) for p in retrieved]
    leads: list[knowledge_lead.Lead] = []
    from assistant.agent.offline.lead_match import other_task

    for clause in clauses:
        lead = _lead_of(read_turn(Conversation(clause)), found, results)
        if lead is not None and other_task(reading.task_text, lead.entry.id):
            continue  # a clause read alone lost the message's task (an OOM while fine-tuning)
        if lead is not None and lead.entry.id not in {x.entry.id for x in leads}:
            entry = get_entry(lead.entry.id, reading.language) or lead.entry
            leads.append(knowledge_lead.Lead(entry, lead.score))
    if reading.pasted_error is not None:
        # the pasted error is what the message asks about: its explanation opens the answer,
        # not the entry of the words around it ('while ollama has llama3.1 loaded:')
        leads = [x for x in leads if x.entry.id != first.entry.id]
        leads.insert(0, first)
    elif first.entry.id not in {x.entry.id for x in leads}:
        leads.insert(0, first)
    return leads[:2]


MAX_CLAUSE_LEADS = 2


def _clause_leads(
    reading: Reading, retrieved: list[dict[str, Any]]
) -> list[tuple[str, knowledge_lead.Lead]]:
    """For a message of several questions that the tools answer in part: each question that no
    tool answers and that is, read on its own, a knowledge entry's question (each entry once),
    with that entry, in the order asked, at most two."""
    from assistant.knowledge.entries import get_entry

    asked = asked_sentences(reading.text)
    if reading.follow_up or len(asked) < 2:
        return []
    found = [knowledge_lead.passage_entry_id(p) for p in retrieved]
    out: list[tuple[str, knowledge_lead.Lead]] = []
    shown: set[str] = set()
    for sentence in asked:
        own = read_turn(Conversation(sentence))
        if own.tool_intents:
            continue  # a question for a tool: the tools' sections answer it, or say they can't
        lead = _lead_of(own, found, [])
        if lead is None or lead.entry.id in shown:
            continue
        shown.add(lead.entry.id)
        entry = get_entry(lead.entry.id, reading.language) or lead.entry
        out.append((sentence, knowledge_lead.Lead(entry, lead.score)))
    return out[:MAX_CLAUSE_LEADS]


def _details(lead: knowledge_lead.Lead, reading: Reading, first: bool = True) -> list[str]:
    """The lead entry's details that the question asks about, and, for the `first` entry when its
    fix is written for any card, the targets of the one card the question names."""
    details = knowledge_lead.asked_details(lead.entry, _salient_terms(reading))
    line = _your_targets(lead, reading) if first else ""
    return [*details, line] if line else details


def _your_targets(lead: knowledge_lead.Lead, reading: Reading) -> str:
    """'For your GeForce RTX 3090: `sm_86` …' when the entry's fix is a build target written for
    any card (`compute_XX`, `TORCH_CUDA_ARCH_LIST`) and the question names one NVIDIA card whose
    compute capability the data has; '' otherwise."""
    from assistant.knowledge.cuda_support import get_arch
    from assistant.knowledge.matching import match_gpu

    answer = lead.entry.answer
    if not ("compute_XX" in answer or "TORCH_CUDA_ARCH_LIST" in answer):
        return ""
    if len(reading.entities.gpus) != 1:
        return ""
    card = match_gpu(reading.entities.gpus[0]).gpu
    arch = get_arch(card.compute_capability) if card and card.compute_capability else None
    if card is None or arch is None:
        return ""
    sm = arch.sm.removeprefix("sm_")
    flags = f'`TORCH_CUDA_ARCH_LIST="{arch.cc}"`, `-gencode arch=compute_{sm},code=sm_{sm}`'
    return pick(
        reading.language,
        f"For your {card.name}: `sm_{sm}` (compute capability {arch.cc}): {flags}; "
        f"CUDA {arch.first_toolkit} or newer builds for it.",
        f"Pour votre {card.name} : `sm_{sm}` (compute capability {arch.cc}) : {flags} ; "
        f"CUDA {arch.first_toolkit} ou plus récent compile pour elle.",
    )


def _weak_tools(reading: Reading, results: list[ToolResult]) -> set[str]:
    """Tools called on a guess: a shopping list nobody asked for, a spec sheet when no figure was
    asked, a generic "CUDA programming: yes". A knowledge entry that answers beats them."""
    from assistant.agent.offline.cues import asks_small_budget, asks_which_card
    from assistant.agent.offline.skills.gpu_lookup import asked_fields
    from assistant.agent.offline.skills.spot_vs_dedicated import spot_on_examples

    ent, text = reading.entities, reading.text
    weak = set()
    if not (asks_which_card(text) or ent.budgets or ent.mode or asks_small_budget(text)):
        weak.add("recommend_gpus")
    if not asked_fields(text) and not knowledge_lead.settings().asks_specs.search(text):
        weak.add("gpu_lookup")
    if not _asks_about_models(reading):
        weak.add("models_for")
    if spot_on_examples(ent, text):
        weak.add("spot_vs_dedicated")  # no rate and no job length: an example, not their case
    generic = generic_topic_keys()
    checks = [r for r in results if r.name == "gpu_capability" and isinstance(r.result, dict)]
    if checks and all(knowledge_lead.is_generic_capability(r, generic) for r in checks):
        weak.add("gpu_capability")
    return weak


def _without_unasked_models(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """The results less a list of language models that fit, when that list is the only tool and
    the question asks nothing about models ('can this 3D-scanning program run on a 64 GB Mac?'):
    the nearest passage, said to be one, answers instead of a list for another question."""
    called = {r.name for r in results if r.name != SEARCH_TOOL}
    if called != {"models_for"} or _asks_about_models(reading):
        return results
    return [r for r in results if r.name == SEARCH_TOOL]


def _asks_about_models(reading: Reading) -> bool:
    """The question is about models (which ones fit, a model or a kind of model it names): a list
    of models that fit answers it. A Mac's memory named beside a 3D-scanning program does not ask
    which language models fit."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.lead_match import model_kinds

    ent = reading.entities
    return bool(
        ent.models
        or ent.model_size_b
        or "models_for" in concepts_in(reading.text)
        or model_kinds(reading.text)
        or _MODEL_WORDS.search(reading.text)
    )


# Words that name models without naming one: 'an LLM', 'which model', 'un modèle de langage'.
_MODEL_WORDS = re.compile(
    r"\b(?:llms?|models?|modèles?|modeles?|chatbots?|gguf|ollama|lm studio|llama\.cpp)\b", re.I
)


def _without_generic_yes(reading: Reading, results: list[ToolResult]) -> list[ToolResult]:
    """The results less a "yes" on a topic every such card has ("RTX 4090 × CUDA programming:
    yes"), when another tool answers something the question asked: the "yes" would lead and tell
    nothing."""
    generic = generic_topic_keys()
    weak = _weak_tools(reading, results)
    answering = {r.name for r in results if r.name not in (SEARCH_TOOL, *weak)}
    if not answering or reading.entities.options:
        return results  # cards weighed against a goal: each one's "yes" is the comparison
    return [
        r
        for r in results
        if not (r.name == "gpu_capability" and knowledge_lead.is_generic_capability(r, generic))
    ]


def _only_generic_yes(reading: Reading, results: list[ToolResult]) -> bool:
    """The turn's only tool is a "yes" on a topic every such card has (a spec sheet, even a
    guessed one, still shows figures of the card asked about)."""
    called = {r.name for r in results if r.name != SEARCH_TOOL}
    return called == {"gpu_capability"} and called <= _weak_tools(reading, results)


def _card_headlines(results: list[ToolResult]) -> list[str]:
    """Each looked-up card in one line: name, architecture, compute capability, target."""
    from assistant.tools.lookup import GpuLookup

    out = []
    for r in results:
        found = _parse(GpuLookup, r.result) if r.name == "gpu_lookup" and not r.error else None
        if found is not None and found.gpu is not None:
            card = found.gpu
            out.append(
                _card_line(card.name, card.architecture, card.compute_capability, card.arch_target)
            )
    return out


def _card_line(
    name: str, architecture: str | None, cc: str | None, target: str | None, memory: str = ""
) -> str:
    """'**GeForce GTX 980** — Maxwell 2.0, CC 5.2, `sm_52`, 4 GB': a card in one line."""
    bits = [architecture, f"CC {cc}" if cc else "", f"`{target}`" if target else "", memory]
    return f"**{name}** — " + ", ".join(b for b in bits if b)


def _named_card_lines(reading: Reading) -> list[str]:
    """Each card the question names, in one line (architecture, compute capability, target,
    memory): under a nearest passage, the facts of the asker's own card ('GeForce GTX 980 —
    Maxwell, CC 5.2, `sm_52`, 4 GB')."""
    from assistant.knowledge.matching import match_gpu

    lines = []
    for name in reading.entities.gpus[:MAX_NAMED_CARDS]:
        card = match_gpu(name).gpu
        if card is None:
            continue
        # The asker's own memory size; a Mac's comes in several, so none is assumed for it.
        memory = reading.entities.memory_of(name) or (None if card.unified_memory else card.vram_gb)
        size = (
            f"{num(memory, reading.language)} {pick(reading.language, 'GB', 'Go')}"
            if memory
            else ""
        )
        lines.append(
            _card_line(
                card.name, card.architecture, card.compute_capability, card.arch_target, size
            )
        )
    return lines


MAX_NAMED_CARDS = 3


def _entry_first(
    reading: Reading,
    retrieved: list[dict[str, Any]],
    results: list[ToolResult],
    passages: list[dict[str, Any]],
) -> tuple[list[str], list[dict[str, Any]]] | None:
    """When every tool was called on a guess and the search found a knowledge entry: the entry
    the lead model finds nearest, named as the nearest question (the lead model found none whose
    question this is, so the search's first entry would answer another question as if it were
    this one), the cards' headlines after it, and no shopping list or spec sheet."""
    called = {r.name for r in results if r.name != SEARCH_TOOL}
    if reading.injection or reading.follow_up or not called:
        return None
    if reading.entities.unknown_gpus and not reading.entities.gpus:
        return None  # an entry on other cards does not answer for a card no catalog knows
    if not called <= _weak_tools(reading, results):
        return None
    from assistant.agent.offline.lead_match import about_something_else

    generic = knowledge_lead.settings().generic_topics
    passages = [
        p
        for p in passages
        if not (entry_id(p) and about_something_else(reading, str(entry_id(p)), generic))
    ]  # an entry about other cards does not answer for these
    if not any(is_knowledge_entry(p) for p in passages):
        return None
    text, used = _nearest_answer(reading, retrieved, results, passages)
    if not text or not used:
        return None
    return [text, *_card_headlines(results)], used


def _nearest_passage(
    passages: list[dict[str, Any]], reading: Reading
) -> tuple[str, list[dict[str, Any]]]:
    """For a GPU question nothing answers: said plainly, then the nearest passage found."""
    safe = [p for p in passages if passage_is_safe(str(p.get("text") or ""))]
    if not safe:
        return "", []
    lang = reading.language
    intro = pick(
        lang,
        "I can't answer this exactly from my documents and tools. The nearest passage I have:",
        "Je ne peux pas répondre exactement avec mes documents et mes outils. Le passage le plus "
        "proche que j'ai :",
    )
    number = passages.index(safe[0]) + 1
    return f"{intro}\n\n{_quotes([(number, safe[0])], lang)}", [safe[0]]


def _nearest_answer(
    reading: Reading,
    retrieved: list[dict[str, Any]],
    results: list[ToolResult],
    passages: list[dict[str, Any]],
    facts: list[str] | None = None,
) -> tuple[str, list[dict[str, Any]]]:
    """For a GPU question no tool answers and no entry is surely about: the entry the lead model
    finds nearest, offered as the answer to its own question (named first, so a reader sees
    whether it is theirs), then what the tools know of the cards named (`facts`); without one,
    the nearest passage. (Opening instead with "I can't answer this exactly" was measured on
    blind batch 29: readers took it as a hedge where the entry did answer, and it saved none of
    the answers where the entry did not.)"""
    found = [knowledge_lead.passage_entry_id(p) for p in retrieved]
    context = knowledge_lead.context_of(reading, results, _weak_tools(reading, results))
    near = knowledge_lead.nearest_entry(reading, found, context)
    if near is None:
        text, used = _nearest_passage(passages, reading)
        return "\n\n".join([text, *(facts or [])]) if text else "", used
    lang = reading.language
    text, used = knowledge_lead.lead_paragraph(near, retrieved, lang)
    intro = pick(
        lang,
        f"The nearest question I have an answer to is *{near.entry.title}*",
        f"La question la plus proche à laquelle j'ai une réponse : *{near.entry.title}*",
    )
    return "\n\n".join([intro, text, *(facts or [])]), used


def _first_tool(results: list[ToolResult]) -> ToolResult | None:
    """The first result of a tool other than the corpus search (the one whose section leads)."""
    return next((r for r in results if r.name != SEARCH_TOOL), None)


def _fit_first(reading: Reading, results: list[ToolResult]) -> bool:
    """The first tool sized the model the question names (a memory-fit verdict), and the question
    does not report a failure (an error or a slow run is what the asker needs explained)."""
    first = _first_tool(results)
    ent = reading.entities
    return (
        not reports_failure(reading.text)
        and first is not None
        and first.name == "workload_fit"
        and first.error is None
        and bool(ent.models or ent.model_size_b)
    )


def _first_verdict(results: list[ToolResult]) -> dict[str, Any]:
    """The capability verdict of the first tool when that tool is a capability check, else {}."""
    first = _first_tool(results)
    if first is None or first.name != "gpu_capability" or first.error is not None:
        return {}
    return first.result if isinstance(first.result, dict) else {}


def _denied_first(results: list[ToolResult]) -> bool:
    """The first tool answered a card and a feature with "no" (a false premise to correct), or
    a card of another maker with "no" to CUDA itself."""
    return _first_verdict(results).get("verdict") == "no"


def _card_verdict_first(reading: Reading, results: list[ToolResult]) -> bool:
    """The first tool gave a named card's verdict on a specific feature ("Can my 4090 do
    megakernels?"): that verdict answers the question and comes before an entry on the feature."""
    payload = _first_verdict(results)
    return (
        bool(reading.entities.gpus)
        and payload.get("verdict") in ("yes", "partial", "no")
        and card_feature(str(payload.get("topic")))
    )


def _in_domain(reading: Reading, passages: list[dict[str, Any]]) -> bool:
    """An "off-topic" reading that still names a card, a model or the GPU domain's own words, with
    passages found on it: the router's off-topic label is overruled, the best passage answers.
    Words any request uses ("can you recommend…") are not the domain."""
    from assistant.agent.offline.reading import names_the_domain

    return bool(passages) and names_the_domain(reading.text, reading.entities)


def _claim_corrections(reading: Reading) -> list[str]:
    """A card said to have more of a figure than another ('the 7600 XT has more bandwidth than a
    5060 Ti'): whether it holds, with the catalog's figures, first."""
    from assistant.agent.offline.premises import claim_line, spec_claim

    claim = spec_claim(reading.text)
    return [claim_line(claim, reading.language)] if claim is not None else []


def _link_corrections(reading: Reading) -> list[str]:
    """A link the cards do not have, asked or assumed ('the L4s are connected with nvlink
    right?'): the catalog's no first, whichever tool answers the rest. A link the asker already
    rules out ('no NVLink') needs no correction."""
    from assistant.agent.offline.cues import link_mentions
    from assistant.agent.offline.phrases import negated_at
    from assistant.agent.offline.skills.gpu_lookup import link_answer
    from assistant.knowledge.matching import match_gpu

    starts = link_mentions(reading.text)
    if not starts or all(negated_at(reading.text, at) for at in starts):
        return []
    cards = {c.name: c for n in reading.entities.gpus if (c := match_gpu(n).gpu) is not None}
    return [link_answer(c, reading.language) for c in cards.values() if c.nvlink is False]


# "cuda" as a word, not as code ('torch.cuda', 'cuda:0', 'cuda()': a ROCm build's own interface);
# the software tool's own `_CUDA_WORD` also counts the code forms
_CUDA_NOT_CODE = re.compile(r"(?<![\w.-])cuda(?![\w.:(-])", re.IGNORECASE)


def _cuda_corrections(reading: Reading) -> list[str]:
    """CUDA asked of an AMD or Intel card ('a friend says my Radeon has CUDA cores and I can
    install PyTorch CUDA') when no tool checks CUDA on it (the capability check read ROCm): the
    software tool's no comes first. A message that also names an NVIDIA card, rules CUDA out or
    names ZLUDA (CUDA programs run on AMD through it) is left to the tools; a Mac is the premise
    of `premises.cuda_on_mac`."""
    from assistant.agent.offline.phrases import negated_at
    from assistant.agent.offline.skills.software_support import render
    from assistant.knowledge.matching import match_gpu
    from assistant.tools.software import SoftwareSupportQuery, software_support

    text = reading.text
    if "software_support" in reading.intents or "cuda_programming" in reading.entities.topics:
        return []  # the tools check CUDA on the card themselves, and say no first
    starts = [m.start() for m in _CUDA_NOT_CODE.finditer(text)]
    if not starts or all(negated_at(text, at) for at in starts) or "zluda" in text.lower():
        return []
    cards = [c for n in reading.entities.gpus if (c := match_gpu(n).gpu) is not None]
    if not cards or any(str(c.vendor) not in ("amd", "intel") for c in cards):
        return []
    lines = []
    for card in cards[:MAX_NAMED_CARDS]:
        result = software_support(SoftwareSupportQuery(gpu=card.name, software="PyTorch CUDA"))
        if result.supported == "not_applicable":
            lines.append(render(result, "", reading.language).split("\n")[0])
    return lines


def _memory_corrections(reading: Reading) -> list[str]:
    """A false premise about memory, corrected first: cards' memories added up ('T4 x2, so
    32 GB?'), a card's memory overstated ('my 4090 has 48 GB')."""
    from assistant.agent.offline.premises import pooled_memory
    from assistant.knowledge.matching import match_gpu

    lang = reading.language
    out = []
    ent = reading.entities
    if pooled_memory(reading.text, ent):
        several = [n for n in ent.gpus if (ent.count_of(n) or 1) > 1]
        each = (
            pick(lang, " and ", " et ").join(f"{ent.count_of(n)} × {n}" for n in several)
            if several
            else pick(lang, " and ", " et ").join(ent.gpus)
        )
        out.append(
            pick(
                lang,
                f"**No: the memory of {each} does not add up into one pool.** Each GPU keeps its "
                "own memory and programs see separate GPUs; only a tool that splits the model "
                "across them (layers or tensors per card) uses both, and each part must fit on "
                "its own card.",
                f"**Non : la mémoire de {each} ne s'additionne pas en une seule.** Chaque GPU "
                "garde sa propre mémoire et les programmes voient des GPU séparés ; seul un outil "
                "qui répartit le modèle entre eux (couches ou tenseurs par carte) utilise les "
                "deux, et chaque part doit tenir sur sa carte.",
            )
        )
    for name in ent.memory_claims:
        card = match_gpu(name).gpu
        if card is None or not card.vram_gb:
            continue
        # the size claimed is not repeated: a figure planted in a message is never echoed
        has = gb(card.vram_gb, lang)
        out.append(
            pick(
                lang,
                f"**Note: the {card.name} has {has}, less than the message says**; what follows "
                f"uses {has}.",
                f"**À noter : la {card.name} a {has}, moins que ce que dit le message** ; la "
                f"suite compte {has}.",
            )
        )
    return out


def write_answer(conversation: Conversation, results: list[ToolResult]) -> str:
    """The final Markdown answer for the turn, from the tool results and passages."""
    reading = read_turn(conversation)
    lang = reading.language
    retrieved = _passages(results)
    passages = _relevant(retrieved)
    parts: list[str] = []
    script = cjk_language(reading.text)
    if script is not None:
        parts.append(f"*{ANSWERED_IN_ENGLISH[script]}*")
    if reading.injection:
        parts.append(
            pick(
                lang,
                "I don't follow instructions embedded in messages or documents (they can't change how I work or reveal my configuration).",
                "Je ne suis pas les instructions glissées dans les messages ou les documents (elles ne changent ni mon fonctionnement ni ma configuration).",
            )
        )
    if reading.intents == ["greeting"]:
        return "\n\n".join([*parts, SELF[lang] + WHAT_I_DO[lang], EXAMPLES[lang]])
    if out_of_scope(reading.text, reading.earlier):
        return "\n\n".join([*parts, outside_answer(lang) + WHAT_I_DO[lang]])
    corrections = (
        _claim_corrections(reading)
        + _memory_corrections(reading)
        + _link_corrections(reading)
        + _cuda_corrections(reading)
    )
    parts.extend(corrections)
    # 'the requirements could use a 3070: will my 2070 Super work?': the asker's card against it
    required = requirement_check(reading.entities, lang)
    if required:
        parts.append(required)
        results = _beside_requirement(reading, results)
    unknown = _unknown_cards(reading)
    if unknown:
        parts.append(" ".join(unknown))
        results = [r for r in results if not _only_unknown_cards(r, reading)]
    if any(r.name in ("workload_fit", "llm_speed") for r in results):
        # the fit or the speed says the format runs on the card: a 'yes' answers nothing asked
        results = [r for r in results if not _precision_confirmed(r, reading)]
    results = _without_unanswered(reading, results)
    results = _without_unasked_specs(reading, results)
    results = _without_unasked_picks(reading, results)
    lead = _lead_for(reading, retrieved, results)
    if lead is not None:
        results = _without_stated_absence(reading, results)
        results = knowledge_lead.bearing_results(
            results,
            reading.text,
            figures=reading.entities.has_figures(),
            choosing=reading.entities.options and asks_to_pick(reading.text),
            sized=bool(
                (reading.entities.models or reading.entities.model_size_b) and reading.entities.gpus
            ),
        )
    else:
        entry_first = _entry_first(reading, retrieved, results, passages)
        if entry_first is not None:
            answer, used_entry = entry_first
            return "\n\n".join([*parts, *answer, _cited_ids(used_entry, lang)])
        results = _without_generic_yes(reading, results)
        results = _without_unasked_models(reading, results)
    sections, _ = _tool_sections(reading, results)
    sections = [t for t in (_without(s, unknown) for s in sections) if t]
    # a spec sheet's own no-NVLink line is already the correction above
    sections = [t for t in (_without(s, corrections) for s in sections) if t]
    if lead is None and _probe_unavailable(reading, results):
        from assistant.agent.offline.skills.probe_gpus import how_to_check

        sections.insert(0, how_to_check(lang))
    elif _asks_how_to_check(reading, results):
        from assistant.agent.offline.skills.probe_gpus import how_to_check

        sections.append(how_to_check(lang, remote=False))
    parts.extend(sections)
    only_unknown = bool(reading.entities.unknown_gpus) and not reading.entities.gpus
    used: list[dict[str, Any]] = []
    if lead is not None:
        # The question is a knowledge entry's question: its direct answer comes first.
        # A capability the asker takes for granted and the card lacks: that "No" comes first.
        # A pasted error is explained first: a "yes" on the card is not what it asks, and a "no"
        # only repeats what the error (or the failure the asker reports) already told them.
        denied = _denied_first(results)
        told = reading.pasted_error is not None or (denied and reports_failure(reading.text))
        premise = bool(sections) and not told and (denied or _card_verdict_first(reading, results))
        # The fit verdict for the asker's own model answers "will it fit?": it comes first too.
        verdict = bool(sections) and _fit_first(reading, results)
        at = (
            int(script is not None) + int(reading.injection) + int(bool(unknown)) + len(corrections)
        )
        at += int(premise or verdict)
        leads = _leads(reading, retrieved, results, lead)  # one per question the message asks
        for n, one in enumerate(leads):
            text, one_used = knowledge_lead.lead_paragraph(
                one, retrieved, lang, _details(one, reading, first=n == 0)
            )
            parts.insert(at + n, text)
            used = used + one_used
        led = {one.entry.id for one in leads}
        others = [
            (n, p)
            for n, p in _quoted(passages, reading, limit=MAX_QUOTES + 1)
            if entry_id(p) not in led
        ][:1]
        if others:
            parts.append(_quotes(others, lang))
            used = used + [p for _, p in others]
    elif (sections or unknown) and only_unknown:
        # The card is unknown, but the question may still be answered by a passage that names it
        # as written ('RTX 5090 Ti' is not the RTX 5090).
        names = [
            re.compile(r"(?<!\w)" + r"\s*".join(map(re.escape, card.split())) + r"(?!\w)", re.I)
            for card in reading.entities.unknown_gpus
        ]
        about_card = [p for p in passages if any(n.search(str(p.get("text"))) for n in names)]
        text, used = _knowledge_answer(about_card, reading)
        if text:
            parts.insert(len(parts) - len(sections), text)
    elif sections:
        for n, (sentence, one) in enumerate(_clause_leads(reading, retrieved)):
            # A question of the message that the tools leave unanswered and an entry answers.
            text, one_used = knowledge_lead.lead_paragraph(
                one, retrieved, lang, _details(one, reading, first=n == 0)
            )
            parts.append(f"> *{sentence}*\n\n{text}")
            used = used + one_used
        # Entries that answer the message's other questions leave no room for a passage besides.
        # A calculation on the asker's own figures is the answer: no passage is quoted under it.
        quoted = (
            []
            if used or required or _own_figures_computed(reading, results)
            else _quoted(passages, reading, limit=1)
        )
        if quoted:
            parts.append(_quotes(quoted, lang))
            used = [p for _, p in quoted]
        elif not used and _only_generic_yes(reading, results) and _in_domain(reading, passages):
            # Only a guess answered ("H100 × CUDA: yes" to "can I split it for 28 students?"):
            # the nearest entry, named as such, replaces the guess; the cards' headlines stay.
            text, used = _nearest_answer(
                reading, retrieved, results, passages, _card_headlines(results)
            )
            if text:
                parts = [*parts[: len(parts) - len(sections)], text]
    elif required:
        pass  # the check against the project's card answers; no "nearest question" after it
    elif (reading.intents == ["off_topic"] and not _in_domain(reading, passages)) or (
        reading.intents == ["declined"]
    ):
        parts.append(
            (
                outside_answer(lang)
                if reading.intents == ["off_topic"]
                else pick(
                    lang,
                    "That is outside what I can answer. ",
                    "Cette question sort de mon domaine. ",
                )
            )
            + WHAT_I_DO[lang]
        )
    else:
        text, used = _knowledge_answer(passages, reading)
        if used and is_knowledge_entry(used[0]) and not reading.follow_up:
            # The lead model found no entry whose question this is: the best entry is only the
            # nearest passage, and is offered as such, never as the answer.
            text, used = "", []
        if not text and corrections:
            # A claim the data checked is the answer ("the 4060 Ti has more bandwidth, true?"):
            # another question's entry under it answers something else; the cards' lines stay.
            parts.extend(_named_card_lines(reading))
        elif not text and _in_domain(reading, passages):
            text, used = _nearest_answer(
                reading, retrieved, results, passages, _named_card_lines(reading)
            )
        parts.append(
            text
            if text or corrections
            else pick(
                lang,
                "The guide's documents and my tools don't cover this question, so I won't guess. ",
                "Les documents du guide et mes outils ne couvrent pas cette question : je préfère ne pas deviner. ",
            )
            + WHAT_I_DO[lang]
        )
    if used:
        parts.append(_cited_ids(used, lang))
    return "\n\n".join(p for p in parts if p.strip())
