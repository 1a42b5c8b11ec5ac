"""How close a question is to each knowledge entry, and whether an entry is about other cards.

A question is compared with every entry's title and "asked" phrasings (both languages) using the
search's own embedding model (query vectors, L2-normalised, so a dot product is a cosine); an
entry scores its best text. The texts are embedded once per model and, like every text the
package embeds, shipped precomputed (tools/build_vectors.py records them).
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from assistant.log import get_logger

if TYPE_CHECKING:
    import numpy as np

    from assistant.agent.offline.reading import Reading

log = get_logger(__name__)

_lock = threading.Lock()


def asked_texts() -> tuple[tuple[str, ...], list[str]]:
    """(entry id per text, texts): every entry title of both languages, in entry order, then
    every "asked" phrasing (other ways people put the same question)."""
    from assistant.knowledge.entries import load_entries

    entries = load_entries()
    phrasings = [(e.id, p) for e in entries for p in e.asked]
    ids = tuple(e.id for e in entries) + tuple(i for i, _ in phrasings)
    return ids, [e.title for e in entries] + [p for _, p in phrasings]


@lru_cache(maxsize=4)
def entry_vectors(model: str) -> tuple[tuple[str, ...], np.ndarray]:
    """(entry id per row, vectors) for every title and phrasing (see `asked_texts`)."""
    from assistant.retrieval.embeddings import get_embedder

    ids, texts = asked_texts()
    return ids, get_embedder(model).embed_queries(texts)


def title_scores(text: str) -> list[tuple[str, float]]:
    """(entry id, best cosine of the question to its titles and phrasings), nearest first; []
    without a model."""
    import numpy as np

    from assistant.retrieval.embeddings import EmbeddingUnavailable, get_embedder, model_key

    try:
        key = model_key()
        with _lock:
            ids, matrix = entry_vectors(key)
        question = get_embedder(key).embed_queries([text])[0]
    except (EmbeddingUnavailable, OSError, ValueError) as exc:
        log.info("offline: no knowledge lead (%s)", exc)
        return []
    sims = np.asarray(matrix, dtype=np.float32) @ np.asarray(question, dtype=np.float32)
    best: dict[str, float] = {}
    for entry_id, sim in zip(ids, sims.tolist(), strict=True):
        best[entry_id] = max(best.get(entry_id, -1.0), float(sim))
    return sorted(best.items(), key=lambda item: -item[1])


@cache
def _named(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(cards, features) a text names."""
    from assistant.agent.offline.entities import extract_entities

    found = extract_entities(text)
    return frozenset(found.gpus), frozenset(found.topics)


@cache
def _family(card: str) -> tuple[str, str]:
    """Cards that share a compute capability (or, without one, an architecture) are one family:
    an entry about the RX 6800 also answers for the RX 6700S, one about the RTX 3090 not for the
    A100."""
    from assistant.knowledge.matching import match_gpu

    found = match_gpu(card).gpu
    if found is None:
        return card, card
    return str(found.vendor), found.compute_capability or found.architecture


@cache
def _entry_names(entry_id: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The cards an entry's title names, those its title and direct answer name (an answer often
    widens the title: "the same holds for two RTX A6000s"), and the features its title names, in
    either language."""
    from assistant.knowledge.entries import load_entries

    entries = [e for e in load_entries() if e.id == entry_id]
    titles = [_named(e.title) for e in entries]
    answers = [_named(e.answer)[0] for e in entries]
    titled = frozenset().union(*(c for c, _ in titles))
    return titled, titled.union(*answers), frozenset().union(*(f for _, f in titles))


@cache
def _entry_vendor(entry_id: str) -> str | None:
    """The one maker an entry's title is about ("… slow on my Intel Arc GPU", "Does the RTX 4090
    support NVLink?"), or that
    entry_subjects.toml gives for an entry whose answer is one maker's though its title names
    none ("torch.cuda.is_available() is False" is answered for NVIDIA); None when its titles
    name none or several ("a project written for CUDA (NVIDIA) … on my Intel Arc GPU")."""
    from assistant.knowledge.entries import load_entries
    from assistant.knowledge.gpu_names import tokens, vendor_hint

    given = _entry_makers().get(entry_id)
    if given is not None:
        return given
    found = {vendor_hint(tokens(e.title)) for e in load_entries() if e.id == entry_id}
    if found == {None}:  # no maker's word: the maker of the cards the title names, if one
        found = {_family(c)[0] for c in _entry_names(entry_id)[0]}
    return found.pop() if len(found) == 1 else None


def _asked_vendors(reading: Reading) -> frozenset[str]:
    """The makers of the cards a question names, else the makers its words name (a maker's name,
    or its stack's words: 'rocminfo shows gfx1100', 'torch.xpu'; 'an AMD eGPU on an Intel
    MacBook' names three, none of them NVIDIA)."""
    from assistant.knowledge.gpu_names import tokens, vendors_named
    from assistant.knowledge.stacks import stack_vendor

    cards = {_family(c)[0] for c in reading.entities.gpus}
    if cards:
        return frozenset(cards)
    stack = stack_vendor(reading.text)
    return vendors_named(tokens(reading.text)) | ({stack} if stack else set())


def same_maker_entries(reading: Reading, entry_ids: list[str]) -> frozenset[str]:
    """The entries about one maker's GPUs whose maker the question names ('Torch not compiled
    with CUDA enabled … is it because I have AMD?': the AMD entry, not the NVIDIA one)."""
    makers = _asked_vendors(reading)
    if not makers:
        return frozenset()
    return frozenset(e for e in entry_ids if _entry_vendor(e) in makers)


def about_something_else(reading: Reading, entry_id: str, generic: frozenset[str]) -> bool:
    """The entry's title names cards (or features), so does the question, and they share no card
    family with the entry's title and answer (no feature with its title): an entry about other
    cards or another feature. An entry about one maker's GPUs ("… on my Intel Arc GPU") is about
    something else for a question about another maker's ("an A100 is slow on Colab"), and one
    about a narrow subject (entry_subjects.toml: hashcat, power supplies) for a question that
    does not name it. Generic topics ("CUDA programming") tell no feature apart."""
    titled, covered, features = _entry_names(entry_id)
    named = frozenset(reading.entities.gpus)
    if named and titled and not {_family(c) for c in named} & {_family(c) for c in covered}:
        return True
    maker = _entry_vendor(entry_id)
    if maker is not None:  # the question's makers only for an entry about one maker
        makers = _asked_vendors(reading)
        if makers and maker not in makers:
            return True
    if _other_program(reading, entry_id):
        return True
    if not _says_subject(reading, entry_id):
        return True
    asked = frozenset(reading.entities.topics) - generic
    return bool(asked and features - generic and not asked & features)


@cache
def _entry_programs(entry_id: str) -> frozenset[str]:
    """The programs an entry's titles name (programs.toml), in either language: what it is
    about, where it names one."""
    from assistant.knowledge.entries import load_entries
    from assistant.knowledge.programs import programs_named

    return frozenset().union(*(programs_named(e.title) for e in load_entries() if e.id == entry_id))


def _other_program(reading: Reading, entry_id: str) -> bool:
    """The question names programs and the entry's title names others, none shared (with what
    each is built on): an entry on faster-whisper's cuDNN for a question on ONNX Runtime's,
    one on TensorFlow's memory for a question on MIG with vLLM."""
    from assistant.knowledge.programs import programs_named

    titled = _entry_programs(entry_id)
    if not titled:
        return False
    asked = programs_named(reading.text)
    return bool(asked) and not asked & titled


@lru_cache(maxsize=1)
def _subjects_file() -> dict[str, dict[str, Any]]:
    import tomllib
    from importlib import resources

    text = (
        resources.files("assistant.agent.offline")
        .joinpath("entry_subjects.toml")
        .read_text("utf-8")
    )
    return tomllib.loads(text)


@lru_cache(maxsize=1)
def entry_subjects() -> dict[str, tuple[str, ...]]:
    """entry id → the subjects (concepts) one of which a question must name for that entry to be
    its question (entry_subjects.toml)."""
    return {k: tuple(v) for k, v in _subjects_file()["subjects"].items()}


@lru_cache(maxsize=1)
def _entry_exclusions() -> dict[str, tuple[str, ...]]:
    """entry id → concepts that make a question another platform's (a Jetson's, for the desktop
    fixes)."""
    return {k: tuple(v) for k, v in _subjects_file().get("excluded_by", {}).items()}


@lru_cache(maxsize=1)
def _entry_makers() -> dict[str, str]:
    """entry id → the maker its answer is about though its title names none."""
    return {k: str(v) for k, v in _subjects_file().get("makers", {}).items()}


@lru_cache(maxsize=1)
def slow_run_entries() -> tuple[str, ...]:
    """The entries that explain a run slower than the asker expected ([slow_runs] of
    entry_subjects.toml), in the file's order."""
    return tuple(_subjects_file().get("slow_runs", {}).get("entries", ()))


def reports_slow_run(reading: Reading) -> bool:
    """The question reports a run slower than expected and pastes no error message (an error
    explains itself first)."""
    from assistant.agent.offline.concepts import names_concept

    return reading.pasted_error is None and names_concept("slow_report", reading.text)


SEVERAL_GPUS = "several_gpus"


@lru_cache(maxsize=256)
def _only_negated(text: str) -> frozenset[str]:
    """Subjects the text names only to rule them out ('je reste sous windows (pas de wsl)')."""
    from assistant.agent.offline.concepts import concept_starts
    from assistant.agent.offline.phrases import negated_at

    subjects = {s for names in entry_subjects().values() for s in names}
    out = set()
    for concept in subjects:
        starts = concept_starts(concept, text)
        if starts and all(negated_at(text, at) for at in starts):
            out.add(concept)
    return frozenset(out)


def _says_subject(reading: Reading, entry_id: str) -> bool:
    """The question names one of the entry's subjects, or the entry has none, and none of the
    concepts that exclude it (entry_subjects.toml [excluded_by]). A question that
    counts two or more cards, or names two cards that are not alternatives ('I have a 3090 and a
    4090'), is about several GPUs whatever its words."""
    from assistant.agent.offline.concepts import concepts_in

    said = set(concepts_in(reading.text)) - _only_negated(reading.text)
    if said & set(_entry_exclusions().get(entry_id, ())):
        return False  # 'on the orin': the desktop answer is another platform's
    subjects = entry_subjects().get(entry_id)
    if not subjects:
        return True
    ent = reading.entities
    if (ent.gpu_count or 0) >= 2 or (len(ent.gpus) >= 2 and not ent.options):
        said.add(SEVERAL_GPUS)
    return bool(said & set(subjects))


def about_unasked_feature(reading: Reading, entry_id: str) -> bool:
    """The entry's title is about a feature (FP8, TMA...) the question does not name: quoted
    under another question, it only adds noise."""
    features = _entry_names(entry_id)[2]
    return bool(features and not features & frozenset(reading.entities.topics))


@lru_cache(maxsize=1)
def _failure_entries() -> frozenset[str]:
    """Entries that explain a failure ([failures] of entry_subjects.toml): an error, a crash, a
    shutdown, a run far too slow."""
    from assistant.agent.offline.concepts import reports_failure
    from assistant.agent.offline.error_messages import explained_entries
    from assistant.knowledge.entries import load_entries

    listed = _subjects_file().get("failures", {})
    found = set(listed.get("entries", ())) | explained_entries()
    for entry in load_entries():
        if entry.topic in listed.get("topics", ()) or any(
            reports_failure(t) for t in [entry.title, *entry.asked]
        ):
            found.add(entry.id)
    return frozenset(found)


def how_to_for_a_failure(reading: Reading, entry_id: str) -> bool:
    """The question reports a failure and the entry explains none: offered as its nearest
    question, a how-to ('how do I start training on two GPUs?') answers another question than
    'my computer shuts down when I train on two GPUs'."""
    from assistant.agent.offline.concepts import reports_failure

    return reports_failure(reading.text) and entry_id not in _failure_entries()


@lru_cache(maxsize=1)
def _title_terms() -> tuple[dict[str, list[frozenset[str]]], dict[str, float]]:
    """Each entry's titles and phrasings as sets of search tokens, and each token's inverse
    document frequency over all of them (a word most titles share tells little)."""
    from assistant.knowledge.tokens import tokenize

    ids, texts = asked_texts()
    sets = [frozenset(tokenize(t)) for t in texts]
    counts = Counter(t for s in sets for t in s)
    idf = {t: math.log(len(sets) / c) for t, c in counts.items()}
    per_entry: dict[str, list[frozenset[str]]] = {}
    for entry_id, tokens in zip(ids, sets, strict=True):
        if tokens:
            per_entry.setdefault(entry_id, []).append(tokens)
    return per_entry, idf


def title_coverage(text: str) -> dict[str, float]:
    """entry id → the largest share of one of its titles or phrasings (its words weighted by
    rarity) that the question also says: near 1 when the question asks what the entry asks, low
    when only the common words meet ("train", "GPU") and the entry's own subject is missing."""
    from assistant.knowledge.tokens import tokenize

    words = frozenset(tokenize(text))
    per_entry, idf = _title_terms()
    out: dict[str, float] = {}
    for entry_id, sets in per_entry.items():
        best = 0.0
        for tokens in sets:
            # fsum: exactly rounded whatever the set's order, so a title fully said is 1.0
            total = math.fsum(idf[t] for t in tokens)
            if total > 0.0:
                best = max(best, math.fsum(idf[t] for t in tokens & words) / total)
        out[entry_id] = best
    return out


_KIND_GROUPS = {"llm": "language", "llm-moe": "language", "diffusion-image": "image",
                "diffusion-video": "video", "speech": "speech"}  # fmt: skip


@lru_cache(maxsize=1)
def _family_words() -> tuple[tuple[re.Pattern[str], str], ...]:
    """A pattern per model family's name without its version ("Llama 3" -> "llama", "FLUX.1" ->
    "flux", "Stable Diffusion 3" -> "stable diffusion") and the kind of model it names."""
    from assistant.knowledge.model_matching import load_models

    kinds: dict[str, set[str]] = {}
    for model in load_models():
        group = _KIND_GROUPS.get(str(model.kind))
        words: list[str] = []
        for word in str(model.family).lower().split():
            found = re.match(r"[a-z][a-z-]*[a-z]", word)
            if found is None:
                break
            head = found.group(0)
            if head != word and word[len(head)].isdigit() and "-" in head:
                head = head.rsplit("-", 1)[0]  # "deepseek-r1" -> "deepseek"
            words.append(head)
            if head != word:
                break
        if group and words:
            kinds.setdefault(" ".join(words), set()).add(group)
    for group, names in _other_kinds().items():
        for name in names:
            kinds.setdefault(name, set()).add(group)
    return tuple(
        (re.compile(rf"\b{re.escape(name)}(?![a-z])", re.I), group)
        for name, groups in kinds.items()
        if len(groups) == 1
        for group in groups
    )


def _other_kinds() -> dict[str, list[str]]:
    """Kinds of model the model table does not size, by the words that name them
    (model_kinds.toml)."""
    import tomllib
    from importlib import resources

    text = (
        resources.files("assistant.agent.offline").joinpath("model_kinds.toml").read_text("utf-8")
    )
    return dict(tomllib.loads(text)["kinds"])


@cache
def model_kinds(text: str) -> frozenset[str]:
    """The kinds of model a text names ("language", "image", "video"): named models, model
    families ("llama", "flux"), and a bare size such as "13B" (a language model)."""
    from assistant.knowledge.model_matching import find_model_mentions

    kinds = {group for pattern, group in _family_words() if pattern.search(text)}
    for mention in find_model_mentions(text):
        if mention.model is not None:
            kinds.update(g for g in [_KIND_GROUPS.get(str(mention.model.kind))] if g)
        elif mention.params_b:
            kinds.add("language")
    return frozenset(kinds)


@cache
def _entry_kinds(entry_id: str) -> frozenset[str]:
    """The kinds of model an entry's titles and phrasings name, in either language."""
    ids, texts = asked_texts()
    return frozenset().union(
        *(model_kinds(t) for i, t in zip(ids, texts, strict=True) if i == entry_id)
    )


def other_model_kind(text: str, entry_id: str) -> bool:
    """The question and the entry both name models, of different kinds: an entry about image
    models for a question about a language model, or the reverse."""
    asked = model_kinds(text)
    kinds = _entry_kinds(entry_id)
    return bool(asked and kinds and not asked & kinds)


_TRAINING = re.compile(r"\b(?:train\w*|fine-?tun\w*|entra[iî]n\w*)", re.I)
_MEMORY = re.compile(r"\bmemory\b|\bvram\b|\bOOM\b", re.I)
_NOT_TRAINING = re.compile(r"\bnot\s+training\b|\bpas\s+(?:l')?entra[iî]nement\b", re.I)


@cache
def _memory_in_training(entry_id: str) -> bool | None:
    """Whether the entry's question is about memory in training (True), about memory outside
    training ("not training": False), or about something else (None): read once per entry."""
    from assistant.knowledge.entries import get_entry

    entry = get_entry(entry_id, "en")
    if entry is None or not _MEMORY.search(entry.title):
        return None  # the task decides memory; elsewhere "training" in a title is incidental
    if _NOT_TRAINING.search(entry.title):
        return False
    return True if _TRAINING.search(entry.title) else None


@lru_cache(maxsize=256)
def _trains(text: str) -> bool:
    """The question names training or fine-tuning."""
    from assistant.agent.offline.concepts import concepts_in

    return "model_task" in concepts_in(text)


def other_task(text: str, entry_id: str) -> bool:
    """The entry's question is about memory in training and the question names no training (or
    the entry says "not training" and the question trains): 'CUDA out of memory' while generating
    an image is not answered by the training entry."""
    task = _memory_in_training(entry_id)
    return task is not None and task != _trains(text)
