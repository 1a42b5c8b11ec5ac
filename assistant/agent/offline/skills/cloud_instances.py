"""Cloud instances: "how many GPUs in a p4d.24xlarge?", "instance la moins chère pour un 70B ?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.texts import money, num, pick
from assistant.knowledge.cloud import instances_in
from assistant.language import Lang
from assistant.tools.cloud import CloudInstancesResult, InstanceMatch

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

# Provider names as people write them → the catalog's provider name.
_PROVIDERS = (
    (re.compile(r"\b(?:aws|amazon|ec2)\b", re.I), "AWS"),
    (re.compile(r"\b(?:gcp|google cloud|compute engine)\b", re.I), "GCP"),
    (re.compile(r"\bazure\b", re.I), "Azure"),
    (re.compile(r"\blambda(?: labs| cloud)?\b", re.I), "Lambda"),
    (re.compile(r"\brun ?pod\b", re.I), "RunPod"),
    (re.compile(r"\bvast(?:\.ai)?\b", re.I), "Vast.ai"),
    (re.compile(r"\bscaleway\b", re.I), "Scaleway"),
)
_MAX_LISTED = 5


MAX_INSTANCES = 4  # instances weighed side by side ('g4dn.xlarge vs g5.xlarge vs g6.xlarge')


def instances_named(text: str) -> list[str]:
    """The catalog instances a question names ('p4d.24xlarge', 'a3-highgpu-8g'), in the order
    named, each once."""
    return list(dict.fromkeys(row.instance for _, _, row in instances_in(text)))


def instance_named(text: str) -> str | None:
    """The first catalog instance a question names, or None."""
    return next(iter(instances_named(text)), None)


def _provider_named(text: str) -> str | None:
    return next((name for pattern, name in _PROVIDERS if pattern.search(text)), None)


def _price(m: InstanceMatch, lang: Lang) -> str:
    if m.price_usd_per_hour is None:
        return pick(lang, "no dated price in the data", "pas de prix daté dans les données")
    where = f", {m.region}" if m.region else ""
    return pick(
        lang,
        f"{money(m.price_usd_per_hour, 'USD', lang)}/h on demand ({m.price_as_of}{where})",
        f"{money(m.price_usd_per_hour, 'USD', lang)}/h à la demande ({m.price_as_of}{where})",
    )


def _gpus(m: InstanceMatch, lang: Lang) -> str:
    each = pick(
        lang,
        f"{num(m.vram_gb, lang, 0)} GB each",
        f"{num(m.vram_gb, lang, 0)} Go chacun",
    )
    return f"{m.gpu_count} × {m.gpu} ({each})"


def _line(m: InstanceMatch, lang: Lang) -> str:
    sep = pick(lang, ": ", " : ")
    return f"- {m.instance} ({m.provider}){sep}{_gpus(m, lang)}, {_price(m, lang)}"


def render(result: CloudInstancesResult, question: str, lang: Lang) -> str:
    """The instance asked about, or the cheapest one that fits, then the other matches."""
    if not result.matches:
        near = ", ".join(result.suggestions[:5])
        text = pick(
            lang,
            "No instance in the data matches that request.",
            "Aucune instance des données ne correspond à cette demande.",
        )
        if result.query.model and result.model:
            text = pick(
                lang,
                f"No instance in the data has enough GPU memory for {result.model}.",
                f"Aucune instance des données n'a assez de mémoire GPU pour {result.model}.",
            )
        if near:
            text += pick(lang, f" Near names: {near}.", f" Noms proches : {near}.")
        return text
    q = result.query
    if q.instance and len(result.matches) == 1:
        m = result.matches[0]
        total = num(m.total_vram_gb, lang, 0)
        text = pick(
            lang,
            f"**{m.instance} ({m.provider}) has {_gpus(m, lang)}**, {total} GB of GPU memory in all",
            f"**{m.instance} ({m.provider}) contient {_gpus(m, lang)}**, soit {total} Go de mémoire GPU",
        )
        if m.vcpu and m.ram_gb:
            text += pick(
                lang,
                f", with {m.vcpu} vCPU and {num(m.ram_gb, lang, 0)} GB of RAM",
                f", avec {m.vcpu} vCPU et {num(m.ram_gb, lang, 0)} Go de RAM",
            )
        text += pick(lang, "; ", " ; ") + f"{_price(m, lang)}."
        note = m.note_fr if lang == "fr" else m.note
        return text + (f" {note[0].upper()}{note[1:]}." if note else "")
    best = result.cheapest
    if q.model and best is not None:
        model = result.model or q.model
        if q.concurrent_requests > 1:
            model += pick(
                lang,
                f" with {q.concurrent_requests} requests at once",
                f" avec {q.concurrent_requests} requêtes à la fois",
            )
        text = pick(
            lang,
            f"**Cheapest instance in the data on which {model} fits: {best.instance} ({best.provider}), "
            f"{_gpus(best, lang)}, {_price(best, lang)}.**",
            f"**Instance la moins chère des données sur laquelle {model} tient : {best.instance} "
            f"({best.provider}), {_gpus(best, lang)}, {_price(best, lang)}.**",
        )
        if best.fit_gb_per_gpu:
            text += pick(
                lang,
                f" The fit tool estimates {num(best.fit_gb_per_gpu, lang)} GB per GPU.",
                f" L'outil d'ajustement estime {num(best.fit_gb_per_gpu, lang)} Go par GPU.",
            )
        others = [m for m in result.cheapest_by_provider if m.instance != best.instance]
        if others:
            text += "\n\n" + pick(
                lang, "Cheapest per provider:", "La moins chère par fournisseur :"
            )
            text += "\n" + "\n".join(_line(m, lang) for m in others[:_MAX_LISTED])
        return text
    head = pick(
        lang,
        f"**{result.total_matches} instance(s) in the data match**",
        f"**{result.total_matches} instance(s) des données correspondent**",
    )
    if best is not None:
        head += pick(
            lang,
            f"; the cheapest on demand is {best.instance} ({best.provider}), {_price(best, lang)}.",
            f" ; la moins chère à la demande est {best.instance} ({best.provider}), {_price(best, lang)}.",
        )
    else:
        head += "."
    return head + "\n\n" + "\n".join(_line(m, lang) for m in result.matches[:_MAX_LISTED])


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """One call per instance named (those weighed side by side), else one for the model, card
    (not the asker's own), memory or provider named, or none without any."""
    text = reading.text
    args: dict[str, Any] = {"provider": _provider_named(text)}
    instances = instances_named(text)
    if instances:
        return [{"instance": name} for name in instances[:MAX_INSTANCES]]
    model = (
        ent.models[0] if ent.models else (f"{ent.model_size_b:g}B" if ent.model_size_b else None)
    )
    if model:
        args.update(model=model, precision=ent.precision, context_tokens=ent.context_tokens)
        if ent.method in ("lora", "qlora"):
            args["task"] = ent.method
        elif ent.method == "full":
            args["task"] = "full_finetune"
        elif (ent.batch_size or 1) > 1:
            # '~30 concurrent chats': each keeps its own KV cache on the instance
            args["concurrent_requests"] = ent.batch_size
        if rented := [g for g in ent.gpus if g not in ent.owned_gpus]:
            # 'Llama 3.3 70B in FP8 … looking at g6e (L40S): which is the smallest size?'
            args["gpu"] = rented[0]
    elif rented := [g for g in ent.gpus if g not in ent.owned_gpus]:
        # 'I only have a GTX 1660 Ti … which server do you recommend?': not the card to rent
        args["gpu"] = rented[0]
    elif ent.vram_gb:
        args["min_vram_gb"] = ent.vram_gb
    elif not args["provider"]:
        return []
    return [args]


SKILL = Skill(
    tool="cloud_instances",
    result=CloudInstancesResult,
    build=build,
    render=render,
    search_hint="instance cloud GPU prix à la demande",
    slots=(
        "gpus",
        "models",
        "model_size_b",
        "vram_gb",
        "precision",
        "method",
        "context_tokens",
    ),
    concepts=("rent", "cloud_instance"),
    fallback="rent_cost",
)
