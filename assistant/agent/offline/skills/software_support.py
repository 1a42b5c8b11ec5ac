"""Software support: "newest CUDA toolkit for a GTX 1080?", "PyTorch cu124 on an RTX 5090?",
"does Ollama run on a Tesla M60?"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from assistant.agent.offline.sentences import asked_sentences
from assistant.agent.offline.skills.base import Skill
from assistant.agent.offline.skills.common import named_cards, render_unknown
from assistant.agent.offline.texts import pick
from assistant.knowledge.cuda_support import load_cuda_support, parse_cc
from assistant.language import Lang, sentences
from assistant.tools.software import (
    DRIVER,
    SoftwareSupportResult,
    driver_cuda,
    names_software,
    variant_cuda,
    wheel_variants,
)

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

MAX_SOFTWARE_CHARS = 200
_HEADS = {
    "yes": ("Yes", "Oui"),
    "no": ("No", "Non"),
    "partial": ("Only some builds", "Seulement certaines versions"),
    "not_applicable": ("Not applicable", "Sans objet"),
}


def _cc_in(question: str) -> str | None:
    """A compute capability written in the question ('sm_120', 'compute_61'), if any."""
    for word in question.replace("'", " ").replace('"', " ").split():
        cc = parse_cc(word.strip("(),.;:!?«»"))
        if cc and "." not in word:  # '2.8' is a release, not a compute capability
            return cc
    return None


def _architecture_in(question: str) -> str | None:
    """The lowest compute capability of an architecture the question names ('Pascal')."""
    words = {w.strip("(),.;:!?«»").lower() for w in question.split()}
    for arch in load_cuda_support().arches:
        if arch.architecture.split(" (")[0].lower() in words:
            return arch.cc
    return None


# "CUDA 13 and the latest PyTorch": a toolkit and something else to check, each on its own
_AND = re.compile(r"[,;]|\s\+\s|\b(?:and|et|or|ou|plus)\b", re.IGNORECASE)
_TOOLKIT = re.compile(r"\bcuda\s*\d+(?:\.\d+)?", re.IGNORECASE)  # a toolkit and its version


def _wording(question: str) -> str:
    """The words that say what to check: the message, cut at MAX_SOFTWARE_CHARS, with the
    installed driver kept when the cut would drop it; when the cut drops every software name (a
    long story first), the message's questions when they name some."""
    text = question.strip()
    software = text[:MAX_SOFTWARE_CHARS]
    if not names_software(software):
        asked = " ".join(asked_sentences(text))[:MAX_SOFTWARE_CHARS]
        software = asked if names_software(asked) else software
    driver = DRIVER.search(text)
    if driver and driver.group(0) not in software:  # the installed driver, past the cut
        software = f"{software[: MAX_SOFTWARE_CHARS - len(driver.group(0)) - 2]}; {driver.group(0)}"
    return software


def _checks(question: str, software: str) -> list[str]:
    """The wording, or two checks when one question asks for a CUDA toolkit and another piece of
    software side by side ("CUDA 13 and the latest PyTorch"): the tool reads one per call."""
    # the questions first, then the statements ('we move the image to CUDA 13 + PyTorch cu130
    # wheels. will the A6000 still work?')
    # (not when a driver version is stated: the wording keeps it for the toolkit check)
    stated = [] if DRIVER.search(question) else sentences(question)
    for asked in [*asked_sentences(question), *stated]:
        parts = [p.strip() for p in _AND.split(asked) if p and names_software(p)]
        named = [(p, _TOOLKIT.search(p)) for p in parts]
        toolkit = [p for p, m in named if m]
        other = [p for p, m in named if not m]
        # one toolkit, maybe said twice ('CUDA 13 dropped old GPUs … move the image to CUDA 13')
        versions = {m.group(0).lower() for _, m in named if m}
        if len(versions) == 1 and other and not DRIVER.search(asked):
            return [toolkit[-1], other[0]]
    return [software]


def build(ent: Entities, reading: Reading) -> list[dict[str, Any]]:
    """The card (by name, by sm_XX, or by architecture) and the question's software wording, one
    call per thing it asks to check."""
    question = reading.text
    cards = named_cards(ent)
    gpu = cards[0] if cards else (_cc_in(question) or _architecture_in(question))
    if not gpu or not names_software(question):
        return []  # no toolkit, build, driver or program named: a toolkit range answers nothing
    chosen = chosen_variant(question)
    if chosen is not None:
        return [{"gpu": gpu, "software": f"PyTorch {chosen}"}]
    checks = _checks(question, _wording(question) or "CUDA")
    system = _system(question)
    return [
        {"gpu": gpu, "software": part, **({"system": system} if system else {})} for part in checks
    ]


def _system(question: str) -> str | None:
    """The one operating system the question names ('sous Ubuntu 24.04'), if one; WSL is
    neither (Windows' Linux, with its own ROCm list)."""
    from assistant.agent.offline.concepts import concepts_in

    said = concepts_in(question) & {"linux", "windows", "wsl"}
    return next(iter(said)) if len(said) == 1 and "wsl" not in said else None


def chosen_variant(question: str) -> str | None:
    """'nvidia-smi shows CUDA Version: 12.6 — cu121, cu124 or cu126?': of the wheels named, the
    newest the driver runs (its CUDA version is the newest it supports), or None."""
    named = wheel_variants(question)
    limit = driver_cuda(question)
    if len(named) < 2 or limit is None:
        return None
    runs = [v for v in named if variant_cuda(v) <= limit]
    return max(runs, key=variant_cuda) if runs else None


def _variant_line(question: str, lang: Lang) -> str:
    """Why that wheel: the driver's CUDA version, and the installed toolkit left aside."""
    chosen = chosen_variant(question)
    driver = driver_cuda(question)
    if chosen is None or driver is None:
        return ""
    version = f"{driver[0]}.{driver[1]}"
    return pick(
        lang,
        f'**Take {chosen}**: nvidia-smi\'s "CUDA Version: {version}" is the newest CUDA your '
        f"driver runs, so any wheel up to {chosen} works and {chosen} is the newest of those you "
        "named. A CUDA toolkit installed separately does not matter: PyTorch's wheels bring their "
        "own CUDA libraries.",
        f"**Prenez {chosen}** : la « CUDA Version: {version} » de nvidia-smi est la version de "
        f"CUDA la plus récente que votre pilote fait tourner, donc toute roue jusqu'à {chosen} "
        f"fonctionne et {chosen} est la plus récente de celles que vous citez. Un toolkit CUDA "
        "installé à part ne compte pas : les roues de PyTorch apportent leurs propres "
        "bibliothèques CUDA.",
    )


def _where(result: SoftwareSupportResult) -> str:
    parts = []
    if result.compute_capability:
        parts.append(f"`sm_{result.compute_capability.replace('.', '')}`")
    if result.architecture:
        parts.append(result.architecture.split(" (")[0])
    return f" ({', '.join(parts)})" if parts else ""


def _newest_line(result: SoftwareSupportResult, lang: Lang) -> str:
    """No version named: the range of toolkits that build for the card, newest first."""
    card = f"{result.gpu}{_where(result)}"
    if result.last:
        return pick(
            lang,
            f"**{result.last} is the newest CUDA toolkit for {card}**; the first was "
            f"{result.minimum}."
            + ("" if result.platform_note else " Newer toolkits no longer compile for it."),
            f"**{result.last} est le dernier toolkit CUDA pour {card}** ; le premier était "
            f"{result.minimum}."
            + (
                ""
                if result.platform_note
                else " Les toolkits plus récents ne compilent plus pour elle."
            ),
        )
    return pick(
        lang,
        f"**Every current CUDA toolkit supports {card}**, from {result.minimum} on.",
        f"**Tous les toolkits CUDA actuels prennent en charge {card}**, à partir de "
        f"{result.minimum}.",
    )


def _wheel_table(result: SoftwareSupportResult, lang: Lang) -> str:
    if not result.wheels:
        return ""
    rows = [
        pick(lang, "| PyTorch | Wheel | Runs | How |", "| PyTorch | Roue | Tourne | Comment |"),
        "|---|---|---|---|",
    ]
    for w in result.wheels[:8]:
        runs = pick(lang, "yes", "oui") if w.runs else pick(lang, "no", "non")
        rows.append(f"| {w.torch} | {w.variant} | {runs} | {w.how or '—'} |")
    return "\n".join(rows)


def _by_chip(result: SoftwareSupportResult, verdict: str, reason: str, lang: Lang) -> str:
    """A card sold under one name with two chips whose verdicts differ: each chip's verdict, and
    how to tell which one is in the machine."""
    from assistant.knowledge.matching import match_gpu

    card = match_gpu(result.gpu).gpu
    chip = card.chip if card is not None and card.chip else result.gpu
    colon = pick(lang, ":", " :")
    parts = [
        f"{chip} ({result.architecture or '?'}, CC {result.compute_capability}){colon} "
        f"{verdict.lower()} — {reason}"
    ]
    for other in result.other_chips:
        en, fr = _HEADS.get(other.supported, (other.supported, other.supported))
        parts.append(
            f"{other.chip} ({other.architecture}, CC {other.compute_capability}){colon} "
            f"{pick(lang, en, fr).lower()} — {pick(lang, other.reason, other.reason_fr)}"
        )
    head = pick(
        lang,
        f"**It depends on the chip** — the {result.gpu} was sold with {len(parts)} different "
        "chips, and the answer differs:",
        f"**Cela dépend de la puce** — la {result.gpu} a été vendue avec {len(parts)} puces "
        "différentes, et la réponse n'est pas la même :",
    )
    check = pick(
        lang,
        "`nvidia-smi -q` (the product and architecture lines) or GPU-Z shows which one you have.",
        "`nvidia-smi -q` (lignes du produit et de l'architecture) ou GPU-Z indique laquelle vous avez.",
    )
    return "\n".join([head, *(f"- {p}" for p in parts), "", check])


def render(result: SoftwareSupportResult, question: str, lang: Lang) -> str:
    """The verdict and its reason first, then the fix, the drivers and the wheels."""
    if result.supported == "unknown" and not result.compute_capability:
        return render_unknown(result.gpu, result.suggestions, lang)
    reason = pick(lang, result.reason, result.reason_fr)
    if result.supported == "unknown":
        head = _newest_line(result, lang) if result.minimum else reason
    else:
        en, fr = _HEADS[result.supported]
        if result.kind == "program" and result.supported == "partial":
            en, fr = "Partly", "En partie"
        if result.supported == "not_applicable" and result.kind in ("cuda_toolkit", "pytorch"):
            en, fr = _HEADS["no"]  # "can my Radeon use CUDA?": no CUDA toolkit runs on it
        head = f"**{pick(lang, en, fr)}** — {reason}"
        if result.other_chips:
            head = _by_chip(result, pick(lang, en, fr), reason, lang)
    chose = _variant_line(question, lang)
    lines = [chose, head] if chose else [head]
    if result.platform_note:
        lines.append(
            pick(lang, result.platform_note, result.platform_note_fr or result.platform_note)
        )
    fix = pick(lang, result.fix or "", result.fix_fr or result.fix or "")
    if fix and result.supported != "yes":
        lines.append(pick(lang, f"**Fix:** {fix}", f"**Solution :** {fix}"))
    if result.supported != "unknown" and (result.minimum or result.last):
        span = [
            pick(lang, f"first: {result.minimum}", f"première : {result.minimum}")
            if result.minimum
            else "",
            pick(lang, f"last: {result.last}", f"dernière : {result.last}") if result.last else "",
        ]
        label = (
            pick(lang, "Versions for this card: ", "Versions pour cette carte : ")
            if not result.other_chips
            else pick(lang, "Versions for the first chip: ", "Versions pour la première puce : ")
        )
        lines.append(label + ", ".join(s for s in span if s) + ".")
    if (result.driver_linux or result.driver_windows) and not (result.supported == "no" and fix):
        # A release too old for the card: its driver would contradict the fix's, which is the one
        # to install.
        lines.append(
            pick(lang, "Minimum driver: ", "Pilote minimal : ")
            + ", ".join(
                f"{os_} {v}"
                for os_, v in (("Linux", result.driver_linux), ("Windows", result.driver_windows))
                if v
            )
            + "."
        )
    lines.append(_wheel_table(result, lang))
    return "\n\n".join(line for line in lines if line)


SKILL = Skill(
    tool="software_support",
    result=SoftwareSupportResult,
    build=build,
    render=render,
    search_hint="CUDA toolkit PyTorch compute capability",
    slots=("gpus", "unknown_gpus"),
    concepts=("software", "program"),
)
