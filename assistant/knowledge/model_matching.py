"""Turn what people write ("llama 3 70b", "Llama-3.1-70B-Instruct", "flux dev", "a 70B model",
"un modèle de 13 milliards de paramètres") into models of models.toml, or a bare parameter count.
It never invents a model: an unknown name gives None, near names, and any size it could read."""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from assistant.knowledge.models import ModelSpec, load_models
from assistant.knowledge.names import fold_keep_length, nearest

# Words that do not change which model is meant.
_FILLER = {
    "instruct",
    "it",
    "chat",
    "hf",
    "base",
    "model",
    "models",
    "modèle",
    "modele",
    "modèles",
    "meta",
    "the",
    "a",
    "an",
    "my",
    "our",
    "un",
    "une",
    "le",
    "la",
    "les",
    "de",
    "du",
    "des",
    "mon",
    "ma",
    "mes",
    "ce",
    "cette",
    "this",
    "that",
    "with",
    "avec",
    "and",
    "et",
    "or",
    "ou",
}
_TOKEN_RE = re.compile(r"[^\s_/:,;!?()\[\]{}\"'`*|<>=+-]+")
_MAX_WINDOW = 6
_SIZE_PATTERNS = (
    # "70B", "7b", "70 B", "1.5B" (not "8x7b", not "24GB")
    (re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s?(?:b|bn)\b", re.I), 1.0),
    # "13 milliards", "7 billion", "1,5 milliard", "65 Md"
    (re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*(?:billions?|milliards?|mds?)\b", re.I), 1.0),
    # "350M parameters", "350 millions de paramètres"
    (
        re.compile(
            r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*(?:m|millions?)\s+(?:de\s+)?(?:param|params|parameters|paramètres)\b",
            re.I,
        ),
        1e-3,
    ),
)


class ModelMatch(BaseModel):
    """What a model name matched: the model (or None), a size read from the text, and near names."""

    model_config = ConfigDict(frozen=True)

    query: str
    model: ModelSpec | None = None
    score: float = Field(
        ge=0, le=1, description="1.0 exact name/alias, 0.9 named inside a longer text, 0 unknown"
    )
    matched_alias: str | None = None
    params_b: float | None = Field(
        default=None, description="Parameter count in billions, from the model or the text"
    )
    suggestions: list[str] = Field(
        default_factory=list, description="Near model names when nothing matched"
    )


class ModelMention(BaseModel):
    """A model named in free text, or a generic size ("a 70B model") with no named model."""

    model_config = ConfigDict(frozen=True)

    text: str
    start: int
    end: int
    model: ModelSpec | None = None
    params_b: float | None = None


def _token_spans(text: str) -> list[tuple[str, int, int]]:
    spans = []
    for m in _TOKEN_RE.finditer(fold_keep_length(text)):  # the one fold, offsets kept
        tok = m.group(0).rstrip(".")
        if tok and tok not in _FILLER:
            spans.append((tok, m.start(), m.start() + len(tok)))
    return spans


def model_key(text: str) -> str:
    """The comparison key of a name: filler words dropped, separators and dots removed, lower case."""
    return "".join(tok for tok, _, _ in _token_spans(text)).replace(".", "")


@lru_cache(maxsize=1)
def _index() -> dict[str, tuple[ModelSpec, str]]:
    index: dict[str, tuple[ModelSpec, str]] = {}
    for spec in load_models():
        for alias in (spec.name, *spec.aliases):
            key = model_key(alias)
            if key:
                index.setdefault(key, (spec, alias))
    return index


def alias_collisions() -> list[tuple[str, str, str]]:
    """(key, model, other model) for every name or alias that two models share after normalisation."""
    seen: dict[str, str] = {}
    clashes = []
    for spec in load_models():
        for alias in {model_key(a) for a in (spec.name, *spec.aliases)}:
            if alias in seen and seen[alias] != spec.name:
                clashes.append((alias, seen[alias], spec.name))
            seen.setdefault(alias, spec.name)
    return clashes


def suggest_model_names(text: str, limit: int = 5) -> list[str]:
    """Near model names for an unknown one (by spelling, then by family)."""
    key = model_key(text)
    if not key:
        return []
    index = _index()
    names = nearest(key, ((k, spec.name) for k, (spec, _) in index.items()), limit, 0.4)
    if len(names) < limit:
        first = _token_spans(text)[0][0] if _token_spans(text) else ""
        for spec in load_models():
            fam = model_key(spec.family)
            if first and len(first) >= 3 and fam.startswith(first[:4]) and spec.name not in names:
                names.append(spec.name)
    return names[:limit]


# No model has ten trillion parameters: a larger "B" figure is a byte count.
MAX_PARAMS_B = 10_000


def parse_param_count(text: str) -> float | None:
    """A parameter count in billions written in the text ("70B", "13 milliards"), or None."""
    sizes = _size_mentions(text, [])
    return sizes[0].params_b if sizes else None


def _size_mentions(text: str, taken: list[tuple[int, int]]) -> list[ModelMention]:
    found: list[ModelMention] = []
    for pattern, scale in _SIZE_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            value = float(m.group(1).replace(",", ".")) * scale
            if not 0 < value <= MAX_PARAMS_B:
                continue  # '(6075580416B)' in an allocation message counts bytes
            found.append(
                ModelMention(text=m.group(0), start=m.start(), end=m.end(), params_b=value)
            )
            taken.append((m.start(), m.end()))
    return found


def _named_mentions(text: str) -> list[ModelMention]:
    index = _index()
    spans = _token_spans(text)
    found: list[ModelMention] = []
    i = 0
    while i < len(spans):
        hit: tuple[int, ModelSpec] | None = None
        for n in range(min(_MAX_WINDOW, len(spans) - i), 0, -1):
            key = "".join(t for t, _, _ in spans[i : i + n]).replace(".", "")
            entry = index.get(key)
            if entry:
                hit = (n, entry[0])
                break
        if hit is None:
            i += 1
            continue
        n, spec = hit
        start, end = spans[i][1], spans[i + n - 1][2]
        found.append(
            ModelMention(
                text=text[start:end], start=start, end=end, model=spec, params_b=spec.params_b
            )
        )
        i += n
    return found


def find_model_mentions(text: str) -> list[ModelMention]:
    """Every model named in a sentence (longest name first, in order) and every bare size not part
    of a name, in order of position. Repeats of the same model are dropped."""
    named = _named_mentions(text)
    sizes = _size_mentions(text, [(m.start, m.end) for m in named])
    out: list[ModelMention] = []
    seen: set[str] = set()
    for mention in sorted([*named, *sizes], key=lambda m: m.start):
        if mention.model is not None:
            if mention.model.name in seen:
                continue
            seen.add(mention.model.name)
        out.append(mention)
    return out


def match_model(text: str) -> ModelMatch:
    """One model name: exact after normalisation (score 1), else the first model named inside the
    text (0.9), else nothing, with a size read from the text when there is one and near names."""
    key = model_key(text)
    hit = _index().get(key) if key else None
    if hit is not None:
        spec, alias = hit
        return ModelMatch(
            query=text, model=spec, score=1.0, matched_alias=alias, params_b=spec.params_b
        )
    named = [m for m in _named_mentions(text) if m.model is not None]
    if named and named[0].model is not None:
        spec = named[0].model
        return ModelMatch(
            query=text, model=spec, score=0.9, matched_alias=named[0].text, params_b=spec.params_b
        )
    return ModelMatch(
        query=text,
        model=None,
        score=0.0,
        params_b=parse_param_count(text),
        suggestions=suggest_model_names(text),
    )


_SIZE_IN_NAME = re.compile(r"\d+(?:\.\d+)?\s*b\b", re.I)


def _release(name: str) -> str:
    """A model's name up to its size: 'Wan 2.1 T2V-14B' -> 'Wan 2.1', 'LTX-Video 13B' -> 'LTX-Video'."""
    words = name.split()
    cut = next((n for n, w in enumerate(words) if _SIZE_IN_NAME.search(w)), len(words))
    return " ".join(words[:cut])


def names_a_size(text: str) -> bool:
    """Whether a mention says the model's size ('wan 1.3b', 'qwen3:30b'), not only its name."""
    return bool(_SIZE_IN_NAME.search(text))


def _siblings(name: str) -> tuple[ModelSpec | None, list[ModelSpec]]:
    """The named model and the other sized models of its family, kind and release."""
    models = load_models()
    spec = next((m for m in models if m.name == name), None)
    if spec is None:
        return None, []
    release = _release(spec.name)
    return spec, [
        m
        for m in models
        if m.family == spec.family
        and m.kind == spec.kind
        and m.params_b
        and _release(m.name) == release
        and m.name != spec.name
    ]


def smaller_sibling(name: str) -> str | None:
    """The largest smaller model of the same release and kind ('Wan 2.1 T2V-14B' -> 'Wan 2.1
    T2V-1.3B'), or None: what a model named without its size may also mean."""
    spec, siblings = _siblings(name)
    if spec is None or not spec.params_b:
        return None
    smaller = [m for m in siblings if (m.params_b or 0.0) < spec.params_b]
    return max(smaller, key=lambda m: m.params_b or 0.0).name if smaller else None


def sibling_of_size(name: str, params_b: float) -> str | None:
    """The model of the same family, kind and release with `params_b` parameters ('Llama 3.2 3B'
    at 1B is 'Llama 3.2 1B'), or None: what 'or drop to 1B?' means after a named model."""
    _, siblings = _siblings(name)
    same = [m for m in siblings if abs((m.params_b or 0.0) - params_b) <= 0.3 * params_b]
    return min(same, key=lambda m: abs((m.params_b or 0.0) - params_b)).name if same else None
