"""Answers that weigh options: spot vs dedicated, and a learning budget spread over the guide."""

from __future__ import annotations

import re
from typing import Any

from assistant.agent.offline.builders import spot_rates
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.language import Lang
from assistant.agent.offline.numbers import parse_durations
from assistant.agent.offline.render_cost import assumptions_line
from assistant.agent.offline.texts import bullet_list, hours, in_language, money, num, pick

# Beyond this many times the job's length, an expected figure means "it won't finish".
ABSURD_FACTOR = 100
_NO_CHECKPOINTS = re.compile(
    r"\b(?:no|without|sans|pas de|aucune?|zero)\s+(?:\w+\s+)?(?:checkpoint\w*|sauvegardes?|saves?|saving)\b"
    r"|\b(?:can't|cannot|can not|won't|impossible de|ne peux pas|ne peut pas)\s+(?:\w+\s+){0,2}(?:checkpoint\w*|sauvegarder|save)\b",
    re.IGNORECASE,
)


def _spot_line(
    option: dict[str, Any] | None, cur: str | None, lang: Lang, job_hours: Any = None
) -> str | None:
    if not option:
        return None
    names = {
        "spot": pick(lang, "Spot, no checkpoints", "Spot, sans sauvegarde"),
        "spot_with_checkpoints": pick(lang, "Spot + checkpoints", "Spot + sauvegardes"),
        "dedicated": pick(lang, "Dedicated", "Dédiée"),
    }
    key = str(option.get("name"))
    if key == "spot" and option.get("checkpoint_interval_h"):
        key = "spot_with_checkpoints"  # the question's own checkpoints
    name = names.get(key, key)
    if option.get("checkpoint_interval_h") and option.get("name") != "dedicated":
        name += pick(lang, " every ", " toutes les ") + hours(option["checkpoint_interval_h"], lang)
    if not option.get("finishes"):
        return (
            name
            + pick(lang, ": ", " : ")
            + pick(
                lang,
                "never finishes (interruptions too frequent)",
                "ne finit jamais (interruptions trop fréquentes)",
            )
        )
    expected = option.get("expected_hours")
    if (
        isinstance(expected, int | float)
        and isinstance(job_hours, int | float)
        and job_hours > 0
        and expected > ABSURD_FACTOR * job_hours
    ):
        return (
            f"{name} ({money(option.get('rate'), cur, lang)}/h)"
            + pick(lang, ": ", " : ")
            + pick(
                lang,
                f"practically never finishes without checkpoints (expected > {ABSURD_FACTOR}× the job length)",
                f"ne finit pratiquement jamais sans sauvegarde (durée attendue > {ABSURD_FACTOR}× celle du travail)",
            )
        )
    lost = option.get("expected_lost_work_h")
    return (
        f"{name} ({money(option.get('rate'), cur, lang)}/h)"
        + pick(lang, ": ", " : ")
        + pick(lang, "expected ", "en moyenne ")
        + f"{money(option.get('expected_cost'), cur, lang)}, {hours(option.get('expected_hours'), lang)}"
        + (
            pick(
                lang,
                f", {hours(lost, lang)} of work lost",
                f", {hours(lost, lang)} de travail perdu",
            )
            if lost
            else ""
        )
        + pick(
            lang,
            f", {num(100 * float(option.get('p_interrupted') or 0), lang, 0)} % chance of interruption",
            f", {num(100 * float(option.get('p_interrupted') or 0), lang, 0)} % de risque d'interruption",
        )
    )


def render_spot(result: dict[str, Any], question: str, lang: Lang) -> str:
    cur = result.get("currency")
    verdict = result.get("verdict")
    verdicts = {
        "spot": pick(lang, "Spot", "Spot"),
        "spot_with_checkpoints": pick(
            lang,
            "Spot, with frequent checkpoints and automatic restart",
            "Spot, avec sauvegardes fréquentes et reprise automatique",
        ),
        "dedicated": pick(lang, "Dedicated", "Dédiée"),
    }
    job = hours(result.get("job_hours"), lang)
    advised = verdict
    if _NO_CHECKPOINTS.search(question) and result.get("verdict_as_given"):
        verdict = result["verdict_as_given"]  # the job as it is: no checkpoints
    head = pick(
        lang,
        f"**For a job of {job}: {verdicts.get(str(verdict), verdict)}.**",
        f"**Pour un travail de {job} : {verdicts.get(str(verdict), verdict)}.**",
    )
    if not parse_durations(question):
        head += pick(
            lang,
            f" (The job length was not given: {job} assumed.)",
            f" (Durée non précisée : {job} supposées.)",
        )
    rule = pick(
        lang,
        "Rule of thumb: spot for learning and interactive work (an interruption costs a few minutes), "
        "dedicated for a long run without checkpoints (an interruption destroys the work); spot + "
        "checkpoints + automatic restart divides the bill.",
        "En pratique : spot pour apprendre et expérimenter (une interruption coûte quelques minutes), "
        "dédiée pour un long entraînement sans sauvegarde (une interruption détruit tout le travail) ; "
        "spot + sauvegarde fréquente + reprise automatique divise la facture.",
    )
    if advised != verdict and advised == "spot_with_checkpoints":
        rule += pick(
            lang,
            " If you can add checkpoints (every 30 min) with automatic restart, spot becomes the cheaper option.",
            " Si vous pouvez ajouter des sauvegardes (toutes les 30 min) avec reprise automatique, le spot devient"
            " l'option la moins chère.",
        )
    elif result.get("savings_factor"):
        rule += pick(
            lang,
            f" Here: ÷{num(result['savings_factor'], lang)}.",
            f" Ici : ÷{num(result['savings_factor'], lang)}.",
        )
    if spot_rates(extract_entities(question), question) is None:
        head += pick(
            lang,
            " (Rates not given: the guide's example, spot $0.80/h against dedicated $2.50/h.)",
            " (Tarifs non précisés : l'exemple du guide, spot à 0,80 $/h contre dédiée à 2,50 $/h.)",
        )
    lines = [
        _spot_line(result.get("spot"), cur, lang, result.get("job_hours")),
        _spot_line(result.get("spot_with_checkpoints"), cur, lang, result.get("job_hours")),
        _spot_line(result.get("dedicated"), cur, lang, result.get("job_hours")),
    ]
    return "\n\n".join(
        p
        for p in (head, bullet_list([x for x in lines if x]), rule, assumptions_line(result, lang))
        if p
    )


def render_budget(result: dict[str, Any], question: str, lang: Lang) -> str:
    cur = result.get("currency")
    head = pick(
        lang,
        f"**A plan for {money(result.get('budget'), cur, lang)}** — free tiers first, rent the hardware you can't get for free, keep a reserve:",
        f"**Un plan pour {money(result.get('budget'), cur, lang)}** — le gratuit d'abord, la location pour le matériel récent, une réserve :",
    )
    rows = []
    for line in result.get("lines") or []:
        amount = money(line.get("amount"), cur, lang)
        parts = ", ".join(str(p) for p in line.get("parts") or [])
        item = str(line.get("item") or "")
        if item.lower().startswith("free"):
            rows.append(
                pick(
                    lang,
                    f"{amount}: Colab (free T4) and Kaggle (30 GPU-hours a week) — parts {parts}",
                    f"{amount} : Colab gratuit (T4) et Kaggle (30 h de GPU par semaine) — parties {parts}",
                )
            )
        elif item.lower().startswith("reserve"):
            rows.append(
                pick(
                    lang,
                    f"{amount}: reserve (overruns, storage)",
                    f"{amount} : réserve (dépassements, stockage)",
                )
            )
        else:
            span = f"{num(line.get('hours_low'), lang, 0)}–{num(line.get('hours_high'), lang, 0)} h"
            alt = str(line.get("note") or "")
            alt_fr = alt.replace("or ", "ou ").replace(" h of ", " h de ")
            rows.append(
                pick(
                    lang,
                    f"{amount}: {span} of {line.get('gpu')} ({alt}) — parts {parts}",
                    f"{amount} : {span} de {line.get('gpu')} ({alt_fr}) — parties {parts}",
                )
            )
    notes = []
    for note in result.get("notes") or []:
        if "old card" in note or "GTX 1660" in note:
            notes.append(
                pick(
                    lang,
                    note,
                    "N'achetez pas de matériel avec ça : ~200 € donnent une carte ancienne (GTX 1660, sans tensor cores) qui ne couvre pas le contenu moderne ; la location donne accès au matériel de pointe.",
                )
            )
        else:
            text = in_language(note, lang)
            if text:
                notes.append(text)
    return "\n\n".join(
        p
        for p in (head, bullet_list(rows), bullet_list(notes), assumptions_line(result, lang))
        if p
    )
