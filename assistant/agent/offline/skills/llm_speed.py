"""How fast will it generate: "how many tokens/s for Llama 3 8B on a 4090?", "vitesse sur un M2 Ultra"."""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import named_cards, render_unknown
from assistant.agent.offline.texts import bullet_list, num, pick
from assistant.language import SENTENCE_END, Lang
from assistant.tools.speed import SpeedEstimate

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading


KINDS = {
    "diffusion-image": ("an image model", "un modèle d'images"),
    "diffusion-video": ("a video model", "un modèle vidéo"),
}


def _not_a_language_model(result: SpeedEstimate, lang: Lang) -> str:
    """Said plainly: the estimate is a language model's tokens/s, so none for an image model."""
    kind = pick(lang, *KINDS.get(result.model_kind or "", ("not a language model",) * 2))
    return pick(
        lang,
        f"**No speed estimate for {result.model}**: it is {kind}, and my speed estimate covers "
        "the decode speed of language models (tokens/s) only, not the time per image or video "
        "(that depends on the steps, the resolution and the software). What I can check is the "
        "memory it needs.",
        f"**Pas d'estimation de vitesse pour {result.model}** : c'est {kind}, et mon estimation "
        "de vitesse ne couvre que la génération des modèles de langage (tokens/s), pas le temps "
        "par image ou par vidéo (il dépend du nombre d'étapes, de la résolution et du logiciel). "
        "Ce que je peux vérifier, c'est la mémoire nécessaire.",
    )


def not_a_language_model(ent: Entities) -> bool:
    """Whether the model the question names is an image or video model (no tokens/s for it)."""
    from assistant.knowledge.model_matching import match_model

    if not ent.models:
        return False
    found = match_model(ent.models[0]).model
    return found is not None and not found.is_llm


def _against_observed(result: SpeedEstimate, question: str, lang: Lang) -> str:
    """The asker's own speed set against the estimate: far below it (what to look for), within
    its range, or above it."""
    from assistant.agent.offline.quantities import observed_speed

    seen = observed_speed(question)
    tps, low, high = result.decode_tokens_per_s, result.decode_low, result.decode_high
    if seen is None or not tps or not low or not high:
        return ""
    what = pick(
        lang,
        f"{result.model} in {result.precision} on {_cards(result)}",
        f"{result.model} en {result.precision} sur {_cards(result)}",
    )
    expected = pick(
        lang,
        f"about {num(tps, lang, 0)} tokens/s ({num(low, lang, 0)}–{num(high, lang, 0)})",
        f"environ {num(tps, lang, 0)} tokens/s ({num(low, lang, 0)} à {num(high, lang, 0)})",
    )
    from assistant.knowledge.speed import load_speed_rules

    far = low * (1 - load_speed_rules().typical_error_fraction)  # beyond the estimate's error
    if far <= seen < low:
        return pick(
            lang,
            f"**{num(seen, lang, 1)} tokens/s is a little below what to expect for {what}: "
            f"{expected}**, one request at a time; the backend, a long context, a power limit or a "
            "laptop card's lower clocks explain a gap of that size.",
            f"**{num(seen, lang, 1)} tokens/s, c'est un peu moins que ce qu'on attend de {what} : "
            f"{expected}**, une requête à la fois ; le moteur, un long contexte, une limite de "
            "puissance ou les fréquences plus basses d'une carte de portable expliquent un tel écart.",
        )
    if seen < far:
        return pick(
            lang,
            f"**{num(seen, lang, 1)} tokens/s is {num(tps / seen, lang, 0)}× below what to expect "
            f"for {what}: {expected}**, one request at a time. A gap that large usually means part "
            "of the model runs on the CPU or spills into system RAM: check that every layer is on "
            "the GPU (llama.cpp `-ngl`, `ollama ps`), that the build or wheel has GPU support, and "
            "that the model and its context fit in the card's memory.",
            f"**{num(seen, lang, 1)} tokens/s, c'est {num(tps / seen, lang, 0)} fois moins que ce "
            f"qu'on attend de {what} : {expected}**, une requête à la fois. Un tel écart veut "
            "souvent dire qu'une partie du modèle tourne sur le CPU ou déborde en mémoire système : "
            "vérifiez que toutes les couches sont sur le GPU (`-ngl` de llama.cpp, `ollama ps`), "
            "que la version installée gère le GPU, et que le modèle et son contexte tiennent dans "
            "la mémoire de la carte.",
        )
    if seen <= high:
        return pick(
            lang,
            f"**{num(seen, lang, 1)} tokens/s is about what to expect for {what}: {expected}**, "
            "one request at a time.",
            f"**{num(seen, lang, 1)} tokens/s, c'est à peu près ce qu'on attend de {what} : "
            f"{expected}**, une requête à la fois.",
        )
    return pick(
        lang,
        f"**{num(seen, lang, 1)} tokens/s is above this estimate for {what}: {expected}**; a "
        "smaller quantisation, a shorter context or batched requests would explain it.",
        f"**{num(seen, lang, 1)} tokens/s, c'est plus que cette estimation pour {what} : "
        f"{expected}** ; une quantification plus petite, un contexte plus court ou des requêtes "
        "groupées l'expliqueraient.",
    )


def _asks_ceiling(question: str) -> bool:
    """The question asks for the most a card can do ('best-case tokens/s', 'au mieux')."""
    from assistant.agent.offline.quantities import phrase_spans

    return bool(phrase_spans("ceiling", question))


def _bound(result: SpeedEstimate) -> float | None:
    """One card's bandwidth bound on decode: peak bandwidth ÷ bytes read per token."""
    if result.gpu_count != 1 or not result.bandwidth_gbs or not result.bytes_per_token_gb:
        return None
    return result.bandwidth_gbs / result.bytes_per_token_gb


def _ceiling(result: SpeedEstimate, question: str, lang: Lang) -> str:
    """When the question asks for the best case: the bandwidth bound (peak bandwidth ÷ bytes read
    per token, one card), which no backend reaches, before the estimate."""
    bound = _bound(result)
    bandwidth, read = result.bandwidth_gbs or 0.0, result.bytes_per_token_gb or 0.0
    if not _asks_ceiling(question) or bound is None:
        return ""
    top = num(bound, lang, 0)
    return pick(
        lang,
        f"**At best about {top} tokens/s** for {result.model} in {result.precision} on "
        f"{result.gpu}, one request at a time: the bandwidth bound, {num(bandwidth, lang, 0)} GB/s ÷ "
        f"{num(read, lang, 2)} GB read per token. No backend reaches it.",
        f"**Au mieux environ {top} tokens/s** pour {result.model} en {result.precision} sur "
        f"{result.gpu}, une requête à la fois : la borne de la bande passante, "
        f"{num(bandwidth, lang, 0)} Go/s ÷ {num(read, lang, 2)} Go lus par token. Aucun moteur "
        "ne l'atteint.",
    )


def render(result: SpeedEstimate, question: str, lang: Lang) -> str:
    """The decode speed first, then prefill, the notes, and the formula with its inputs."""
    if not result.found and result.model_kind:
        return _not_a_language_model(result, lang)
    if not result.found:
        if result.suggestions and result.gpu:
            return render_unknown(result.gpu, result.suggestions, lang)
        return pick(lang, result.summary, result.summary_fr)
    tps = result.decode_tokens_per_s or 0.0
    cards = f"{result.gpu_count} × {result.gpu}" if result.gpu_count > 1 else result.gpu
    head = pick(
        lang,
        f"**About {num(tps, lang, 0)} tokens/s** ({num(result.decode_low, lang, 0)}–{num(result.decode_high, lang, 0)}) "
        f"for {result.model} in {result.precision} on {cards}, one request at a time.",
        f"**Environ {num(tps, lang, 0)} tokens/s** ({num(result.decode_low, lang, 0)} à {num(result.decode_high, lang, 0)}) "
        f"pour {result.model} en {result.precision} sur {cards}, une requête à la fois.",
    )
    why = pick(
        lang,
        f"Generating is limited by memory bandwidth: each token reads {num(result.bytes_per_token_gb, lang, 2)} GB "
        f"at {num(result.bandwidth_gbs, lang, 0)} GB/s ({result.backend}, {num((result.efficiency or 0) * 100, lang, 0)} % efficiency).",
        f"La génération est limitée par la bande passante mémoire : chaque token lit {num(result.bytes_per_token_gb, lang, 2)} Go "
        f"à {num(result.bandwidth_gbs, lang, 0)} Go/s ({result.backend}, efficacité {num((result.efficiency or 0) * 100, lang, 0)} %).",
    )
    together = _together(result, cards, lang)
    parts = [head, why]
    if together:
        parts = [together, head, why] if _together_first(question) else [head, together, why]
    seen = _against_observed(result, question, lang)
    if seen:
        parts = [seen, why]
    bound = _ceiling(result, question, lang)
    if bound:
        parts = [bound, pick(lang, "In practice: ", "En pratique : ") + head]
    if result.prefill_tokens_per_s and result.time_to_first_token_s is not None:
        parts.append(
            pick(
                lang,
                f"Reading the prompt: about {num(result.prefill_tokens_per_s, lang, 0)} tokens/s "
                f"({num(result.time_to_first_token_s, lang, 1)} s for {result.prompt_tokens} tokens).",
                f"Lecture du prompt : environ {num(result.prefill_tokens_per_s, lang, 0)} tokens/s "
                f"({num(result.time_to_first_token_s, lang, 1)} s pour {result.prompt_tokens} tokens).",
            )
        )
    notes = result.notes_fr if lang == "fr" else result.notes
    if notes:
        parts.append(bullet_list(notes))
    parts.append(
        f"<sub>{pick(lang, 'Formula: ' + result.formula, 'Formule : ' + result.formula_fr)}</sub>"
    )
    return "\n\n".join(parts)


def _together_first(question: str) -> bool:
    """Whether the requests served at once are asked about before one request's speed ('what
    total for 20 users at once?' rather than 'how fast for one user? and for 10 at once?')."""
    from assistant.agent.offline.concepts import concept_starts
    from assistant.agent.offline.usage import concurrent_count

    found = concurrent_count(question)
    speed = concept_starts("speed", question)
    if found is None or not speed:
        return True
    ends = [m.end() for m in SENTENCE_END.finditer(question)]
    return bisect_right(ends, found[1]) <= bisect_right(ends, speed[0])  # same sentence or before


def _together(result: SpeedEstimate, cards: str | None, lang: Lang) -> str:
    """With several requests served at once: each one's speed and the total, first."""
    batch, each, total = (
        result.concurrent_requests,
        result.per_request_tokens_per_s,
        result.total_tokens_per_s,
    )
    if batch <= 1 or not each or not total:
        return ""
    limit = (
        pick(lang, "the card's arithmetic", "le calcul de la carte")
        if result.batch_compute_bound
        else pick(lang, "memory bandwidth", "la bande passante mémoire")
    )
    return pick(
        lang,
        f"**With {batch} requests at once: about {num(each, lang, 0)} tokens/s each, "
        f"{num(total, lang, 0)} tokens/s in all** for {result.model} in {result.precision} on "
        f"{cards}, at {num(result.context_tokens or 0, lang, 0)} tokens of context each. A server "
        "that batches requests (vLLM, SGLang, llama.cpp's parallel slots) reads the weights once "
        f"per step for all of them; each request's KV cache is read too, and {limit} sets the "
        "step.",
        f"**Avec {batch} requêtes à la fois : environ {num(each, lang, 0)} tokens/s chacune, "
        f"{num(total, lang, 0)} tokens/s en tout** pour {result.model} en {result.precision} "
        f"sur {cards}, à {num(result.context_tokens or 0, lang, 0)} tokens de contexte chacune. Un "
        "serveur qui regroupe les requêtes (vLLM, SGLang, les slots parallèles de llama.cpp) lit "
        "les poids une fois par pas pour toutes ; le cache KV de chaque requête est lu aussi, et "
        f"{limit} fixe la durée du pas.",
    )


def _by_precision(found: list[SpeedEstimate], question: str, lang: Lang) -> str:
    """One card's speeds for one model at several precisions ('q4 vs fp16'), or for several
    models at one precision ('an 8B … and a 14B?'): each speed in the first sentence, then the
    first estimate's reasoning and formula once."""
    by_model = (
        len({r.model for r in found}) == len(found) and len({r.precision for r in found}) == 1
    )
    if not by_model and len({r.precision for r in found}) < len(found):
        return ""
    speeds = [
        pick(
            lang,
            f"about {num(r.decode_tokens_per_s, lang, 0)} tokens/s "
            + (f"for {r.model}" if by_model else f"in {r.precision}"),
            f"environ {num(r.decode_tokens_per_s, lang, 0)} tokens/s "
            + (f"pour {r.model}" if by_model else f"en {r.precision}"),
        )
        for r in found
    ]
    speeds[0] = speeds[0][:1].upper() + speeds[0][1:]
    first = found[0]
    what = pick(
        lang,
        f"in {first.precision}" if by_model else f"for {first.model}",
        f"en {first.precision}" if by_model else f"pour {first.model}",
    )
    why = pick(
        lang,
        "more parameters, more bytes, fewer tokens/s" if by_model else "fewer bits, more tokens/s",
        "plus de paramètres, plus d'octets, moins de tokens/s"
        if by_model
        else "moins de bits, plus de tokens/s",
    )
    head = pick(
        lang,
        f"**{'; '.join(speeds)}** {what} on {_cards(first)}, one request at a time "
        f"(each token reads all the weights: {why}).",
        f"**{' ; '.join(speeds)}** {what} sur {_cards(first)}, une requête à la "
        f"fois (chaque token lit tous les poids : {why}).",
    )
    rest = render(first, question, lang).split("\n\n", 1)
    return head + ("\n\n" + rest[1] if len(rest) > 1 else "")


def combine(results: list[SpeedEstimate], question: str, lang: Lang) -> str:
    """Several cards' speeds for one model (options weighed): one table, the formula once."""
    found = [r for r in results if r.found and r.decode_tokens_per_s]
    if len(found) >= 2 and len({(r.gpu, r.gpu_count) for r in found}) == 1:
        return _by_precision(found, question, lang)
    if len(found) < 2 or len({(r.gpu, r.gpu_count) for r in found}) < len(found):
        return ""
    # a card the weights do not fit is no winner: its speed assumes they did
    fitting = [r for r in found if r.weights_fit is not False] or found
    left_out = [r for r in found if r not in fitting]
    fastest = max(fitting, key=lambda r: r.decode_tokens_per_s or 0.0)
    name, speed = _cards(fastest), num(fastest.decode_tokens_per_s, lang, 0)
    head = _bounds_head(found, question, lang)
    if not head and left_out:
        names = ", ".join(_cards(r) for r in left_out)
        head = pick(
            lang,
            f"**Generation: {name}, about {speed} tokens/s** for {fastest.model} in "
            f"{fastest.precision}, one request at a time; the weights do not fit in {names}, "
            "whose figure below assumes they did (offloading to system RAM is far slower).",
            f"**Génération : {name}, environ {speed} tokens/s** pour {fastest.model} en "
            f"{fastest.precision}, une requête à la fois ; les poids ne tiennent pas dans {names}, "
            "dont le chiffre ci-dessous suppose qu'ils tiennent (le déport en RAM système est "
            "bien plus lent).",
        )
    head = head or pick(
        lang,
        f"**Generation: {name} is faster**, about {speed} tokens/s for {fastest.model} in "
        f"{fastest.precision}, one request at a time.",
        f"**Génération : {name} est la plus rapide**, environ {speed} tokens/s pour "
        f"{fastest.model} en {fastest.precision}, une requête à la fois.",
    )
    table = _speed_table(found, lang)
    notes = list(dict.fromkeys(n for r in found for n in (r.notes_fr if lang == "fr" else r.notes)))
    formula = pick(lang, "Formula: " + fastest.formula, "Formule : " + fastest.formula_fr)
    parts = [head, table, bullet_list(notes) if notes else "", f"<sub>{formula}</sub>"]
    return "\n\n".join(p for p in parts if p)


def _bounds_head(found: list[SpeedEstimate], question: str, lang: Lang) -> str:
    """When the best case is asked: each card's bandwidth bound, before the estimates."""
    bounds = [_bound(r) for r in found]
    if not _asks_ceiling(question) or not all(bounds):
        return ""
    each = ", ".join(
        f"{_cards(r)} {num(b, lang, 0)} tokens/s" for r, b in zip(found, bounds, strict=True)
    )
    first = found[0]
    return pick(
        lang,
        f"**At best, {each}** for {first.model} in {first.precision}, one request at a time: the "
        "bandwidth bound, which no backend reaches. In practice:",
        f"**Au mieux, {each}** pour {first.model} en {first.precision}, une requête à la fois : la "
        "borne de la bande passante, qu'aucun moteur n'atteint. En pratique :",
    )


def _speed_table(found: list[SpeedEstimate], lang: Lang) -> str:
    rows = [
        f"| {_cards(r)} | {num(r.decode_tokens_per_s, lang, 0)} "
        f"({num(r.decode_low, lang, 0)}–{num(r.decode_high, lang, 0)}) | "
        + (f"{num(r.prefill_tokens_per_s, lang, 0)}" if r.prefill_tokens_per_s else "—")
        + " |"
        for r in found
    ]
    return (
        pick(
            lang,
            "| Cards | Generation (tokens/s) | Prompt reading (tokens/s) |",
            "| Cartes | Génération (tokens/s) | Lecture du prompt (tokens/s) |",
        )
        + "\n|---|---|---|\n"
        + "\n".join(rows)
    )


def _cards(result: SpeedEstimate) -> str:
    return f"{result.gpu_count} × {result.gpu}" if result.gpu_count > 1 else str(result.gpu)


def _engine(text: str) -> dict[str, Any]:
    """How several cards share a model, as the message says: a tensor split it asks for
    ('tensor-parallel-size 4'), or the split of the program it names (vLLM splits tensors;
    Ollama and llama.cpp split layers). The speed backend itself stays the default: the
    per-backend efficiencies were fitted on few single-card rows."""
    from assistant.agent.offline.quantities import phrase_spans
    from assistant.knowledge.programs import find_program
    from assistant.knowledge.speed import load_speed_rules

    if phrase_spans("tensor_parallel", text):
        return {"split": "tensor"}
    program = find_program(text)
    if program is None or program.speed_backend is None:
        return {}
    fitted = load_speed_rules().backend(program.speed_backend, "cuda")
    return {"split": fitted.default_split} if fitted is not None else {}


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """The calls for the model on the cards named, or none without a model."""
    cards = named_cards(ent)
    model = (
        ent.models[0] if ent.models else (f"{ent.model_size_b:g}B" if ent.model_size_b else None)
    )
    if not model:
        return []
    args: dict[str, Any] = {"model": model, "gpu": cards[0] if cards else None,
                            "precision": ent.precision, "context_tokens": ent.context_tokens}  # fmt: skip
    args.update(_engine(reading.text))
    if "split" not in args and ent.precision == "fp8" and (ent.gpu_count or 1) > 1:
        # FP8 weights on several cards are served by vLLM-style engines, which split tensors
        # (llama.cpp, which splits layers, has no FP8)
        args["split"] = "tensor"
    if ent.options and len(cards) >= 2:
        # Cards named as options: each one's speed, with as many of it as the option has.
        return [{**args, "gpu": card, "gpu_count": ent.card_counts.get(card, 1)} for card in cards]
    if ent.gpu_count and ent.gpu_count > 1:
        args["gpu_count"] = ent.gpu_count
    if ent.batch_size and ent.batch_size > 1:
        args["concurrent_requests"] = ent.batch_size  # '10 users at the same time'
    if len(ent.precisions) > 1:
        # 'tokens/s for the 8b in q4 vs fp16': each precision's speed, in the order asked
        return [{**args, "precision": p} for p in ent.precisions[:MAX_PRECISIONS]]
    others = _other_sizes(ent, reading, model)
    if others:
        # 'an 8B in Q4, how many tokens/s? and a 14B?': each size's speed, in the order asked
        return [args, *({**args, "model": size} for size in others)]
    return [args]


MAX_PRECISIONS = 3
MAX_MODELS = 3


def _other_sizes(ent: Entities, reading: Reading, model: str) -> list[str]:
    """The other bare sizes the message asks about besides `model` ('… et un 14B ?'), at most
    MAX_MODELS in all; none when a model is named by name (its own size is no other model)."""
    from assistant.knowledge.model_matching import parse_param_count

    if ent.models or reading.entities.models:
        return []
    first = parse_param_count(model)
    sizes = [s for s in reading.entities.model_sizes_b if s != first]
    return [f"{s:g}B" for s in sizes[: MAX_MODELS - 1]]


SKILL = Skill(
    tool="llm_speed",
    result=SpeedEstimate,
    build=build,
    render=render,
    search_hint="tokens par seconde bande passante mémoire",
    slots=(
        "gpus",
        "unknown_gpus",
        "models",
        "model_size_b",
        "precision",
        "context_tokens",
        "gpu_count",
        "batch_size",
    ),
    needs=("models", "model_size_b"),
    concepts=("speed",),
    combine=combine,
)
