"""Read one turn of a conversation: language, injection, entities, intents, follow-up context.

Both halves of the offline backend (planning tool calls, writing the answer) read the same
turn, so the reading is computed once per conversation and cached.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from assistant.agent.offline.entities import Entities, extract_entities
from assistant.agent.offline.error_messages import ErrorMessage, pasted
from assistant.agent.offline.intents import (
    CLAUSE_MIN,
    MIN_SCORE,
    Classification,
    classify,
    split_clauses,
    tool_intents,
    with_stated_models,
)
from assistant.agent.offline.safety import has_injection, strip_injection
from assistant.agent.offline.spelling import correct_typos
from assistant.language import Lang, detect_language, separate_scripts

_FOLLOW_UP = re.compile(
    r"^\W*(?:and|what about|how about|same|what if|and if|also|ok(?:ay)?,? and|then|et|quid|pareil|idem|"
    r"même chose|aussi|alors|sinon|ok,? et|d'accord,? et)\b",
    re.IGNORECASE,
)
# A follow-up that names a new intent explicitly keeps it; these are the cue strengths that count.
STRONG_CUE = 0.1
HISTORY_TURNS = 3


@dataclass(frozen=True)
class Conversation:
    question: str
    history: list[tuple[str, str]] = field(default_factory=list)

    def key(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The question and its last few turns, hashable: the reading's cache key."""
        return self.question, tuple(self.history[-2 * HISTORY_TURNS :])


@dataclass
class Reading:
    """What the backend understood of the turn."""

    question: str
    language: Lang
    injection: bool
    text: str  # the question without injected instructions
    entities: Entities
    intents: list[str]
    clause_entities: dict[str, Entities] = field(default_factory=dict)
    # every clause's entities, in order, when the message has several clauses
    clauses: list[Entities] = field(default_factory=list)
    follow_up: bool = False
    previous_intents: list[str] = field(default_factory=list)
    earlier: str = ""  # the asker's previous message, when there is one

    @property
    def task_text(self) -> str:
        """The words that say the task: the question's, and the asker's previous message's
        ('I want to fine-tune a ResNet50 …', then a pasted out-of-memory error)."""
        return f"{self.text}\n{self.earlier}" if self.earlier else self.text

    @cached_property
    def pasted_error(self) -> ErrorMessage | None:
        """The known error message the question pastes, read once per turn."""
        return pasted(self.text)

    @property
    def tool_intents(self) -> list[str]:
        """The chosen intents that a tool answers, in order."""
        return [i for i in self.intents if i in tool_intents()]

    def entities_for(self, intent: str) -> Entities:
        """The entities an intent's tool should use: its clause's, completed by the question's."""
        own = self.clause_entities.get(intent)
        if own is None:
            return self.entities
        merged = merge_entities(self.entities, own)
        base = self.entities
        if (
            intent == "workload_fit"
            and base.options
            and len(own.gpus) > 1
            and set(own.gpus) < set(base.gpus)
        ):
            # options checked against one model across sentences ('no chance with a 4070 Ti
            # Super? … only 3090s and 4090s?'): a clause listing some does not drop the others
            merged.gpus, merged.options = list(base.gpus), True
        if intent == "llm_speed" and own.gpus and set(own.gpus) < set(base.gpus):
            # 'with 4x L4 … how fast per request vs the single A100?': every option's speed; and
            # 'Got a Jetson AGX Orin … "faster than a 4090", is that true? … how many tokens/s':
            # the sentence that says "faster" names only the card compared with, the asker's
            # card comes first
            merged.gpus, merged.options = list(base.gpus), True
        if intent == "workload_fit" and own.models and set(own.models) < set(base.models):
            # two models asked in two sentences ('70B at Q8_0? and Qwen3-235B at Q4_K_M?'):
            # each is checked, the clause's first, each at the precision its sentence gives
            merged.models = list(dict.fromkeys([*own.models, *base.models]))
            merged.model_precisions = self._precision_by_model()
        return merged

    def _precision_by_model(self) -> dict[str, str]:
        """The precision each sentence gives the one model it names."""
        found: dict[str, str] = {}
        for ent in self.clauses:
            if len(ent.models) == 1 and ent.precision:
                found.setdefault(ent.models[0], ent.precision)
        return found


def merge_entities(base: Entities, newer: Entities) -> Entities:
    """`base` with every field `newer` sets replacing it (lists replace when non-empty, flags
    when true)."""
    data = base.model_dump()
    for name, value in newer.model_dump().items():
        if value in (None, [], {}) or value is False:
            continue  # unset (a clause that doesn't name the options doesn't undo them)
        data[name] = value
    if newer.gpus and newer.gpu_count is None and base.gpu_counts:
        # the message's counts belong to their cards: '4x L4 … vs the single A100' is one A100
        data["gpu_count"] = base.gpu_counts.get(newer.gpus[0])
    if newer.model_sizes_b and not newer.models:
        # 'and how fast would a 32B Q4 be?' after a 70B: the size asked now is the model
        data["models"], data["unsized_models"] = [], []
    merged = Entities.model_validate(data)
    if base.money and newer.money:
        # A clause's amounts as the whole message reads them: in its currency, a bare '$' as the
        # message's dollar ('… 900 $ CA … 0,35 $ US/h … l'électricité à 0,08 $/kWh').
        whole = {m.text: m for m in base.money}
        merged.money = [whole.get(m.text, m) for m in newer.money]
        if newer.electricity_price is not None:
            merged.electricity_price = whole.get(
                newer.electricity_price.text, newer.electricity_price
            )
    return merged


def _previous_user_turns(history: list[tuple[str, str]]) -> list[str]:
    return [text for role, text in history if role == "user"][-HISTORY_TURNS:]


def _last_assistant(history: list[tuple[str, str]]) -> str:
    return next((text for role, text in reversed(history) if role == "assistant"), "")


def _strong_intents(result: Classification) -> list[str]:
    """Intents the question asks for in so many words (its own cues, not only its resemblance),
    from its classification."""
    by_name = {s.intent: s for s in result.scores}
    strong = []
    for intent in result.intents:
        score = by_name.get(intent)
        if (
            intent in tool_intents()
            and score is not None
            and score.cue >= STRONG_CUE
            and score.score >= MIN_SCORE
        ):
            strong.append(intent)
    return strong


# A follow-up whose own reading is this sure of a tool, and gives what the tool needs, is a new
# question ('Sinon je peux louer : une RTX 4090 à 0,34 $/h, 40 h par mois, combien ?').
SELF_CONTAINED_SCORE = 0.9


def _self_contained(result: Classification, ent: Entities) -> list[str]:
    """The follow-up's own tool intent (from its classification), when it is sure of it and
    names what the tool needs; all its own tool intents when it names both its cards and its
    model ('et si je loue 2× RTX 4090, le fine-tuning complet du 3.3B passe ?' asks afresh)."""
    from assistant.agent.offline.skills.registry import get_skill

    if ent.gpus and (ent.models or ent.model_size_b):
        own = [i for i in result.intents if i in tool_intents()]
        if own:
            return own
    top = result.scores[0] if result.scores else None
    if top is None or top.intent not in tool_intents() or top.score < SELF_CONTAINED_SCORE:
        return []
    skill = get_skill(top.intent)
    if skill is None or not ent.has_facts():
        return []
    if skill.needs and not any(_filled(ent, s) for s in skill.needs):
        return []
    return [top.intent]


def names_the_domain(text: str, ent: Entities) -> bool:
    """The text names a card, a model, a GPU feature or the domain's own words (not words any
    request uses, such as "can you recommend")."""
    from assistant.agent.offline.concepts import concepts_in

    named = bool(ent.gpus or ent.unknown_gpus or ent.models or ent.model_size_b or ent.topics)
    return named or "domain" in concepts_in(text)


def _is_follow_up(text: str, ent: Entities, history: list[tuple[str, str]]) -> bool:
    if not _previous_user_turns(history):
        return False
    if _FOLLOW_UP.search(text):
        return True
    words = len(text.split())
    return (
        words <= 5 and not text.strip().endswith(("!",)) and bool(ent.has_facts() or ent.durations)
    )


@lru_cache(maxsize=256)
def _read_cached(question: str, history: tuple[tuple[str, str], ...]) -> Reading:
    return _read(question, list(history))


def forget_readings() -> None:
    """Forget every question read so far (a benchmark times each ask as a first ask)."""
    _read_cached.cache_clear()


def read_turn(conversation: Conversation) -> Reading:
    """The reading of the conversation's last question (cached)."""
    question, history = conversation.key()
    return _read_cached(question, history)


def _read(asked: str, history: list[tuple[str, str]]) -> Reading:
    question = separate_scripts(asked)
    previous = _previous_user_turns(history)
    default_lang = detect_language(previous[-1]) if previous else "en"
    language = detect_language(question, default=default_lang)
    injection = has_injection(question)
    text = correct_typos(strip_injection(question) if injection else question)
    # Cards named anywhere, even in an injected sentence.
    entities = extract_entities(correct_typos(question))
    if not text.strip():
        return Reading(question, language, injection, text, entities, intents=["declined"])
    own = extract_entities(text)
    result = classify(text, own)
    intents = list(result.intents)
    if intents == ["greeting"] and names_the_domain(text, own):
        # "thanks for your work! (how much memory is needed?)": the question, not the greeting
        intents = [next((s.intent for s in result.scores if s.intent != "greeting"), "corpus_only")]
    reading = Reading(question, language, injection, text, entities, intents=intents)
    order: list[str] = []
    questions = 0
    asking: list[str] = []  # what the clauses that ask land on, in order
    stated: set[str] = set()  # and the clauses that only state something
    told_by: set[str] = set()  # intents whose entities a clause that only states gave
    clauses = split_clauses(text)
    clauses = clauses if len(clauses) > 1 else []
    # 'On pense à Llama 3.1 8B. Sur une L4, ça rentre en pleine précision ?': a clause asks about
    # the model the message named before it
    read = with_stated_models([_as_in_message(extract_entities(c), own) for c in clauses])
    for clause, clause_ent in zip(clauses, read, strict=True):
        asks = _asks(text, clause)
        questions += asks
        reading.clauses.append(clause_ent)
        clause_result = classify(clause, clause_ent)
        top = clause_result.scores[0]
        if top.score >= CLAUSE_MIN and top.intent in tool_intents():
            if asks:
                asking.append(top.intent)
            else:
                stated.add(top.intent)
        if (
            top.intent in reading.intents
            and top.score >= CLAUSE_MIN
            and (top.intent not in reading.clause_entities or (asks and top.intent in told_by))
        ):
            # the first clause on an intent gives its entities, unless it only states something
            # and a later one asks ('a colleague says FP8 … like on H100. Does Orin NX support
            # FP8?': the card asked about is the Orin)
            if top.intent not in order and ("?" not in text or asks):
                order.append(top.intent)
            reading.clause_entities[top.intent] = clause_ent
            told_by.discard(top.intent)
            if not asks:
                told_by.add(top.intent)
    told = reading.intents[0] in stated - set(asking) and reading.intents[0] in PURCHASE_TOLD
    if asking and told and not own.hourly_rates:
        # 'bought a used M1 Max ($1,700) … can it run Llama 3.3 70B at Q4?': what a statement
        # of the message lands on (a purchase) is its setting; what its questions ask leads
        reading.intents = list(dict.fromkeys(asking))
    if "?" in text and questions < 2:
        # One question and statements around it: the message as a whole says what comes first
        order = []
    if order:
        # Several questions in one message are answered in the order they were asked; a clause
        # that only states something ("I train 3 LoRAs a week") asks nothing of its own.
        first = len(order)
        reading.intents.sort(key=lambda i: order.index(i) if i in order else first)
    if _is_follow_up(text, own, history) or _leans_on_history(reading.intents, own, history):
        _complete_from_history(reading, own, history, result)
    elif history:
        _carry_cards(reading, own, history)
        _set_beside_earlier(reading, own, history)
    if history:
        _carry_model(reading, own, history)
        _carry_usage(reading, own, history)
        reading.earlier = next(iter(_previous_user_turns(history)[-1:]), "")
    return reading


def _carry_usage(reading: Reading, own: Entities, history: list[tuple[str, str]]) -> None:
    """A question that says no hours a day ('how much is that per month at ₱13.50/kWh?') takes
    the hours the asker gave in an earlier turn ('i render at night, like 6 hours a day'), the
    latest one."""
    if own.hours_per_day is not None or reading.entities.hours_per_day is not None:
        return
    for earlier in _earlier_turns(history):
        daily = [d for d in earlier.durations if d.per_day is not None]
        if daily:
            reading.entities = reading.entities.model_copy(
                update={"durations": [*reading.entities.durations, daily[0]]}
            )
            return


# A purchase a statement tells ('bought a used M1 Max ($1,700)') with no rental to weigh it
# against: the message's setting, not its question.
PURCHASE_TOLD = frozenset({"rent_vs_buy", "purchase_price"})

# What a question that names no card takes from the asker's earlier turns: the card they said
# they have, how many, and its memory.
CARRIED_CARD_SLOTS = ("gpus", "unknown_gpus", "gpu_count", "gpu_counts", "card_memory", "vram_gb")


def _earlier_turns(history: list[tuple[str, str]]) -> Iterator[Entities]:
    """The entities of the asker's earlier turns, the latest first, each read when reached."""
    for turn in reversed(_previous_user_turns(history)):
        yield extract_entities(correct_typos(turn))


def _carry_cards(reading: Reading, own: Entities, history: list[tuple[str, str]]) -> None:
    """A new question that names no card ('which model size should I pick?') is about the card
    the asker named in an earlier turn ('I have a Radeon RX 7800 XT (16gb)'), the latest one."""
    if own.gpus or own.unknown_gpus or own.vram_gb:
        return
    for earlier in _earlier_turns(history):
        if earlier.gpus or earlier.unknown_gpus:
            carried = {slot: getattr(earlier, slot) for slot in CARRIED_CARD_SLOTS}
            reading.entities = reading.entities.model_copy(update=carried)
            reading.entities = _one_card(reading.text, reading.entities, history)
            return


def _carry_model(reading: Reading, own: Entities, history: list[tuple[str, str]]) -> None:
    """A bare size that an earlier turn gave with its model ('llama 3.3 70b … q4_k_m', then
    'for the 70b use case which wins?') is that model, at the precision named with it unless
    this turn names one."""
    from assistant.knowledge.model_matching import parse_param_count

    if own.models or not own.model_size_b:
        return
    for earlier in _earlier_turns(history):
        for model in earlier.models:
            if parse_param_count(model) == own.model_size_b:
                update: dict[str, object] = {"models": [model]}
                if not own.precision and earlier.precision:
                    update["precision"] = earlier.precision
                reading.entities = reading.entities.model_copy(update=update)
                return


def _set_beside_earlier(reading: Reading, own: Entities, history: list[tuple[str, str]]) -> None:
    """One card named to replace or be compared with what the asker has ('On a 3 Jetson Xavier
    NX …' then 'remplacer par des Orin Nano Super ? Compare-moi les chiffres'): the card named
    in an earlier turn is the other side, first."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.agent.offline.quantities import phrase_spans

    if len(own.gpus) != 1 or own.unknown_gpus or own.hourly_rates:
        return  # 'buy an 8x H200 box vs keep renting at $3.50/GPU-hour?': buying against renting
    if not {"compare", "hindsight"} & concepts_in(reading.text) and not phrase_spans(
        "replaces", reading.text
    ):
        return
    for earlier in _earlier_turns(history):
        other = [g for g in earlier.gpus if g not in own.gpus]
        if other:
            gpus = [other[0], *reading.entities.gpus]
            reading.entities = reading.entities.model_copy(update={"gpus": gpus})
            return


_QUESTION_WORD = re.compile(
    r"\b(?:how|what|which|who|when|where|why|does|do|is|are|can|could|should|will|would|combien"
    r"|quel|quelle|quels|quelles|comment|pourquoi|est-ce|peut-on|puis-je)\b",
    re.IGNORECASE,
)
QUESTION_WORD_SPAN = 40  # how far into a clause its question word may sit: 'On a 4060, how many'


def _asks(text: str, clause: str) -> bool:
    """Whether the clause asks something: it ends in a question mark in the message, or a
    question word opens it and its sentence ends in one ('how many tokens/s for Llama 8B, and how
    many users at once?')."""
    at = text.find(clause)
    if at < 0:
        return False
    after = text[at + len(clause) :]
    if after[:3].lstrip(" ,.").startswith("?"):
        return True
    end = re.search(r"[.?!]", after)
    return bool(end and end.group() == "?" and _QUESTION_WORD.search(clause[:QUESTION_WORD_SPAN]))


def _as_in_message(clause: Entities, whole: Entities) -> Entities:
    """A clause's cards as the whole message names them: 'une 4090' in a message about 'un
    portable gamer avec une RTX 4090' is the laptop card, which the clause alone cannot tell."""
    renamed: dict[str, str] = {}
    for card in clause.gpus:
        if card in whole.gpus:
            continue
        wider = [w for w in whole.gpus if w.startswith(card + " ")]
        if len(wider) == 1:
            renamed[card] = wider[0]
    if not renamed:
        return clause

    def keyed(values: dict[str, Any]) -> dict[str, Any]:
        return {renamed.get(k, k): v for k, v in values.items()}

    return clause.model_copy(
        update={
            "gpus": [renamed.get(c, c) for c in clause.gpus],
            "card_memory": keyed(clause.card_memory),
            "card_counts": keyed(clause.card_counts),
        }
    )


def _filled(ent: Entities, slot: str) -> bool:
    value = getattr(ent, slot, None)
    return value is not None and value != [] and value != {}


def _leans_on_history(intents: list[str], own: Entities, history: list[tuple[str, str]]) -> bool:
    """A calculator question that gives none of what its tool needs ("what does that cost me per
    month?") takes it from the previous turn, when that turn has it (the card, the wattage)."""
    from assistant.agent.offline.skills.registry import get_skill

    previous = _previous_user_turns(history)
    skill = get_skill(intents[0]) if intents and previous else None
    if skill is None or not skill.needs or any(_filled(own, s) for s in skill.needs):
        return False
    prev = _read_cached(previous[-1], tuple(history[:-2]) if len(history) >= 2 else ())
    return any(_filled(prev.entities, s) for s in skill.needs)


def _complete_from_history(
    reading: Reading, own: Entities, history: list[tuple[str, str]], own_result: Classification
) -> None:
    """Fill what a follow-up leaves out ("and the 3090?", "et en location ?") from the last turn
    (`own_result`: the follow-up's own classification)."""
    prev_question = _previous_user_turns(history)[-1]
    prev = _read_cached(prev_question, tuple(history[:-2]) if len(history) >= 2 else ())
    inherited = prev.entities
    if not inherited.gpus and not inherited.unknown_gpus:
        answer_cards = extract_entities(_last_assistant(history)[:600]).gpus[:1]
        inherited = merge_entities(inherited, Entities(gpus=answer_cards))
    if own.gpus or own.unknown_gpus:
        inherited = inherited.model_copy(
            update={"gpus": [], "unknown_gpus": [], "card_memory": {}, "card_counts": {}}
        )
    else:
        inherited = _one_card(reading.text, inherited, history)
    from assistant.agent.offline.concepts import names_concept

    if not own.method and names_concept("concurrency", reading.text):
        # 'how many conversations at once?' after a LoRA turn: serving is inference
        inherited = inherited.model_copy(update={"method": None, "methods": []})
    reading.entities = merge_entities(inherited, own)
    if not (own.gpus or own.unknown_gpus):
        reading.entities.options = inherited.options  # the cards and how they relate carry on
    strong = _strong_intents(own_result)
    prev_tools = prev.tool_intents
    reading.follow_up = True
    reading.previous_intents = prev_tools
    confident = _self_contained(own_result, own)
    if strong:
        # in the order the follow-up's own classification gives them
        reading.intents = [i for i in own_result.intents if i in strong or i in confident]
    elif confident:
        reading.intents = confident
    elif prev_tools:
        reading.intents = _adapt_previous(prev_tools, reading.entities, own)
    reading.clause_entities = {}


def _one_card(text: str, inherited: Entities, history: list[tuple[str, str]]) -> Entities:
    """'the card is rated 295 W' after 'other option is 2 used 3090s': one card, so not the pair
    the last turn named but the single card of an earlier turn (the latest), when there is one."""
    from assistant.agent.offline.quantities import phrase_spans

    if not phrase_spans("one_card", text) or not inherited.gpus:
        return inherited
    if all(inherited.gpu_counts.get(g, 1) <= 1 for g in inherited.gpus):
        return inherited
    for earlier in _earlier_turns(history):
        single = [g for g in earlier.gpus if earlier.gpu_counts.get(g, 1) <= 1]
        if single:
            return inherited.model_copy(
                update={
                    "gpus": single[:1],
                    "unknown_gpus": [],
                    "gpu_count": None,
                    "gpu_counts": {},
                    "card_counts": {},
                    "card_memory": {k: v for k, v in earlier.card_memory.items() if k == single[0]},
                    "options": False,
                }
            )
    return inherited


def _adapt_previous(previous: list[str], ent: Entities, own: Entities) -> list[str]:
    """The previous turn's intents, adjusted to what the follow-up changes."""
    out = []
    for intent in previous:
        if intent == "gpu_compare" and own.gpus and len(ent.gpus) < 2:
            intent = "gpu_lookup"
        if intent not in out:
            out.append(intent)
    return out
