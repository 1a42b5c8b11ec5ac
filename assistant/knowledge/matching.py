"""The one place that turns what people write ("my 4090", "rtx4090", "ma RTX 3060 12 Go")
into catalog cards. It never invents a card: an unknown name gives None and near names."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.gpus import GpuCard, load_catalog

# Words that say nothing about which card it is.
_FILLER = frozenset(
    [
        "my",
        "a",
        "an",
        "the",
        "used",
        "new",
        "your",
        "our",
        "card",
        "gpu",
        "gpus",
        "graphics",
        "ma",
        "mon",
        "une",
        "un",
        "la",
        "le",
        "carte",
        "graphique",
        "occasion",
        "d'occasion",
        "nvidia",
        "geforce",
        "amd",
        "radeon",
        "instinct",
        "apple",
        "tesla",
        "quadro",
        "founders",
        "edition",
        "fe",
        "tensor",
        "core",
        "of",
        "de",
    ]
)
# Tokens that change which card is meant when they follow a model number.
_VARIANT_WORDS = frozenset(
    [
        "ti",
        "super",
        "max",
        "pro",
        "ultra",
        "xt",
        "xtx",
        "sxm",
        "sxm4",
        "sxm5",
        "pcie",
        "nvl",
        "mini",
    ]
)
_CURRENCY = re.compile(
    r"^\s*(€|\$|£|eur\b|euros?\b|usd\b|dollars?\b|k\b|k€|k\$|/h|per\b|€/h|\$/h)", re.I
)
_CURRENCY_BEFORE = re.compile(r"(€|\$|£)\s*$")
_YEAR = re.compile(r"^20(19|2\d|30)$")
_MEM_TOKEN = re.compile(r"^\d{1,3}gb$")


class GpuMatch(BaseModel):
    """What a name matched: the card (or None), how well, and what else it could have meant."""

    model_config = ConfigDict(frozen=True)

    query: str
    gpu: GpuCard | None = None
    score: float = Field(
        ge=0, le=1, description="1.0 for an exact name/alias match, 0 when unknown"
    )
    matched_alias: str | None = None
    alternatives: list[str] = Field(
        default_factory=list, description="Other variants of a short name"
    )
    suggestions: list[str] = Field(
        default_factory=list, description="Near names when nothing matched"
    )


def normalize_gpu_name(text: str) -> str:
    """Lower-case, French 'Go' → 'gb', 'rtx4090' → 'rtx 4090', '12 GB' → '12gb', punctuation out."""
    return " ".join(_tokens(text))


def _tokens(text: str) -> list[str]:
    s = text.lower().replace("’", "'")
    s = re.sub(r"\b(\d{1,3})\s*(go|gib|gb|g)\b", r"\1gb", s)  # 12 Go, 24 GB, 80G → 12gb
    s = re.sub(r"\b(?:[ldjnsc]|qu)'(?=[a-z0-9])", "", s)  # French elision: l'A100 → A100
    s = re.sub(r"[™®©]", " ", s)
    s = re.sub(r"[^a-z0-9.'+\- ]+", " ", s)
    s = s.replace("-", " ")  # driver names: "A100-SXM4-80GB", "P100-PCIE-16GB"
    s = re.sub(r"\brtx(?=\d)|\bgtx(?=\d)", lambda m: m.group(0) + " ", s)
    s = re.sub(r"(?<=\d)(ti|super)\b", r" \1", s)  # 4070ti → 4070 ti
    out = []
    for tok in s.split():
        tok = tok.strip(".'-+")
        if tok.endswith("'s"):
            tok = tok[:-2]
        if tok:
            out.append(tok)
    return out


def _core_tokens(text: str) -> list[str]:
    return [t for t in _tokens(text) if t not in _FILLER]


@lru_cache(maxsize=1)
def _index() -> dict[tuple[str, ...], tuple[GpuCard, str]]:
    """Every name and alias as a token tuple → (card, the alias as written)."""
    index: dict[tuple[str, ...], tuple[GpuCard, str]] = {}
    for card in load_catalog().gpus:
        for key in (card.name, *card.aliases):
            toks = tuple(_core_tokens(key))
            if toks and toks not in index:
                index[toks] = (card, key)
    return index


def _alternatives(card: GpuCard, query: tuple[str, ...]) -> list[str]:
    """Other cards whose name contains every token of a short query ('h100' → PCIe, NVL)."""
    out = []
    for other in load_catalog().gpus:
        if other.name == card.name:
            continue
        keys = [tuple(_core_tokens(k)) for k in (other.name, *other.aliases)]
        if any(all(t in k for t in query) for k in keys):
            out.append(other.name)
    return out


def suggest_gpu_names(text: str, limit: int = 5) -> list[str]:
    """Catalog names close to `text` (string similarity over names and aliases)."""
    query = " ".join(_core_tokens(text)) or normalize_gpu_name(text)
    if not query:
        return []
    keys = {" ".join(k): card.name for k, (card, _) in _index().items()}
    scored: dict[str, float] = {}
    for key, name in keys.items():
        ratio = difflib.SequenceMatcher(None, query, key).ratio()
        q_nums = {t for t in query.split() if any(c.isdigit() for c in t)}
        if q_nums & set(key.split()):
            ratio += 0.3  # sharing a model number matters more than sharing letters
        if ratio >= 0.5:
            scored[name] = max(scored.get(name, 0.0), ratio)
    return [n for n, _ in sorted(scored.items(), key=lambda kv: -kv[1])[:limit]]


def match_gpu(text: str) -> GpuMatch:
    """Match one GPU name. Exact (after normalisation and dropping filler words) or nothing."""
    toks = tuple(_core_tokens(text))
    index = _index()
    hit = index.get(toks)
    if hit is None and toks:
        # "GeForce RTX 4090 24GB": a memory size that agrees with the card is not part of its name.
        mems = [t for t in toks if _MEM_TOKEN.match(t)]
        rest = tuple(t for t in toks if not _MEM_TOKEN.match(t))
        cand = index.get(rest) if mems and rest else None
        if cand and len(mems) == 1 and cand[0].vram_gb == float(mems[0][:-2]):
            hit = cand
        elif hit is None and toks[0] == "rtx" and len(toks) > 1:
            hit = index.get(toks[1:])
    if hit is not None:
        card, alias = hit
        return GpuMatch(
            query=text,
            gpu=card,
            score=1.0,
            matched_alias=alias,
            alternatives=_alternatives(card, toks),
        )
    return GpuMatch(query=text, gpu=None, score=0.0, suggestions=suggest_gpu_names(text))


def find_gpu_mentions(text: str) -> list[GpuCard]:
    """Every catalog card named in a free sentence, in order of first mention, without repeats."""
    index = _index()
    max_len = max((len(k) for k in index), default=1)
    spans = _token_spans(text)
    singles = {k[0] for k in index if len(k) == 1}
    # Plurals: "two 4090s", "des H100s" (but "4070S" is itself a name).
    toks = [
        t[:-1] if t not in singles and t.endswith("s") and t[:-1] in singles else t
        for t, _, _ in spans
    ]
    found: list[GpuCard] = []
    i = 0
    while i < len(toks):
        hit_len = 0
        hit_card: GpuCard | None = None
        for n in range(min(max_len, len(toks) - i), 0, -1):
            entry = index.get(tuple(toks[i : i + n]))
            if entry:
                hit_len, hit_card = n, entry[0]
                break
        if hit_card is None:
            i += 1
            continue
        end = i + hit_len
        if end < len(toks) and toks[end] in _VARIANT_WORDS:
            i = end + 1  # "4070 Ti" is not a 4070: a variant we don't know, so no card
            continue
        if hit_len == 1 and not _plausible_bare(toks[i], spans, i, text):
            i += 1
            continue
        if end < len(toks) and _MEM_TOKEN.match(toks[end]):
            if hit_card.vram_gb != float(toks[end][:-2]):
                i = end + 1  # "RTX 3060 8GB": a memory size this card doesn't come in
                continue
            end += 1
        if hit_card not in found:
            found.append(hit_card)
        i = end
    return found


def _token_spans(text: str) -> list[tuple[str, int, int]]:
    """Tokens with their character span in `text` (approximate for rewritten tokens)."""
    spans = []
    for m in re.finditer(r"\S+", text):
        for tok in _tokens(m.group(0)):
            if tok in _FILLER:
                continue
            spans.append((tok, m.start(), m.end()))
    return spans


def _plausible_bare(token: str, spans: list[tuple[str, int, int]], i: int, text: str) -> bool:
    """A lone model number counts unless it reads as a year or a price."""
    if not token.isdigit():
        return True
    if _YEAR.match(token):
        return False
    _, start, end = spans[i]
    if re.search(r"[€$£]", text[start:end]):
        return False  # "$4090", "3090€"
    return not (_CURRENCY.match(text[end:]) or _CURRENCY_BEFORE.search(text[:start]))
