"""Premises a question states that the catalog can check before any entry is chosen.

Memory added up across cards: 'next to my 4070 Ti Super, will ComfyUI see 28 GB?', 'T4 x2, so
32 GB for my model?'. The figure asked is the sum of the cards' own memories, larger than any one
of them: the question is whether memory pools, whatever words it uses (premises.toml names the
entries that answer it).

One card said to have more of a figure than another: 'the seller says the 7600 XT has more
bandwidth than a 5060 Ti'. The catalog's two figures say whether the claim holds
(`spec_claim`; its words are in premises.toml)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.knowledge.gpus import GpuCard
    from assistant.language import Lang

# '28 Go', '32GB', '48 gb of vram'
_MEMORY_FIGURE = re.compile(r"(?<![\d.,])(\d{1,3})\s*(?:gb|go|gib|g)\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    text = resources.files("assistant.agent.offline").joinpath("premises.toml").read_text("utf-8")
    return tomllib.loads(text)


def _table() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v["entries"]) for k, v in _data().items()}


def cuda_on_mac(text: str) -> bool:
    """A sentence asks CUDA, or an NVIDIA card in an external box, of a Mac ('install CUDA 12.8
    on the MacBook', 'an RTX 5090 in a Thunderbolt eGPU'), not ruled out in it ('no CUDA on the
    Mac, fine')."""
    from assistant.agent.offline.concepts import concept_starts
    from assistant.agent.offline.phrases import negated_at
    from assistant.knowledge.names import fold_keep_length
    from assistant.language import sentences

    concepts = _data()["cuda_on_mac"]["with_concepts"]
    for sentence in sentences(text):
        if not concept_starts("macos", sentence):
            continue
        # offsets in the folded sentence are offsets in the sentence itself
        said = [m.start() for m in _cuda_words().finditer(fold_keep_length(sentence))]
        if _names_nvidia(sentence):  # an AMD eGPU on an Intel Mac is macOS's own case
            said += [at for c in concepts for at in concept_starts(c, sentence)]
        if any(not negated_at(sentence, at) for at in said):
            return True
    return False


def _names_nvidia(sentence: str) -> bool:
    """The sentence names NVIDIA or one of its cards."""
    from assistant.knowledge.gpu_names import tokens, vendors_named
    from assistant.knowledge.matching import find_gpu_spans

    return "nvidia" in vendors_named(tokens(sentence)) or any(
        str(card.vendor) == "nvidia" for card, _, _ in find_gpu_spans(sentence)
    )


@lru_cache(maxsize=1)
def _cuda_words() -> re.Pattern[str]:
    """premises.toml's words that, beside a Mac's, ask CUDA of it."""
    words = [str(w) for w in _data()["cuda_on_mac"]["with_words"]]
    return re.compile(rf"(?<![\w-])(?:{_alternatives(words)})(?![\w-])", re.IGNORECASE)


def _alternatives(words: list[str]) -> str:
    """A regex alternation of words, longest first, each ending at a word boundary (or after an
    apostrophe)."""
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(re.escape(w) + ("" if w.endswith("'") else r"\b") for w in ordered)


@lru_cache(maxsize=1)
def _claim_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    """'<more|less|as much> [a word or two] <figure> … <than|que>', on folded text; and the field
    each figure's word names."""
    conf = _data()["spec_claim"]
    fields = {w: field for field, words in conf["fields"].items() for w in words}
    pattern = re.compile(
        rf"\b(?:(?P<more>{_alternatives(conf['more'])})|(?P<less>{_alternatives(conf['less'])})"
        rf"|(?P<same>{_alternatives(conf['same'])}))\s+(?:\w+\s+){{0,2}}?"
        rf"(?P<field>{_alternatives(list(fields))})[^.?!;]{{0,40}}?\s(?:{_alternatives(conf['than'])})",
        re.IGNORECASE,
    )
    return pattern, fields


@dataclass(frozen=True)
class SpecClaim:
    """'<subject> has more <field> than <other>' as said, with the catalog's two figures."""

    subject: GpuCard
    other: GpuCard
    field: str
    said: str  # "more", "less" or "same"

    @property
    def values(self) -> tuple[float, float]:
        return float(getattr(self.subject, self.field)), float(getattr(self.other, self.field))

    @property
    def close(self) -> bool:
        """The two figures are the same within 5 %."""
        mine, theirs = self.values
        return abs(mine - theirs) <= 0.05 * max(mine, theirs)

    @property
    def holds(self) -> bool:
        """Whether the catalog bears the claim out (figures the same within 5 %; one
        architecture for a generation)."""
        if self.field == "architecture":
            return bool(self.subject.architecture == self.other.architecture)
        if self.said == "same":
            return self.close
        mine, theirs = self.values
        return not self.close and (mine > theirs) == (self.said == "more")


def claim_line(claim: SpecClaim, lang: Lang) -> str:
    """The claim's verdict, first: which card has more of the figure, with both figures."""
    from assistant.agent.offline.texts import num, pick

    colon = " :" if lang == "fr" else ":"
    if claim.field == "architecture":
        return _generation_line(claim, lang, colon)
    en, fr, unit, unit_fr = _data()["spec_claim"]["names"][claim.field]
    mine, theirs = claim.values
    top, low = (claim.subject, claim.other) if mine >= theirs else (claim.other, claim.subject)
    hi, lo = max(mine, theirs), min(mine, theirs)
    word = pick(lang, "Yes" if claim.holds else "No", "Oui" if claim.holds else "Non")
    figures = pick(
        lang,
        f"{num(hi, lang, 0)} {unit} against {num(lo, lang, 0)} {unit}",
        f"{num(hi, lang, 0)} {unit_fr} contre {num(lo, lang, 0)} {unit_fr}",
    )
    if claim.close:
        said = pick(
            lang,
            f"the {top.name} and the {low.name} have about the same {en}",
            f"la {top.name} et la {low.name} ont à peu près la même {fr}",
        )
    else:
        said = pick(
            lang,
            f"the {top.name} has more {en} than the {low.name}",
            f"la {top.name} a plus de {fr} que la {low.name}",
        )
    return f"**{word}{colon} {said}** ({figures})."


def _generation_line(claim: SpecClaim, lang: Lang, colon: str) -> str:
    """Whether two cards are of one generation, with each one's architecture and year."""
    from assistant.agent.offline.texts import pick

    def arch(card: GpuCard) -> str:
        return f"{card.architecture}, {card.year}" if card.year else str(card.architecture)

    a, b = claim.subject, claim.other
    if claim.holds:
        return pick(
            lang,
            f"**Yes{colon} the {a.name} and the {b.name} are both {a.architecture}** "
            f"({arch(a)}; {arch(b)}).",
            f"**Oui{colon} la {a.name} et la {b.name} sont toutes deux {a.architecture}** "
            f"({arch(a)} ; {arch(b)}).",
        )
    return pick(
        lang,
        f"**No{colon} the {a.name} is {arch(a)}; the {b.name} is {arch(b)}**, another generation.",
        f"**Non{colon} la {a.name} est {arch(a)} ; la {b.name} est {arch(b)}**, une autre "
        "génération.",
    )


def spec_claim(text: str) -> SpecClaim | None:
    """A claim that one named card has more, less or as much of a catalog figure as another,
    when both cards have that figure."""
    from assistant.knowledge.matching import find_gpu_spans
    from assistant.knowledge.names import fold

    folded = fold(text)
    if len(folded) != len(text):
        return None  # positions must match the card spans
    pattern, fields = _claim_pattern()
    found = pattern.search(folded)
    if found is None:
        return _generation_claim(text, folded) or _figure_first_claim(text, folded)
    spans = find_gpu_spans(text)
    before = [card for card, _, end in spans if end <= found.start()]
    after = [card for card, start, _ in spans if start >= found.end() - 1]
    if not before or not after or before[-1].name == after[0].name:
        return None
    field = fields[found.group("field").lower()]
    said = "more" if found.group("more") else "less" if found.group("less") else "same"
    claim = SpecClaim(before[-1], after[0], field, said)
    if getattr(claim.subject, field, None) is None or getattr(claim.other, field, None) is None:
        return None
    return claim


@lru_cache(maxsize=1)
def _figure_first_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    """'<figure> [is] <higher|lower>' with no 'than' ('… plus rapide qu'une 3060 parce que sa
    bande passante est plus élevée'), on folded text; and the field each figure's word names."""
    conf = _data()["spec_claim"]
    fields = {w: field for field, words in conf["fields"].items() for w in words}
    pattern = re.compile(
        rf"\b(?P<field>{_alternatives(list(fields))})\s+(?:\w+\s+){{0,2}}?"
        rf"(?:(?P<more>{_alternatives(conf['more'])})|(?P<less>{_alternatives(conf['less'])}))",
        re.IGNORECASE,
    )
    return pattern, fields


def _figure_first_claim(text: str, folded: str) -> SpecClaim | None:
    """A figure said higher or lower, in a sentence naming two cards: the first card named is the
    one said to have it ('la 4060 Ti est plus rapide qu'une 3060 parce que sa bande passante est
    plus élevée')."""
    from assistant.knowledge.matching import find_gpu_spans

    pattern, fields = _figure_first_pattern()
    found = pattern.search(folded)
    if found is None:
        return None
    start = max(folded.rfind(mark, 0, found.start()) for mark in ".?!\n") + 1
    ends = [i for i in (folded.find(mark, found.end()) for mark in ".?!\n") if i >= 0]
    end = min(ends, default=len(folded))
    cards: list[GpuCard] = []
    for card, s, _ in find_gpu_spans(text):
        if start <= s < end and all(c.name != card.name for c in cards):
            cards.append(card)
    if len(cards) != 2:
        return None
    field = fields[found.group("field").lower()]
    claim = SpecClaim(cards[0], cards[1], field, "more" if found.group("more") else "less")
    if getattr(claim.subject, field, None) is None or getattr(claim.other, field, None) is None:
        return None
    return claim


def pooled_memory(text: str, ent: Entities) -> bool:
    """Whether the question asks a memory figure that is its cards' memories added up (at least
    two cards, the figure above the largest card's own memory), with no way named to split the
    model across them (`splits_the_model`)."""
    from assistant.knowledge.matching import match_gpu

    if splits_the_model(text):
        return False
    memories: list[float] = []
    sums: set[float] = set()
    for name in ent.gpus:
        card = match_gpu(name).gpu
        if card is None or not card.vram_gb:
            return False
        count = ent.count_of(name) or 1
        memories += [float(card.vram_gb)] * count
        if count > 1:  # 'T4 x2 … or the P100?': the pair's own sum
            sums.add(float(card.vram_gb) * count)
    if len(memories) < 2:
        return False
    sums.add(sum(memories))
    # a size written with a card's name is that card's own ('p106-090 6gb shows up as a gtx
    # 1060 3gb'), not the others' added up
    stated = set(ent.stated_memory.values())
    return any(
        any(abs(float(m.group(1)) - total) < 1 for total in sums)
        and float(m.group(1)) > max(memories)
        and float(m.group(1)) not in stated
        for m in _MEMORY_FIGURE.finditer(text)
    )


@lru_cache(maxsize=1)
def _split_pattern() -> re.Pattern[str]:
    """premises.toml's ways to split a model across cards, on folded text."""
    words = [str(w) for w in _data()["pooled_memory"]["split_by"]]
    return re.compile(rf"(?<![\w-])(?:{_alternatives(words)})", re.IGNORECASE)


def splits_the_model(text: str) -> bool:
    """The message names a way to split a model across cards: llama.cpp's layer split, tensor
    parallelism, a serving engine that shards (the cards' memories then serve together)."""
    from assistant.agent.offline.quantities import phrase_spans
    from assistant.knowledge.names import fold

    return bool(
        _split_pattern().search(fold(text))
        or phrase_spans("tensor_parallel", text)
        or phrase_spans("equal_shares", text)
    )


def premise_entries(text: str, ent: Entities) -> tuple[str, ...]:
    """The knowledge entries that answer the premise the question states, if it states one."""
    if pooled_memory(text, ent):
        return _table()["pooled_memory"]
    return _table()["cuda_on_mac"] if cuda_on_mac(text) else ()


def _generation_claim(text: str, folded: str) -> SpecClaim | None:
    """'basically an A6000, same generation': the last two cards named up to the end of the
    sentence that says it (the card on sale may be named in the sentence before)."""
    from assistant.knowledge.matching import find_gpu_spans

    words = _alternatives(_data()["spec_claim"]["same_generation"])
    found = re.search(rf"\b(?:{words})", folded)
    if found is None:
        return None
    ends = [i for i in (folded.find(stop, found.end()) for stop in ".?!\n") if i >= 0]
    sentence_end = min(ends, default=len(folded))
    cards: list[GpuCard] = []
    for card, start, _ in find_gpu_spans(text):
        if start < sentence_end:
            cards = [c for c in cards if c.name != card.name] + [card]
    if len(cards) < 2 or not (cards[-2].architecture and cards[-1].architecture):
        return None
    return SpecClaim(cards[-2], cards[-1], "architecture", "same")
