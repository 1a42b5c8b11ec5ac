"""Answers from the catalog tools: a card's figures, a comparison, a capability verdict, the probe."""

from __future__ import annotations

import re
from typing import Any

from assistant.agent.offline.language import Lang
from assistant.agent.offline.texts import (
    bullet_list,
    in_language,
    label,
    localized_name,
    num,
    pick,
    to_french,
    value_word,
    verdict_word,
)

# Which card figure a question asks about, by the words it uses.
ASKED_FIELDS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"\bvram\b|\bmemory\b(?! bandwidth| type)|\bmémoire\b(?! partagée)|\bgo\b|\bgb\b", re.I
        ),
        "vram_gb",
    ),
    (re.compile(r"bandwidth|bande passante", re.I), "bandwidth_gbs"),
    (re.compile(r"shared memory|mémoire partagée|smem", re.I), "shared_memory_per_sm_kb"),
    (re.compile(r"compute capability|\bcc\b|sm_\d+|target|cible", re.I), "compute_capability"),
    (re.compile(r"\bsms?\b|multiprocessors?|compute units?", re.I), "sm_count"),
    (re.compile(r"tdp|power|watts?|consomm\w*|puissance", re.I), "tdp_w"),
    (re.compile(r"architecture|génération|generation|\barch\b", re.I), "architecture"),
    (re.compile(r"tflops|flops|fp16", re.I), "fp16_tensor_tflops"),
    (re.compile(r"fp64|double precision|double précision", re.I), "fp64_ratio"),
    (re.compile(r"nvlink", re.I), "nvlink"),
]
SPEC_ORDER = (
    "vram_gb", "bandwidth_gbs", "sm_count", "shared_memory_per_sm_kb", "shared_memory_per_block_kb",
    "fp16_tensor_tflops", "fp64_ratio", "tdp_w", "nvlink", "year",
)  # fmt: skip


def asked_fields(question: str) -> list[str]:
    return [f for pattern, f in ASKED_FIELDS if pattern.search(question)]


def _card_name(card: dict[str, Any]) -> str:
    return str(card.get("name") or "?")


def _value(card: dict[str, Any], field: str, lang: Lang) -> str:
    value = card.get(field)
    if value is None:
        return pick(lang, "not known", "inconnu")
    if field == "vram_gb":
        return f"{num(value, lang)} {pick(lang, 'GB', 'Go')}" + (
            f" {card['memory_type']}" if card.get("memory_type") else ""
        )
    if field == "bandwidth_gbs":
        return f"{num(value, lang)} {pick(lang, 'GB/s', 'Go/s')}"
    if field in ("shared_memory_per_sm_kb", "shared_memory_per_block_kb"):
        return f"{num(value, lang)} {pick(lang, 'KB', 'Ko')}"
    if field == "tdp_w":
        return f"{num(value, lang, 0)} W"
    if field == "fp16_tensor_tflops":
        return f"{num(value, lang)} TFLOPS"
    if field == "compute_capability":
        target = f" (`{card['arch_target']}`)" if card.get("arch_target") else ""
        return f"{value}{target}"
    if field == "sm_count":
        kind = card.get("compute_units_kind") or "SM"
        return f"{num(value, lang, 0)} {kind}"
    if field == "year":
        return str(value)
    if field in ("segment", "vendor") and isinstance(value, str):
        return value_word(value, lang)
    return num(value, lang) if not isinstance(value, str) else value


def _headline(card: dict[str, Any], lang: Lang) -> str:
    bits = [str(card.get("architecture") or "")]
    if card.get("compute_capability"):
        bits.append(f"compute capability {card['compute_capability']}")
    if card.get("arch_target"):
        bits.append(f"`{card['arch_target']}`")
    return f"**{_card_name(card)}** — " + ", ".join(b for b in bits if b)


def render_unknown(name: str, suggestions: list[str], lang: Lang) -> str:
    near = ", ".join(suggestions[:5])
    text = pick(
        lang,
        f"**{name}** is not in the GPU catalog, so I give no specifications or verdict for it "
        "(I never invent a card).",
        f"**{name}** n'est pas dans le catalogue de GPU : je ne donne donc ni caractéristiques ni "
        "verdict pour cette carte (je n'invente jamais de carte).",
    )
    if near:
        text += pick(lang, f" Did you mean: {near}?", f" Vouliez-vous dire : {near} ?")
    return text


def render_lookup(result: dict[str, Any], question: str, lang: Lang) -> str:
    if not result.get("found") or not result.get("gpu"):
        return render_unknown(
            str(result.get("query") or "?"), list(result.get("suggestions") or []), lang
        )
    card = result["gpu"]
    lines = [_headline(card, lang)]
    asked = [f for f in asked_fields(question) if f != "architecture"]
    if asked:
        lines.append(
            " · ".join(
                f"{label(f, lang)} : {_value(card, f, lang)}"
                if lang == "fr"
                else f"{label(f, lang)}: {_value(card, f, lang)}"
                for f in asked
            )
        )
    specs = [f for f in SPEC_ORDER if f not in asked and card.get(f) is not None]
    if specs:
        sep = " : " if lang == "fr" else ": "
        lines.append(bullet_list([f"{label(f, lang)}{sep}{_value(card, f, lang)}" for f in specs]))
    feats = result.get("features") or []
    yes = [f["key"] for f in feats if f.get("supported")]
    no = [f["key"] for f in feats if not f.get("supported")]
    if yes or no:
        lines.append(
            pick(lang, "CUDA features — yes: ", "Fonctionnalités CUDA — oui : ")
            + (", ".join(yes) or "—")
            + pick(lang, "; no: ", " ; non : ")
            + (", ".join(no) or "—")
        )
    note = card.get("corpus_note")
    if note:
        lines.append(
            pick(
                lang,
                f"Note: {note}",
                "Note : le guide diffère ici des documents de NVIDIA (voir les sources).",
            )
        )
    if result.get("alternatives"):
        lines.append(
            pick(lang, "Other variants: ", "Autres variantes : ")
            + ", ".join(result["alternatives"])
        )
    return "\n\n".join(lines)


def render_compare(result: dict[str, Any], question: str, lang: Lang) -> str:
    cards = result.get("cards") or []
    parts = []
    for unknown in result.get("unknown") or []:
        parts.append(
            render_unknown(str(unknown.get("name")), list(unknown.get("suggestions") or []), lang)
        )
    if len(cards) >= 1 and result.get("rows"):
        names = [_card_name(c) for c in cards]
        header = "| | " + " | ".join(names) + " |\n|---|" + "---|" * len(names)
        body = []
        for row in result["rows"]:
            values = [_cell(row.get("field", ""), v, lang) for v in row.get("values", [])]
            body.append(
                f"| {label(row.get('field', ''), lang, row.get('label'))} | "
                + " | ".join(values)
                + " |"
            )
        parts.append(_asked_leaders(result["rows"], names, question, lang))
        parts.append(header + "\n" + "\n".join(body))
        notes = [n for n in (in_language(n, lang) for n in result.get("notes") or []) if n]
        if notes:
            parts.append(bullet_list(notes))
    return "\n\n".join(parts)


def _asked_leaders(rows: list[dict[str, Any]], names: list[str], question: str, lang: Lang) -> str:
    """A sentence naming the leading card on each figure the question asks about."""
    wanted = asked_fields(question)
    lines = []
    for row in rows:
        field = str(row.get("field", ""))
        if field not in wanted or not row.get("best") or field == "tdp_w":
            continue
        values = row.get("values") or []
        figures = " vs ".join(
            f"{_cell(field, v, lang)}" + (f" {row['unit']}" if row.get("unit") else "")
            for v in values
        )
        unit_fr = {"GB": "Go", "GB/s": "Go/s", "KB": "Ko"}
        if lang == "fr":
            for en, fr in unit_fr.items():
                figures = figures.replace(f" {en}", f" {fr}")
        lines.append(
            f"**{label(field, lang, row.get('label'))} : {row['best']}**"
            if lang == "fr"
            else f"**{label(field, lang, row.get('label'))}: {row['best']}**"
        )
        lines[-1] += f" ({figures})."
    return "\n\n".join(lines)


def _cell(field: str, value: Any, lang: Lang) -> str:
    if value is None:
        return "—"
    if field == "arch_target":
        return f"`{value}`"
    if field == "year":
        return str(value)
    if field in ("segment", "vendor") and isinstance(value, str):
        return value_word(value, lang)
    return num(value, lang) if not isinstance(value, str) else value


def render_capability(result: dict[str, Any], question: str, lang: Lang) -> str:
    verdict = str(result.get("verdict") or "unknown")
    if (
        verdict == "unknown"
        and result.get("suggestions") is not None
        and not result.get("arch_target")
    ) and not result.get("compute_capability"):
        return render_unknown(str(result.get("gpu")), list(result.get("suggestions") or []), lang)
    gpu = result.get("gpu")
    topic = localized_name(str(result.get("topic_name") or result.get("topic")), lang)
    target = result.get("arch_target")
    where = f" (`{target}`, CC {result.get('compute_capability')})" if target else ""
    head = f"**{verdict_word(verdict, lang)}** — {gpu}{where} × {topic}"
    lines = [head]
    if lang == "en":
        lines.append(bullet_list(list(result.get("reasons") or [])))
    else:
        reasons = [r for r in (in_language(r, lang) for r in result.get("reasons") or []) if r]
        if result.get("missing"):
            missing = [to_french(str(m)) or str(m) for m in result["missing"]]
            reasons.insert(0, "Ce qui manque : " + ", ".join(missing))
        lines.append(bullet_list(reasons))
    if result.get("corpus_note"):
        lines.append(
            pick(
                lang,
                f"⚠️ {result['corpus_note']}",
                "⚠️ Le guide affirme ici autre chose que les documents de NVIDIA ; ce verdict suit NVIDIA "
                f"(cible `{target}`).",
            )
        )
    alt = result.get("cheapest_alternative")
    if alt and verdict != "yes":
        text = in_language(alt, lang)
        if text:
            lines.append(
                pick(
                    lang,
                    f"Cheapest way to get it: {text}",
                    f"Le moins cher pour y accéder : {text}",
                )
            )
    return "\n\n".join(line for line in lines if line)


def render_probe(result: dict[str, Any], question: str, lang: Lang) -> str:
    gpus = result.get("gpus") or []
    if not result.get("available") or not gpus:
        text = pick(
            lang, "**No GPU found** on this machine", "**Aucun GPU détecté** sur cette machine"
        )
        text += f" ({result.get('platform', '')})."
        hint = result.get("hint")
        if hint:
            text += "\n\n" + (
                in_language(hint, lang)
                or pick(lang, hint, "Sur Colab : Exécution → Modifier le type d'exécution → GPU.")
            )
        return text
    lines = [
        pick(
            lang,
            f"**{len(gpus)} GPU(s) found** (via {result.get('method')}):",
            f"**{len(gpus)} GPU détecté(s)** (via {result.get('method')}) :",
        )
    ]
    for gpu in gpus:
        bits = [str(gpu.get("name") or "?")]
        if gpu.get("memory_total_gb"):
            bits.append(f"{num(gpu['memory_total_gb'], lang)} {pick(lang, 'GB', 'Go')}")
        if gpu.get("compute_capability"):
            bits.append(f"CC {gpu['compute_capability']}")
        if gpu.get("driver_version"):
            bits.append(pick(lang, "driver ", "pilote ") + str(gpu["driver_version"]))
        if gpu.get("cuda_version"):
            bits.append(f"CUDA {gpu['cuda_version']}")
        if gpu.get("mig_mode"):
            bits.append(f"MIG {gpu['mig_mode']}")
        match = gpu.get("catalog_match") or {}
        if match.get("name"):
            bits.append(
                pick(lang, "catalog: ", "catalogue : ")
                + str(match["name"])
                + (f" (`{match['arch_target']}`)" if match.get("arch_target") else "")
            )
        lines.append(f"- {' · '.join(bits)}")
    return "\n".join(lines)
