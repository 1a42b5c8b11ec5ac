"""Small bilingual building blocks for the offline answers: numbers, money, hours, labels."""

from __future__ import annotations

import math
import re
from typing import Any

from assistant.language import Lang, english_function_words


def pick(lang: Lang, en: str, fr: str) -> str:
    """The French text for French, else the English one."""
    return fr if lang == "fr" else en


def _significant(value: float, digits: int) -> int:
    """The decimals that show a figure too small for its usual ones with `digits` significant
    digits (0.0015 with 2, 0.0003 with 1), instead of rounding it to 0."""
    return digits - 1 - math.floor(math.log10(abs(value)))


def num(value: Any, lang: Lang, decimals: int = 1) -> str:
    """A number with the language's decimal mark and no useless trailing zeros."""
    if value is None:
        return "?"
    if isinstance(value, bool):
        return pick(lang, "yes", "oui") if value else pick(lang, "no", "non")
    if not isinstance(value, int | float) or not math.isfinite(float(value)):
        return str(value)
    value = float(value)
    if 0 < abs(value) < 0.5 * 10**-decimals:
        decimals = _significant(value, 2)  # a 2-minute run: 0.0015 kWh, not 0
    text = f"{value:,.{decimals}f}" if abs(value) >= 1000 else f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if lang == "fr":
        text = text.replace(",", "\u202f").replace(".", ",")
    return text


def money(amount: Any, currency: str | None, lang: Lang) -> str:
    """'$2.50' / '€1,615' in English, '2,50 $' / '1 615 €' in French (via the money module)."""
    from assistant.money import CURRENCIES, format_money

    if not isinstance(amount, int | float) or not math.isfinite(float(amount)):
        return "?"
    cur = currency if currency in CURRENCIES else "USD"
    whole = abs(float(amount) - round(float(amount))) < 0.005
    decimals = 0 if abs(amount) >= 100 or whole else 2
    if 0 < abs(amount) < 0.005:
        decimals = _significant(amount, 1)  # €0.0003, not €0
    return format_money(float(amount), cur, lang, decimals=decimals)  # type: ignore[arg-type]


def money_range(low: Any, high: Any, currency: str | None, lang: Lang) -> str:
    """'low – high' as money, or one amount when they are equal or one is missing."""
    if low is None or high is None:
        return money(low if low is not None else high, currency, lang)
    if abs(float(low) - float(high)) < 0.005:
        return money(low, currency, lang)
    return f"{money(low, currency, lang)} – {money(high, currency, lang)}"


def hours(value: Any, lang: Lang) -> str:
    """Hours as 'N h', with one decimal under 10; '?' when not a number."""
    if not isinstance(value, int | float):
        return "?"
    return f"{num(value, lang, 1 if value < 10 else 0)} h"


def verdict_word(verdict: str, lang: Lang) -> str:
    """A fit verdict ('yes', 'partial', 'no', 'unknown') in words of the language."""
    words = {
        "yes": ("Yes", "Oui"),
        "partial": ("Partly", "En partie"),
        "no": ("No", "Non"),
        "unknown": ("Unknown card", "Carte inconnue"),
    }
    en, fr = words.get(verdict, (verdict, verdict))
    return pick(lang, en, fr)


FIELD_LABELS: dict[str, tuple[str, str]] = {
    "architecture": ("Architecture", "Architecture"),
    "compute_capability": ("Compute capability", "Compute capability"),
    "arch_target": ("Compiler target", "Cible de compilation"),
    "vram_gb": ("VRAM (GB)", "VRAM (Go)"),
    "memory_type": ("Memory type", "Type de mémoire"),
    "bandwidth_gbs": ("Bandwidth (GB/s)", "Bande passante (Go/s)"),
    "sm_count": ("SMs / compute units", "SM / unités de calcul"),
    "shared_memory_per_sm_kb": ("Shared memory per SM (KB)", "Mémoire partagée par SM (Ko)"),
    "shared_memory_per_block_kb": (
        "Shared memory per block (KB)",
        "Mémoire partagée par bloc (Ko)",
    ),
    "fp16_tensor_tflops": ("FP16 tensor TFLOPS (dense)", "TFLOPS tensor FP16 (dense)"),
    "fp64_ratio": ("FP64 rate vs FP32", "Débit FP64 / FP32"),
    "tdp_w": ("Power (W)", "Consommation (W)"),
    "nvlink": ("NVLink", "NVLink"),
    "segment": ("Segment", "Segment"),
    "vendor": ("Vendor", "Fabricant"),
    "year": ("Year", "Année"),
}


# Catalog values shown as words in a table.
VALUE_WORDS: dict[str, tuple[str, str]] = {
    "consumer": ("consumer", "grand public"),
    "datacenter": ("datacenter", "centre de données"),
    "workstation": ("workstation", "station de travail"),
    "embedded": ("embedded", "embarqué"),
    "apple": ("apple", "Apple"),
    "nvidia": ("nvidia", "NVIDIA"),
    "amd": ("amd", "AMD"),
}


def value_word(value: str, lang: Lang) -> str:
    """A field's value in words of the language, or as given when it has none."""
    en, fr = VALUE_WORDS.get(value, (value, value))
    return pick(lang, en, fr)


def label(field: str, lang: Lang, default: str | None = None) -> str:
    """A field's label in the language, else `default`, else the field's own name."""
    en, fr = FIELD_LABELS.get(field, (default or field, default or field))
    return pick(lang, en, fr)


# Topic and feature names of the capability data, in French (technical terms stay as they are).
_FR_NAMES: list[tuple[str, str]] = [
    (r"\bGuide part (\d) — ", r"Partie \1 du guide — "),
    (r"\(guide part (\d)\)", r"(partie \1 du guide)"),
    (r"\bFoundations\b", "Fondations"),
    (r"\bCUDA programming model\b", "modèle de programmation CUDA"),
    (r"\bPerformance \(coalescing, bank conflicts, profiling\)", "Performance (coalescence, conflits de banques, profilage)"),
    (r"\bModern CUDA\b", "CUDA moderne"),
    (r"\bEcosystem \(libraries, Triton, AMD\)", "Écosystème (bibliothèques, Triton, AMD)"),
    (r"\bApplication domains\b", "Domaines d'application"),
    (r"\bAI kernels\b", "Noyaux pour l'IA"),
    (r"— Practice\b", "— Pratique"),
    (r"\bHopper-style GEMM with TMA and wgmma\b", "GEMM façon Hopper avec TMA et wgmma"),
    (r"\btcgen05 kernels \(datacenter Blackwell tensor cores \+ TMEM\)", "noyaux tcgen05 (tensor cores Blackwell datacenter + TMEM)"),
    (r"\bFP8 training\b", "entraînement FP8"),
    (r"\bFP4 inference\b", "inférence FP4"),
    (r"\bProfiling with\b", "Profilage avec"),
    (r"\bTriton kernels\b", "noyaux Triton"),
    (r"\bTensor-core MMA programming\b", "programmation MMA des tensor cores"),
    (r"\bROCm / HIP programming\b", "programmation ROCm / HIP"),
    (r"\bMetal / Mojo GPU programming on Apple Silicon\b", "programmation GPU Metal / Mojo sur Apple Silicon"),
    (r"^CUDA programming$", "programmation CUDA"),
    (r"\b5th-generation tensor core instructions\b", "instructions tensor core de 5e génération"),
    (r"\basynchronous global-to-shared copy\b", "copie asynchrone de la mémoire globale vers la partagée"),
    (r"\bwarp-level MMA\b", "MMA au niveau du warp"),
    (r"\bAmpere shapes\b", "formes Ampere"),
    (r"\b([A-Z]{2}\d+(?: / [A-Z]{2}\d+)?(?: \(\w+\))?) tensor-core math\b", r"calcul \1 sur tensor cores"),
    (r"\btensor-core math\b", "calcul sur tensor cores"),
    (r"\bstructured sparsity\b", "parcimonie structurée"),
    (r"\bDistributed shared memory\b", "Mémoire partagée distribuée"),
    (r"\(guide: ", "(guide : "),
    (r"\((\d)(?:st|nd|rd|th) generation\)", r"(\1e génération)"),
]  # fmt: skip


def localized_name(name: str, lang: Lang) -> str:
    """A topic or feature name in the answer's language."""
    if lang == "en":
        return name
    for pattern, repl in _FR_NAMES:
        name = re.sub(pattern, repl, name)
    return name


# Recurring phrases of the tools' English sentences, in French. A sentence that still reads as
# English after these is left out of a French answer rather than shown half-translated.
_FR_RULES: list[tuple[str, str]] = [
    (r"^Power: (\d+(?:\.\d+)?) W, the card's TDP: a card working flat out; LLM decoding often draws less\.$",
     r"Puissance : \1 W, le TDP de la carte, à pleine charge ; la génération d'un LLM consomme souvent moins."),
    (r"^(.+?) fits at (.+?) \(needs about (\d+(?:\.\d+)?) GB\)", r"\1 tient en \2 (environ \3 Go nécessaires)"),
    (r"^(.+?) at (\S+) \(needs about (\d+(?:\.\d+)?) GB\)", r"\1 en \2 (environ \3 Go nécessaires)"),
    (r"^(.+?): lacks (.+)$", r"\1 : il manque \2"),
    (r"^(.+?) is left out: (.+?) needs about (\d+(?:\.\d+)?) GB, and it has (\d+(?:\.\d+)?) GB\.$",
     r"\1 est écartée : \2 demande environ \3 Go, elle en a \4."),
    (r"^(.+?) is left out: no price for it in the data\.$", r"\1 est écartée : aucun prix dans les données."),
    (r"^(.+?) is left out: (.+)\.$", r"\1 est écartée : \2."),
    (r"^precision nf4 \+ CPU offload \(model\)$", "précision nf4 + déchargement CPU (modèle)"),
    (r"^precision (\S+)$", r"précision \1"),
    (r"^KV cache in fp8$", "cache KV en fp8"),
    (r"^context (\d+) tokens$", r"contexte de \1 tokens"),
    (r"^CPU offload \((model|sequential)\)$", r"déchargement CPU (\1)"),
    (r"^text encoders on CPU \(precomputed embeddings\)$", "encodeurs de texte sur le CPU (embeddings précalculés)"),
    (r"^8-bit AdamW$", "AdamW 8 bits"),
    (r"\(4-bit base\)", "(base 4 bits)"),
    (r"^LoRA instead of full fine-tuning$", "LoRA au lieu du fine-tuning complet"),
    (r"^QLoRA \(4-bit NF4 base\)$", "QLoRA (base NF4 4 bits)"),
    (r"^LoRA on an fp8 base$", "LoRA sur une base fp8"),
    (r"^gradient checkpointing$", "gradient checkpointing (recalcul des activations)"),
    (r"^batch size (\d+)$", r"batch de \1"),
    (r"^sequence length (\d+)$", r"longueur de séquence \1"),
    (r"\bthe workload\b", "la charge de travail"),
    (r"(\d+(?:\.\d+)?) KB of shared memory per SM instead of (\d+(?:\.\d+)?) KB",
     r"\1 Ko de mémoire partagée par SM au lieu de \2 Ko"),
    (r"[Mm]odels are limited to about (\d+) GB", r"modèles limités à environ \1 Go"),
    (r"shared memory ≥ (\d+) KB per SM", r"mémoire partagée ≥ \1 Ko par SM"),
    (r"VRAM ≥ (\d+) GB", r"VRAM ≥ \1 Go"),
    (r",? which constrains tile sizes and on-chip buffers", ", ce qui contraint la taille des tuiles et les tampons sur la puce"),
    (r"\(the card's VRAM\)", "(la VRAM de la carte)"),
    (r"(\d+) GB or more is comfortable here", r"\1 Go ou plus sont confortables ici"),
    (r"\bdatacenter Blackwell\b", "Blackwell datacenter"),
    (r"\bhas no\b", "n'a pas de"),
    (r"\bhas\b", "a"),
    (r"\bper SM\b", "par SM"),
    (r"\b(\d+(?:\.\d+)?) KB\b", r"\1 Ko"),
    (r"\b(\d+(?:\.\d+)?) GB\b", r"\1 Go"),
    (r"\bonly on\b", "seulement sur"),
    (r"\band no\b", "et pas de"),
    (r"\bvia\b", "via"),
    (r"\bRent an?\b", "Louer une"),
    (r"\bor a\b", "ou une"),
    (r"\bfor a few hours\b", "pour quelques heures"),
    (r"\bno consumer card has\b", "aucune carte grand public n'a"),
    (r"\bcorpus\b", "guide"),
    (r" or ", " ou "),
    (r"\); ", ") ; "),
    (r"\(guide: ", "(guide : "),
]  # fmt: skip


def to_french(sentence: str) -> str | None:
    """A tool sentence in French, or None when it can't be rendered without English left in it."""
    out = localized_name(sentence, "fr")
    for pattern, repl in _FR_RULES:
        out = re.sub(pattern, repl, out)
    # Decimal commas in the figures the rules produced ("environ 13.16 Go" → "environ 13,16 Go").
    out = re.sub(r"(\d)\.(\d+) (Go|Ko)\b", r"\1,\2 \3", out)
    unquoted = re.sub(r"«[^»]*»", " ", out)
    return out if english_function_words(unquoted) == 0 else None


def french_clauses(sentence: str) -> str | None:
    """The clauses of a tool sentence that read fully in French (the others are left out)."""
    whole = to_french(sentence)
    if whole is not None:
        return whole
    kept = [c for c in (to_french(part) for part in re.split(r";\s*", sentence)) if c]
    return "; ".join(kept) if kept else None


def in_language(sentence: str, lang: Lang) -> str | None:
    """The sentence as is in English; in French, translated or dropped."""
    if lang == "en":
        return sentence
    return french_clauses(sentence)


def bullet_list(items: list[str]) -> str:
    """The non-empty items as a Markdown bullet list."""
    return "\n".join(f"- {item}" for item in items if item)


def gb(value: float | None, lang: Lang) -> str:
    """A size in GB, in the language's unit ('Go' in French)."""
    return f"{num(value, lang)} {pick(lang, 'GB', 'Go')}"
