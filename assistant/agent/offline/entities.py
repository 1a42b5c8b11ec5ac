"""What a question names, explicitly: cards, topics, models, money, durations, guide parts.

Cards, topics, models and amounts come from their owners' matchers (catalog, capability, fit,
money); this module only adds what no other module reads — durations, percentages, guide parts,
condition and buy/rent mode — and flags card-like names the catalog does not know.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from assistant.agent.offline.card_roles import (
    CardSpan,
    are_options,
    card_counts,
    card_vendors,
    elsewhere_cards,
    options_between,
    own_variants,
    owned_cards,
    requirement_cards,
    requirement_memory,
)
from assistant.agent.offline.concepts import names_concept
from assistant.agent.offline.numbers import Duration, parse_durations, parse_percentages
from assistant.agent.offline.phrases import any_of, blank, negated_at
from assistant.agent.offline.quantities import (
    HOURS_PER_DAY,
    MAX_COUNT,
    count_each,
    idle_hours,
    in_servers,
    media_lengths,
    memory_in_use,
    per_card_watts,
    phrase_spans,
    read_battery,
    read_energy,
    read_fuel_rate,
    read_machines,
    read_power,
    read_pue,
    repeats_per_year,
    work_hours,
)
from assistant.agent.offline.usage import (
    always_on,
    concurrent_requests,
    continuous_job,
    speedup_by_card,
    utilisation,
    working_days,
)
from assistant.language import pasted_error_spans, sentence_before
from assistant.money import (
    Currency,
    NoExchangeRate,
    PairRate,
    asked_currency,
    convert_stated,
    parse_exchange_rate,
    parse_pair_rates,
)

Condition = Literal["used", "new"]
Mode = Literal["buy", "rent"]

CALENDAR_UNITS = frozenset({"day", "week", "month", "year"})  # spans counted in days


class MoneyMention(BaseModel):
    amount: float
    high: float | None = None
    currency: Currency
    per_hour: bool = False
    per: Literal["hour", "day", "month", "kwh", "litre"] | None = None
    text: str = ""
    paid: bool = Field(default=False, description="Already spent: 'bought it for £260'")
    added: bool = Field(
        default=False, description="Added to the amount before it: '2 400 € + ~800 € for the PC'"
    )


class Entities(BaseModel):
    """Everything explicit in one message."""

    gpus: list[str] = Field(default_factory=list, description="Catalog names, in order of mention")
    unknown_gpus: list[str] = Field(
        default_factory=list, description="Card-like names not in the catalog"
    )
    suggestions: dict[str, list[str]] = Field(default_factory=dict)
    topics: list[str] = Field(default_factory=list, description="Feature or topic keys")
    models: list[str] = Field(default_factory=list, description="Model names from the model table")
    model_size_b: float | None = Field(default=None, description="A bare size like '70B model'")
    memory_options: list[float] = Field(
        default_factory=list,
        description="Memory sizes offered as alternatives: '16 Go à 699 € ou 24 Go' (16, 24)",
    )
    model_sizes_b: list[float] = Field(
        default_factory=list,
        description="Every bare size, in order: 'an 8B in Q4 … and a 14B?' (8, 14)",
    )
    unsized_models: list[str] = Field(
        default_factory=list, description="Models named without their size: 'Wan 2.1'"
    )
    money: list[MoneyMention] = Field(default_factory=list)
    durations: list[Duration] = Field(default_factory=list)
    percentages: list[float] = Field(default_factory=list)
    parts: list[int] = Field(default_factory=list, description="Guide parts 1-9")
    up_to_part: int | None = None
    condition: Condition | None = None
    mode: Mode | None = None
    vram_gb: float | None = Field(default=None, description="A memory size named without a card")
    storage_gb: float | None = None
    precision: str | None = None
    precisions: list[str] = Field(
        default_factory=list, description="Every precision named, in order ('q4 vs fp16')"
    )
    method: str | None = Field(
        default=None, description="inference, lora, qlora, full, or finetune (no method named)"
    )
    methods: list[str] = Field(
        default_factory=list,
        description="Each fine-tuning method named (qlora, lora, full), in the message's order",
    )
    context_tokens: int | None = None
    batch_size: int | None = None
    power_w: float | None = Field(default=None, description="The working draw, in watts")
    idle_w: float | None = Field(default=None, description="The draw while idle, in watts")
    power_options: list[float] = Field(
        default_factory=list, description="Every distinct working draw: '600 W … or 300 W?'"
    )
    wall_w: float | None = Field(
        default=None, description="The whole computer's draw at the plug: '180 W from the wall'"
    )
    power_cap_w: float | None = Field(
        default=None, description="A limit the asker would set: 'and if I cap it at 300 W?'"
    )
    rest_w: float | None = Field(
        default=None,
        description="The rest of the machine besides the cards: '+ 150 W for the rest of the PC'",
    )
    psu_w: float | None = Field(
        default=None, description="The power supply's rating: 'my 250W PSU'"
    )
    pue: float | None = Field(default=None, description="A data centre's PUE: 'a PUE of 1.4'")
    machines: int | None = Field(
        default=None, description="How many machines hold the cards: '4 servers'"
    )
    counts_per_machine: bool = Field(
        default=False, description="The cards' count is per machine: '4 DGX-style 8x H100 servers'"
    )
    servers: bool = Field(default=False, description="The cards sit in servers or a data centre")
    card_power_w: dict[str, float] = Field(
        default_factory=dict, description="A card's own watts: '1080 Ti (250 W)'"
    )
    work_hours_per_day: float | None = Field(
        default=None, description="Working hours a day, when the message also gives idle hours"
    )
    idle_hours_per_day: float | None = Field(
        default=None, description="Hours a day on but idle: '24h/24', 'idle 22 h a day'"
    )
    gpu_count: int | None = Field(
        default=None, description="How many of the card: 'two 3090s', '8x H100'"
    )
    gpu_counts: dict[str, int] = Field(default_factory=dict, description="How many of each card")
    usd_per_eur: float | None = Field(default=None, description="A rate stated: '1 € = 1,08 $'")
    electricity_price: MoneyMention | None = Field(
        default=None, description="The price per kWh: '$0.32/kWh', '15 cents/kWh'"
    )
    fuel_price: MoneyMention | None = Field(
        default=None, description="A fuel's price per litre: '1,6 USD le litre', 'N1,150/L'"
    )
    fuel_l_per_h: float | None = Field(
        default=None, description="A generator's fuel use: '1,2 L/h de gasoil'"
    )
    battery_wh: float | None = Field(
        default=None, description="A battery's capacity: 'EcoFlow Delta 2 (1024 Wh)'"
    )
    energy_kwh: float | None = Field(default=None, description="An energy figure: '5,600 kWh'")
    energy_period: Literal["day", "month", "year"] | None = None
    repeats_per_year: float | None = Field(default=None, description="'4 such runs a year'")
    required_vram_gb: float | None = Field(
        default=None, description="Memory a project asks for: 'requires at least 16GB of VRAM'"
    )
    owned_gpus: list[str] = Field(
        default_factory=list,
        description="Cards the message names as the asker's own ('I only have a GTX 1660 Ti')",
    )
    required_cards: list[str] = Field(
        default_factory=list,
        description="Cards named as what a project asks for: 'the requirements could use a 3070'",
    )
    bare_kwh_price: float | None = Field(
        default=None,
        description="A price per kWh with no currency ('power is 0.30 per kWh'): in the "
        "currency the answer works in",
    )
    always_on: bool = Field(default=False, description="The machine runs all day: '24/7'")
    continuous_job: bool = Field(
        default=False, description="A job runs through a span: 'a 6-month training run'"
    )
    days_per_month: float | None = Field(
        default=None, description="Days of use a month: '22 working days', '5 days a week'"
    )
    utilisation: float | None = Field(
        default=None, description="Share of the time in use, 0-1: '40 % of the time'"
    )
    speedups: dict[str, float] = Field(
        default_factory=dict, description="How many times faster a card runs: 'H100 2x faster'"
    )
    buy_mentioned: bool | None = Field(default=None, description="Buying is named, rent or not")
    energy_card: str | None = Field(default=None, description="The card the energy figure is about")
    work_hours: float | None = Field(
        default=None,
        description="A job's length from a count and a rate of items: '400,000 pages at 0.8 pages/s'",
    )
    memory_in_use_gb: float | None = Field(
        default=None,
        description="Memory something else holds on the card: 'the game itself uses 5.5 GB'",
    )
    card_memory: dict[str, float] = Field(
        default_factory=dict,
        description="The memory size the asker gives a named card ('Mac mini M4 24 Go'), by name",
    )
    stated_memory: dict[str, float] = Field(
        default_factory=dict,
        description="Every size written with a card's name, the catalog's own included ('p106-090"
        " 6gb'), as written (before the variant it picks renames the card)",
    )
    model_precisions: dict[str, str] = Field(
        default_factory=dict,
        description="The precision each sentence gives the model it names, when several are asked",
    )
    memory_claims: dict[str, float] = Field(
        default_factory=dict,
        description="More memory than the card has, as the asker says ('my 4090 has 48 GB')",
    )
    card_counts: dict[str, int] = Field(
        default_factory=dict, description="How many of each named card ('4x 4060ti' → 4)"
    )
    options: bool = Field(
        default=False,
        description="The named cards are alternatives ('A or B', 'A vs B'), not one machine",
    )

    def memory_of(self, card: str) -> float | None:
        """The memory the asker gives `card`, when they give one; for the one Mac named, the
        memory size the message gives anywhere ('M4 Max chip (16-core CPU, 40-core GPU) 128GB
        unified memory': its memory is the machine's)."""
        if card in self.card_memory:
            return self.card_memory[card]
        if self.gpus == [card] and self.vram_gb and _unified([card]):
            return self.vram_gb
        return None

    @property
    def model_precision(self) -> str | None:
        """The precision a named model is to run at ('Llama 405B in FP8'), or None: a format named
        with no model is a feature question, not a setting of a fit."""
        return self.precision if (self.models or self.model_size_b) else None

    @property
    def total_hours(self) -> float | None:
        """The job's length from a count and a rate of items, else the first span of time named
        (not a daily rate), in hours, or None."""
        if self.work_hours is not None:
            return self.work_hours
        daily = self.work_hours_per_day or next(
            (d.per_day for d in self.durations if d.per_day is not None), None
        )
        for d in self.durations:
            if d.per_day is None and d.hours is not None:
                if daily is None or d.unit not in CALENDAR_UNITS:
                    return d.hours
                # '3 hours a day for a month': the days of the span at the daily use
                days = (
                    d.count * self.days_per_month
                    if d.unit == "month" and self.days_per_month
                    else d.hours / 24
                )
                return daily * days
        return None

    @property
    def hours_per_day(self) -> float | None:
        """The working hours a day stated, else the first daily rate named, or None."""
        if self.work_hours_per_day is not None:
            return self.work_hours_per_day
        for d in self.durations:
            if d.per_day is not None:
                return d.per_day
        return HOURS_PER_DAY if self.always_on or self.continuous_job else None

    @property
    def hourly_rates(self) -> list[MoneyMention]:
        """The amounts given per hour."""
        return [m for m in self.money if m.per_hour]

    @property
    def budgets(self) -> list[MoneyMention]:
        """The amounts given with no period: budgets or prices."""
        return [m for m in self.money if m.per is None]

    @property
    def spendable(self) -> list[MoneyMention]:
        """The budgets still to spend: not what the asker already paid ('bought it for £260')."""
        return [m for m in self.budgets if not m.paid]

    @property
    def purchase_total(self) -> float | None:
        """The first amount to pay with the amounts added to it ('2 400 € + ~800 € for the PC':
        3 200 €), None without one."""
        return _with_added(self.budgets)

    @property
    def spendable_total(self) -> float | None:
        """The first budget still to spend with the amounts added to it ('1000 euros plus 200
        from selling my old card': 1,200), None without one."""
        return _with_added(self.spendable)

    def count_of(self, card: str) -> int | None:
        """How many of this card the message names ('8x H100'), else the message's one count."""
        if card in self.gpu_counts:
            return self.gpu_counts[card]
        return None if self.gpu_counts else self.gpu_count

    def has_figures(self) -> bool:
        """Whether the message gives a calculator something of its own: money, hours, watts,
        a storage size, a price per kWh."""
        return bool(
            self.money
            or self.durations
            or self.power_w is not None
            or self.storage_gb is not None
            or self.electricity_price is not None
            or self.energy_kwh is not None
        )

    def has_facts(self) -> bool:
        """Whether the message names anything the tools can work with."""
        return bool(
            self.gpus or self.unknown_gpus or self.topics or self.models or self.money or self.parts
        )


# Card-like names: a product line and a number ("RTX 9090", "GTX 7777 Ti", "RX 9900 XT"), or a
# datacenter-style letter and number ("H900", "B250", "MI400X").
# Intel's data-centre GPUs by series and number ('Max 1550', 'Flex 170')
_INTEL_SERIES = r"(?:max|flex)"
_CARD_LIKE = re.compile(
    r"\b(?:(?:geforce\s+)?(?:rtx|gtx|rx|radeon|quadro|titan)\s*-?\s*(?:pro\s+)?[a-z]?\d{3,5}[a-z]?"
    r"(?:\s+(?:ti|super|xtx|xt|ada|max(?!\s*\d)))?"  # 'RTX 3060 max 170 W': a limit
    r"|(?:mi)\d{2,3}[a-z]?|(?:[abhl]\d{2,3}|v\d{3})[a-z]?(?:\s+(?:sxm\d?|pcie|nvl))?"
    # Intel's series and number: a card only when exactly one catalog name ends so ('max 1000 W'
    # is no card)
    rf"|{_INTEL_SERIES}\s+\d{{3,4}})\b",
    re.IGNORECASE,
)
_SERIES_NUMBER = re.compile(rf"{_INTEL_SERIES}\s", re.IGNORECASE)
_PART = re.compile(
    r"\b(?:part(?:ie)?s?|chap(?:ter|itre)s?)\s*(\d)(?:\s*(?:,|and|et|&|/|-|to|à)\s*(\d))?",
    re.IGNORECASE,
)
_UP_TO_PART = re.compile(
    r"\b(?:up to|through|until|jusqu'?(?:à|a)(?:\s+la)?)\s+part(?:ie)?\s*(\d)", re.IGNORECASE
)
_USED = re.compile(
    r"\b(?:used|second[- ]hand|refurbished|pre-owned|occasion|reconditionn[ée]e?s?)\b", re.I
)
_NEW = re.compile(r"\b(?:brand[- ]new|new|neuf|neuve|neufs|neuves)\b", re.I)
# Hardware on the asker's own premises: a machine to own, though "buy" is not said.
_LOCAL = re.compile(
    r"\b(?:locally|en local|on[- ]prem(?:ise|ises)?|sur site|dans nos locaux|in-house|"
    r"local (?:llms?|ai|ia|box|server|serveur|machine|models?|mod[eè]les?))\b",
    re.I,
)
# Words of renting: whether the asker means to rent (a mode), narrower than the `rent` concept,
# which also takes an hourly price or a provider's name as a sign of a rental being discussed.
_RENTING = re.compile(
    r"\b(?:rent|renting|rental|rented|hire|lease|cloud|hourly|louer|location|loue|lou[ée]e?s?)\b",
    re.I,
)


def renting_starts(text: str) -> list[int]:
    """Where each renting word starts ('rent an A100 or buy a used 3090?')."""
    return [m.start() for m in _RENTING.finditer(text)]


_MEMORY = re.compile(
    r"(?<![\d.,])\b(\d{1,3}(?:[.,]\d{1,2})?)\s*(?:gb|go|gib|g)\b(?!\s*\/?\s*s\b)", re.I
)
_STORAGE = re.compile(
    r"\b(\d{1,5}(?:[.,]\d)?)\s*(tb|to|gb|go)\b(?=[^.?!]{0,40}\b(?:disk|disque|storage|stockage|volume|ssd)\b)"
    r"|\b(?:disk|disque|storage|stockage|volume|ssd)\b[^.?!\d]{0,30}(\d{1,5}(?:[.,]\d)?)\s*(tb|to|gb|go)\b",
    re.I,
)
_PRECISION = re.compile(
    r"\b(fp32|fp16|bf16|fp8|fp4|int8|int4|nf4|q[2-8]_(?:k(?:_[sml])?|[01])|q4|q8|"
    r"4[- ]?bits?|8[- ]?bits?|16[- ]?bits?)\b",
    re.I,
)
# llama.cpp's GGUF types by their bits: the fit calculator sizes the usual one of each
# ('Q4_K_S' as Q4_K_M); below 4 bits, the 4-bit size is the safe side.
_GGUF = {"2": "q4_k_m", "3": "q4_k_m", "4": "q4_k_m", "5": "q5_k_m", "6": "q6_k", "7": "q8_0",
         "8": "q8_0"}  # fmt: skip
_NAMED_METHODS = ("qlora", "lora", "full")  # the methods with a memory recipe of their own
_METHOD = [
    ("qlora", re.compile(r"\bq-?loras?\b", re.I)),
    ("lora", re.compile(r"\bloras?\b", re.I)),
    (
        "full",
        re.compile(
            r"\bfull(?:y)?[- ](?:fine[- ]?tun\w*|train\w*)|\b(?:fine[- ]?tuning|entraînement) complet",
            re.I,
        ),
    ),
    (
        # Fine-tuning or training without a method named: the answer weighs the methods.
        "finetune",
        re.compile(
            r"\b(?:fine[- ]?tun\w*|finetun\w*|affiner|train|training|trainer|entra[îi]n\w*)\b"
            r"|训练|微调|学習|학습",  # no word boundaries in Chinese, Japanese or Korean
            re.I,
        ),
    ),
    (
        "inference",
        re.compile(
            r"\b(?:inference|inférence|serve|serving|run|generate|chat with)\b|推理|部署|跑", re.I
        ),
    ),
]
_HALF = ("bf16", "fp16")
_PURE = re.compile(r"\bpure\b|\bpur\b|\bfull[- ]bf16\b|\benti[eè]rement en\b", re.I)
_MIXED = re.compile(r"\bmixed[- ]precision\b|\bpr[ée]cision mixte\b|\bamp\b", re.I)
_CONTEXT = re.compile(
    r"\b(\d{1,4})\s*k[\s-]*(?:tokens?[\s-]*)?(?:(?:of|de)\s+)?(?:context|contexte|ctx|requests?|prompts?|sequences?|"
    r"conversations?|requêtes?|séquences?)|\b(?:context|contexte)s?\s*(?:of|de)?\s*(\d{1,4})\s*k\b",
    re.I,
)
# "4k prompts" is prompts of 4k tokens; "200k sequences" (a data set) is no length: a count of
# things is a length only up to this many thousand tokens, or with the word "tokens"
COUNTED_LENGTH_MAX_K = 32
_COUNTED = re.compile(r"requ|prompt|s[ée]quence|conversation", re.I)


def _a_length(match: re.Match[str]) -> bool:
    """A `_CONTEXT` match is a length of context, not a count of sequences in a data set."""
    said = match.group(0)
    if match.group(1) is None or not _COUNTED.search(said) or "token" in said.lower():
        return True
    return int(match.group(1)) <= COUNTED_LENGTH_MAX_K


# A context or sequence length written as a number: "max_seq_length=32768", "context length 8192"
_CONTEXT_SET = re.compile(
    r"\b(?:max_seq_len(?:gth)?|max_length|max_model_len|seq_len(?:gth)?|sequence length|"
    r"context length|context window|n_ctx|num_ctx|ctx_size|longueur de (?:contexte|séquence))"
    r"\s*(?:=|:|of|de)?\s*(\d{3,7})\b",
    re.I,
)
# A context written in tokens: "~1500 tokens of context", "1 500 tokens de contexte"
_CONTEXT_TOKENS = re.compile(
    r"\b(\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+|\d{3,7})\s*tokens?\s+(?:of\s+|de\s+)?(?:context|contexte)\b"
    # 'conversations of 3000 tokens', 'nos conversations font ~3000 tokens', 'prompts de 2 000 tokens'
    r"|\b(?:conversations?|chats?|prompts?|requests?|requ[êe]tes?|s[ée]quences?)\s+(?:of|de|font|are|average|make)?"
    r"\s*(?:~|about|around|environ|en moyenne)?\s*(\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+|\d{3,7})\s*tokens?\b",
    re.I,
)
_BATCH = re.compile(r"\bbatch(?:\s*size)?\s*(?:of|de|=)?\s*(\d{1,4})\b", re.I)
_EXPONENT = re.compile(
    r"\b(\d+(?:[.,]\d+)?)\s*(?:\^|\*\*)\s*(\d{1,3})\b|\b(\d+(?:\.\d+)?)e(\d{1,3})\b"
)


def _expand_exponents(text: str) -> str:
    """'10^12 €' and '1e12 €' written out, so amounts read whole rather than as '12 €'."""

    def repl(m: re.Match[str]) -> str:
        """The power written out as a whole number, or the match as written when it overflows."""
        try:
            if m.group(1):
                value = float(m.group(1).replace(",", ".")) ** int(m.group(2))
            else:
                value = float(m.group(3)) * 10 ** int(m.group(4))
        except (OverflowError, ValueError):
            return m.group(0)
        return f"{value:.0f}" if value < 1e300 else m.group(0)

    return _EXPONENT.sub(repl, text)


PAID_BEFORE = 60  # how far before an amount a word such as "bought" may sit in its clause
# ...with the amount itself the price: 'bought it last year for £260', 'payé 700 €', not 'bought a
# 3090 and now have 500 € for another card'
_HEDGE, _ADDED_WORDS = any_of("hedge"), any_of("added")
_PAID_AMOUNT = re.compile(
    rf"\b(?:for|at|à|pour|paid|payée?|spent|dépensé)\s*{_HEDGE}?\s*$", re.IGNORECASE
)


def _with_added(mentions: list[MoneyMention]) -> float | None:
    """The first amount and those added right after it; None without an amount."""
    if not mentions:
        return None
    total = mentions[0].amount
    for m in mentions[1:]:
        if not m.added:
            break
        total += m.amount
    return total


# Right before an amount, in its clause: it adds to the amount before it ('2 400 €, + ~800 € to
# upgrade my PC', 'plus 300 € for a power supply').
_ADDED_AMOUNT = re.compile(rf"{_ADDED_WORDS}\s*{_HEDGE}?\s*$", re.IGNORECASE)


def _in_one_currency(
    mentions: list[MoneyMention],
    pairs: list[PairRate],
    usd_per_eur: float | None,
    asked: Currency | None = None,
) -> list[MoneyMention]:
    """Every amount in the currency of the message's first one ('a 3090 at 900 $ CA, or rent at
    0,35 $ US/h': the rate in Canadian dollars), at the rate the message states between the two,
    else at the configured or reference rates; the text keeps what the asker wrote. `asked`: the
    currency the asker wants the answer in ('combien en FCFA ?'), used when every amount
    converts to it."""
    if not mentions:
        return mentions
    if asked is not None and asked != mentions[0].currency:
        try:
            for m in mentions:
                convert_stated(1.0, m.currency, asked, pairs, usd_per_eur)
        except NoExchangeRate:
            asked = None
    main = asked or mentions[0].currency

    def converted(value: float | None, cur: Currency) -> float | None:
        return None if value is None else convert_stated(value, cur, main, pairs, usd_per_eur)

    out = []
    for m in mentions:
        if m.currency != main:
            try:
                m = m.model_copy(
                    update={
                        "amount": converted(m.amount, m.currency),
                        "high": converted(m.high, m.currency),
                        "currency": main,
                    }
                )
            except NoExchangeRate:
                continue  # no rate on record and none stated: not mixed into the main currency
        out.append(m)
    return out


# "0,35 € le million de tokens", "$0.15 per 1M tokens", "$2/M tokens"
_PER_TOKENS = re.compile(
    r"\s*(?:/|per|par|le|the|for|pour|a|un)?\s*(?:1\s*)?(?:million|m|mtok|k|1k|mille|thousand)?"
    r"\s*(?:de\s+|d')?(?:input\s+|output\s+)?tokens?\b",
    re.IGNORECASE,
)


BILLED_UNIT_SPAN = 12  # room after an amount for 'per unit'


def _money(text: str, drawn: bool) -> list[MoneyMention]:
    """The amounts of the text; `drawn`: the message states a power draw or names electricity
    ('my CEB bill … Rs 52 per unit'), so an amount 'per unit' is a price per kWh."""
    from assistant.agent.offline.numbers import same_sentence_before
    from assistant.agent.offline.quantities import phrase_spans
    from assistant.money import parse_money

    out: list[MoneyMention] = []
    for p in parse_money(text):
        if _PER_TOKENS.match(text, p.end):
            continue  # an API's price per million tokens: neither a budget nor a rate in time
        before = same_sentence_before(text, p.start, PAID_BEFORE)
        per = p.per
        if per is None and drawn:
            unit = phrase_spans("billed_unit", text[p.end : p.end + BILLED_UNIT_SPAN])
            per = "kwh" if unit and unit[0][0] <= 1 else None  # 'Rs 8 per unit' of a bill
        if per is None and _kwh_priced_before(before):
            per = "kwh"
        out.append(
            MoneyMention(
                amount=p.amount,
                high=p.high,
                currency=p.currency,
                per_hour=per == "hour",
                per=per,
                text=p.text,
                paid=per is None
                and bool(phrase_spans("paid", before))
                and bool(_PAID_AMOUNT.search(before)),
                added=bool(out) and per is None and bool(_ADDED_AMOUNT.search(before)),
            )
        )
    return out


_APPROX_END = re.compile(rf"(?:\s*{_HEDGE})*\s*$", re.I)
KWH_BEFORE_SPAN = 40  # room between 'le kWh' and the amount it is priced at


def _kwh_priced_before(before: str) -> bool:
    """The text before an amount names a kWh and then prices it: 'le kWh de la génératrice
    revient à environ' (55 gourdes), 'one kWh costs' (NT$4.5)."""
    from assistant.agent.offline.quantities import phrase_spans

    kwh = phrase_spans("kwh_before", before)
    if not kwh or len(before) - kwh[-1][1] > KWH_BEFORE_SPAN:
        return False
    rest = _APPROX_END.sub("", before[kwh[-1][1] :])
    verbs = phrase_spans("priced_at", rest)
    return bool(verbs) and verbs[-1][1] == len(rest)


# "GPU 0 has a total capacity of 12.00 GiB of which 312.00 MiB is free" (PyTorch's OOM message),
# and its older form "(GPU 3; 21.99 GiB total capacity; ...)"
_CAPACITY = re.compile(
    r"total capacity of\s*(\d+(?:[.,]\d+)?)\s*gib|(\d+(?:[.,]\d+)?)\s*gib total capacity",
    re.IGNORECASE,
)
_LINK = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)


def _inside(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= at < end for start, end in spans)


def _glued_to_a_name(text: str, start: int) -> bool:
    """The card-like name continues a hyphenated word ("235B-A22B", "Qwen3-30B-A3B")."""
    return start >= 2 and text[start - 1] in "-_" and text[start - 2].isalnum()


# 'R3,20/kWh' (rands): a name-like token with decimals and a unit price after it is an amount
_PRICE_AT = re.compile(r"[^\W\d]{0,3}\d+[.,]\d+\s*(?:/|per |par |an? |the |le )\s*kwh\b", re.I)


def _gpus(
    text: str,
) -> tuple[list[str], list[str], dict[str, list[str]], list[CardSpan], list[CardSpan]]:
    """Known cards, unknown card-like names, near names, where each known card is named, and
    where each unknown name is written (one scan of the message for every use of its cards).
    Nothing inside a link counts: a link's path or line anchor ("#L40") names no card.

    With a laptop word in the sentence, a card name is the laptop chip where there is one ("un
    portable avec une GTX 1650" names one card, the GTX 1650 laptop chip)."""
    from assistant.knowledge.gpu_names import LAPTOP, tokens
    from assistant.knowledge.matching import find_gpu_spans, match_gpu

    links = [(m.start(), m.end()) for m in _LINK.finditer(text)]
    hits = [
        h
        for h in find_gpu_spans(text)
        if not _inside(h[1], links) and not _PRICE_AT.match(text, h[1])
    ]
    errors = pasted_error_spans(text)
    # '2080ti … Error: … bf16 is only supported on A100+ GPUs': a card the pasted error names is
    # the library's word, not the asker's card, when the asker names one of their own
    hits = _the_askers(hits, lambda h: _inside(h[1], errors))
    # where a name is the error's, once the asker names one
    quoted = errors if any(not _inside(h[1], errors) for h in hits) else []
    cards = list({card.name: card for card, _, _ in hits}.values())
    known = [card.name for card in cards]
    laptop = LAPTOP in tokens(text)
    spans = [CardSpan(start, end, card.name) for card, start, end in hits]
    covered = _covered_spans(text, cards) + [(s.start, s.end) for s in spans]
    unknown: list[str] = []
    unknown_spans: list[CardSpan] = []
    suggestions: dict[str, list[str]] = {}
    for m in _CARD_LIKE.finditer(text):
        name = " ".join(m.group(0).split())
        if _inside(m.start(), links):
            continue  # "…/OperationUtils.mm#L30-L44": a line anchor in a link, not an L30
        if _inside(m.start(), quoted):
            continue
        if any(start <= m.start() and m.end() <= end for start, end in covered):
            continue  # part of a recognised card's name ("RTX 4070 Ti" in "RTX 4070 Ti Super")
        if _looks_like_memory_or_model(name, text, m.end()):
            continue
        if _glued_to_a_name(text, m.start()):
            continue  # "Qwen3-235B-A22B": the active parameters of a model, not a card "A22B"
        match = match_gpu(f"{name} {LAPTOP}") if laptop else match_gpu(name)
        if laptop and match.gpu is None:
            match = match_gpu(name)
        if match.gpu is not None:
            if match.gpu.name not in known:
                known.append(match.gpu.name)
            spans.append(CardSpan(m.start(), m.end(), match.gpu.name))
            continue
        tail = _only_card_ending_so(name, match.suggestions)
        if tail is not None:
            # 'la B60': the one near name whose model number it is (the Arc Pro B60)
            if tail not in known:
                known.append(tail)
            spans.append(CardSpan(m.start(), m.end(), tail))
            continue
        same = next((k for k in known if _same_card(name, k)), None)
        if same is not None:
            spans.append(CardSpan(m.start(), m.end(), same))
            continue
        family = _series(name, text, m.end(), match.suggestions)
        if family:
            # 'the RX7900 series': the family's cards, the way the asker grouped them.
            known.extend(c for c in family if c not in known)
            spans.extend(CardSpan(m.start(), m.end(), c) for c in family)
            continue
        if _SERIES_NUMBER.match(name):
            continue  # 'max 1000 W': a series word and a number no card ends with
        if name not in unknown:  # named twice, said once
            unknown.append(name)
        unknown_spans.append(CardSpan(m.start(), m.end(), name))
        suggestions[name] = list(match.suggestions)
    known, spans = _restated(text, known, spans)
    return known, unknown, suggestions, spans, unknown_spans


_OPENS_BRACKET = re.compile(r"\s*\((?:\s*\d+\s*[x×]\s*)?")


def _restated(
    text: str, known: list[str], spans: list[CardSpan]
) -> tuple[list[str], list[CardSpan]]:
    """A card restated in brackets right after it ('a DGX A100 (8x A100 40GB)'): the bracket
    says which one, so the name before it, read alone as another variant, is dropped."""
    from assistant.knowledge.gpu_names import tokens

    def model_numbers(name: str) -> set[str]:
        return {t for t in tokens(name) if any(c.isdigit() for c in t) and not t.endswith("gb")}

    dropped: list[CardSpan] = []
    for first in spans:
        bracket = _OPENS_BRACKET.match(text, first.end)
        if bracket is None:
            continue
        inside = next((s for s in spans if s.start == bracket.end()), None)
        if (
            inside is not None
            and inside.name != first.name
            and model_numbers(inside.name) & model_numbers(first.name)
        ):
            dropped.append(first)
    if not dropped:
        return known, spans
    kept = [s for s in spans if s not in dropped]
    still = {s.name for s in kept}
    return [k for k in known if k in still or all(d.name != k for d in dropped)], kept


def _only_card_ending_so(name: str, suggestions: list[str]) -> str | None:
    """The one near name that ends with the name as written, as a model number with letters
    ('B60' is the Arc Pro B60, not the Arc Pro A60) or a series and number ('Max 1550' is the
    Data Center GPU Max 1550), or None when none or several do."""
    from assistant.knowledge.gpu_names import tokens

    wanted = tokens(name)
    if all(t.isdigit() for t in wanted):
        return None  # a bare number ('3060') names cards of several makers and sizes
    ending = [s for s in suggestions if tokens(s)[-len(wanted) :] == wanted]
    return ending[0] if len(ending) == 1 else None


_SERIES = re.compile(r"\s*(?:series|s[ée]rie|family|famille|lineup|cards)\b", re.I)
MAX_SERIES = 3


def _series(name: str, text: str, end: int, suggestions: list[str]) -> list[str]:
    """The cards of a family named with 'series' ('RX7900 series'): the suggested names that
    contain the name as written, up to MAX_SERIES; none without the word."""
    from assistant.knowledge.gpu_names import tokens

    if not _SERIES.match(text, end):
        return []
    wanted = "".join(tokens(name))
    return [s for s in suggestions if wanted in "".join(tokens(s))][:MAX_SERIES]


# "8xH100", "2x4090": a count glued to the card's name
_GLUED_COUNT = re.compile(r"\b(\d{1,3}[x×*])(?=[a-z]{0,4}\d)", re.I)


# "4 GPU", "8 GPUs", "8x GPUs": a count of cards whose model is not named.
_BARE_COUNT = re.compile(r"(?<![\d.,$€])\b(\d{1,4})\s*(?:[x×*]\s*)?gpus?\b(?!\s*[-/]?\s*h)", re.I)


# '2x 230 W cards', '2 × 300 W GPUs', '3x 450W': a count of cards before each one's draw
_DRAW_COUNT = re.compile(
    r"(?<![\d.,$€])\b(\d{1,3})\s*[x×*]\s*\d+(?:[.,]\d+)?\s*w\b(?!\s*(?:psu|power supply|alim))",
    re.I,
)


# "2x8 80GB GPUs": nodes times GPUs per node
_NODES_COUNT = re.compile(
    r"(?<![\d.,$€])\b(\d{1,3})\s*[x×]\s*(\d{1,2})\s+(?:\d{2,3}\s*g[bo]\s+)?gpus?\b", re.I
)


NEEDED_SPAN = 24  # how far before a count 'do I need' may sit: 'or do I need 2 gpus'
_ONE_WORD_GAP = re.compile(r"\s+(?:\w+\s+)?")


def _asked_whether_needed(text: str, start: int) -> bool:
    """A count of GPUs the message asks whether it needs ('do I need 2 gpus', 'faut-il 2 GPU'),
    not one it has: a word of the needed_count list right before it, one word at most between."""
    before = text[max(0, start - NEEDED_SPAN) : start]
    spans = phrase_spans("needed_count", before)
    return bool(spans) and bool(_ONE_WORD_GAP.fullmatch(before[spans[-1][1] :]))


FILE_SIZE_SPAN = 24  # how far before a size a file word may sit: 'the gguf is 42.5 GB'


_NOTE_OPEN = re.compile(rf"\(\s*{_HEDGE}?\s*$", re.I)
_PARAMETERS = re.compile(r"\b\d+(?:[.,]\d+)?\s?b\b", re.I)


def _file_size(text: str, start: int) -> bool:
    """A size the message gives a model's file or weights ('le fichier Q4_K_M fait 19,9 Go'): a
    file word shortly before it, in the same sentence; or a note in brackets right after a model
    and its format ('Llama 3.3 70B 4bit with MLX (~40GB)')."""
    before = text[max(0, start - FILE_SIZE_SPAN) : start]
    before = sentence_before(before)
    if phrase_spans("file_size", before):
        return True
    note = _NOTE_OPEN.search(text, 0, start)
    if note is None:
        return False
    said = sentence_before(text[max(0, note.start() - FILE_SIZE_SPAN * 2) : note.start()])
    ends = [m.end() for pattern in (_PARAMETERS, _PRECISION) for m in pattern.finditer(said)]
    # nothing with a number in between: 'Llama 8B on my RTX 4060 (8GB)' is the card's
    return bool(ends) and not re.search(r"\d", said[max(ends) :])


# "one jetson each", "a GPU per store": a device the catalog does not name, one in each place
_ONE_DEVICE = re.compile(r"\b(?:one|a|an|un|une|1)\s+[\w-]+\b", re.I)


def _tdp(name: str) -> float | None:
    """The catalog card's board power, if it has one."""
    from assistant.knowledge.matching import match_gpu

    card = match_gpu(name).gpu
    return float(card.tdp_w) if card is not None and card.tdp_w else None


def _method_mentions(text: str) -> list[tuple[int, str]]:
    """Each fine-tuning method the message asks about, with where it is said, in `_METHOD`'s
    order: not negated ('not LoRA'), not a model someone owns ('our fine-tune'), and the 'LoRA' of
    'Q-LoRA' no LoRA of its own."""
    return [
        (m.start(), method)
        for method, pattern in _METHOD
        for m in pattern.finditer(text)
        if not negated_at(text, m.start())
        and not _owned_model(text, m)
        and not (method == "lora" and text[max(0, m.start() - 2) : m.start()].lower() == "q-")
    ]


def named_methods(text: str) -> list[str]:
    """The fine-tuning methods (QLoRA, LoRA, full) a message names, in its order: 'a QLoRA of
    Llama 3.1 8B? and a 16-bit LoRA? and a full fine-tune?' names three."""
    found = sorted(m for m in _method_mentions(text) if m[1] in _NAMED_METHODS)
    return list(dict.fromkeys(method for _, method in found))


def _bare_gpu_count(text: str) -> int | None:
    """How many GPUs the message counts without naming the card, if it does ('8 GPUs', '4
    stores, one jetson each'); not a count it asks whether it needs."""
    each = next(
        (n for d in _ONE_DEVICE.finditer(text) for n in [count_each(text, d.end())] if n), None
    )
    if each is not None:
        return each
    draws = _DRAW_COUNT.search(text)  # '2x 230 W cards': two cards drawing 230 W each
    if draws is not None and 2 <= int(draws.group(1)) <= MAX_COUNT:
        return int(draws.group(1))
    nodes = _NODES_COUNT.search(text)
    m = next(
        (c for c in _BARE_COUNT.finditer(text) if not _asked_whether_needed(text, c.start())), None
    )
    count = int(nodes.group(1)) * int(nodes.group(2)) if nodes else int(m.group(1)) if m else 0
    return count if 1 <= count <= MAX_COUNT else None


def _mask_cards(text: str) -> str:
    """The text with card names blanked out, so their numbers don't read as amounts."""
    from assistant.knowledge.matching import find_gpu_mentions

    spans = _covered_spans(text, find_gpu_mentions(text))
    spans += [
        (m.start(), m.end())
        for m in _CARD_LIKE.finditer(text)
        if not _looks_like_memory_or_model(m.group(0), text, m.end())
    ]
    chars = list(text)
    for start, end in spans:
        chars[start:end] = "X" * (end - start)
    return "".join(chars)


def _covered_spans(text: str, cards: list[Any]) -> list[tuple[int, int]]:
    """Where the recognised cards' names and aliases occur in the text."""
    spans = []
    for card in cards:
        for alias in {card.name, *getattr(card, "aliases", [])}:
            words = [re.escape(w) for w in str(alias).split()]
            if not words:
                continue
            pattern = r"(?<![\w-])" + r"[\s-]*".join(words) + r"(?![\w-])"
            spans += [(m.start(), m.end()) for m in re.finditer(pattern, text, re.IGNORECASE)]
    return spans


def _same_card(mention: str, known: str) -> bool:
    digits = re.findall(r"\d{2,5}", mention)
    return (
        bool(digits)
        and all(d in known for d in digits)
        and not re.search(r"\b(ti|super|xt)\b", mention, re.I)
    )


def _looks_like_memory_or_model(name: str, text: str, end: int) -> bool:
    """'B16', 'A4 paper', 'L2 cache' and similar are not cards, nor a version number such as
    'V10.2.89' in nvcc's output, nor a motherboard chipset ('a B550 board')."""
    from assistant.agent.offline.card_roles import is_chipset

    if is_chipset(name):
        return True
    if re.fullmatch(r"[a-z]?\d+(?:\.\d+)?b", name.lower()):
        return True  # 'the 14B one (A14B?)': a model's (active) parameters, not a card
    tail = text[end : end + 12].lower()
    if re.match(r"\.\d", tail):
        return True
    return bool(
        re.match(r"\s*(?:cache|paper|papier|b\b|gb|go)", tail)
    ) and not name.lower().startswith(("rtx", "gtx", "rx"))


def _topics(text: str) -> list[str]:
    from assistant.knowledge.topics import find_topic_mentions

    return [_key(t) for t in find_topic_mentions(text)]


def _stack_topic(text: str, gpus: list[str]) -> list[str]:
    """'Will the RX 7900 series be supported?': for cards of one maker other than NVIDIA and a
    question on support with no feature named, that maker's stack (ROCm for a Radeon). 'No GPU
    found' on such a card: its stack, or what the program looked for (CUDA on an Intel UHD)."""
    from assistant.agent.offline.concepts import concepts_in
    from assistant.knowledge.stacks import load_stacks

    concepts = concepts_in(text)
    if not gpus or not {"support", "not_detected"} & concepts:
        return []
    vendors = card_vendors(gpus)
    if len(vendors) != 1 or vendors == {"nvidia"}:
        return []
    stack = load_stacks().get(next(iter(vendors)))
    if stack is None:
        return []
    if stack.topic:
        return [stack.topic]
    fallback = stack.undetected_topic if "not_detected" in concepts else None
    return [fallback] if fallback else []


# '2 servers with 8x H100 each': the count written before the card is per machine.
# '4 servers of 8x H100', '2 nœuds avec 8 A100': the count after the machines is per machine
_MACHINE_OF = re.compile(
    r"\S+\s+(?:of|with|each with|de|avec|à)\s+(?:\d{1,2}\s*[x×]?\s*)?", re.IGNORECASE
)
_PER_MACHINE = re.compile(
    r"^[\w\s-]{0,20}?\b(?:each|apiece|per (?:server|node|machine|box)|in each|chacun|chacune|"
    r"par (?:serveur|n(?:œ|oe)ud|machine))\b"
    # 'an 8-GPU H200 node ... we plan 4 nodes': a card named with one machine is that machine's
    r"|^\s*(?:(?:sxm\d?|pcie|oam|hgx)\s+)?(?:node|server|box|serveur|n(?:œ|oe)ud)\b",
    re.IGNORECASE,
)
_PYTORCH = re.compile(r"\b(?:py)?torch\b", re.IGNORECASE)


def _through_stack(text: str, gpus: list[str], topics: list[str]) -> list[str]:
    """'Can I run my PyTorch CUDA code on an MI300X?': PyTorch's ROCm build answers to
    torch.cuda, so such code is checked against the card's own stack, not CUDA itself."""
    from assistant.knowledge.stacks import load_stacks

    if "cuda_programming" not in topics or not gpus or not _PYTORCH.search(text):
        return topics
    vendors = card_vendors(gpus)
    stack = load_stacks().get(next(iter(vendors))) if len(vendors) == 1 else None
    if stack is None or not stack.pytorch_as_cuda or not stack.topic:
        return topics
    return [stack.topic if t == "cuda_programming" else t for t in dict.fromkeys(topics)]


def _models(text: str) -> tuple[list[str], list[float], list[str]]:
    """Named models (catalog names) and the bare sizes such as '70B', in order; and the models
    named without their size ('Wan 2.1', not 'Wan 2.1 1.3B')."""
    from assistant.knowledge.model_matching import find_model_mentions, names_a_size

    names: list[str] = []
    unsized: list[str] = []
    sizes: list[float] = []
    for mention in find_model_mentions(text):
        if mention.model is not None:
            names.append(mention.model.name)
            if not names_a_size(mention.text):
                unsized.append(mention.model.name)
        elif mention.params_b and float(mention.params_b) not in sizes:
            sizes.append(float(mention.params_b))
    return names, sizes, unsized


RAM_SPAN = 14  # how far before a memory size 'RAM' may sit: 'RAM : 32 Go'


def _system_ram(text: str, start: int, end: int) -> bool:
    """Whether the memory size at text[start:end] is the computer's: 'RAM' or 'system memory'
    right after it ('100GB+ of system memory', card_roles.toml's words) or 'RAM' right before it
    ('RAM: 32 Go')."""
    from assistant.agent.offline.card_roles import names_machine_memory

    before = text[max(0, start - RAM_SPAN) : start]
    return names_machine_memory(text[end:]) or bool(re.search(r"\bram\s*:?\s*$", before, re.I))


# 'j'ai 24 Go de VRAM', 'I have 24GB', 'it has 24 GB': the asker saying what their card holds (not
# 'the model has 24 GB of weights')
_HAVE = re.compile(
    r"(?:\bj'ai|\bi have|\bi've got|\bi got|\b(?:it|card|gpu|carte) has|\bposs[eè]de|\bdispose de)\s*"
    rf"{_HEDGE}?\s*$",
    re.I,
)


def _claimed_memory(ent: Entities, text: str, sizes: list[tuple[int, int, float]]) -> None:
    """A memory size the asker says they have, more than the one card they name holds in any
    variant ('un portable avec une RTX 4090 … j'ai 24 Go de VRAM': the laptop card has 16): a
    false premise to correct, like a size stated next to the card."""
    from assistant.knowledge.gpu_names import LAPTOP, tokens
    from assistant.knowledge.matching import match_gpu, memory_variant

    if len(ent.gpus) != 1 or ent.memory_claims or ent.card_memory or ent.vram_gb is None:
        return
    if (ent.gpu_count or 1) > 1 or ent.card_counts.get(ent.gpus[0], 1) > 1:
        return  # '2× RTX 4090, ça fait 48 Go': the cards' memory together
    card = match_gpu(ent.gpus[0]).gpu
    if card is None or not card.vram_gb or not card.curated or card.unified_memory:
        return
    if ent.vram_gb <= card.vram_gb:
        return
    laptop = LAPTOP in tokens(text)
    variant = memory_variant(card, ent.vram_gb, laptop=laptop)
    if variant is not None and (LAPTOP in tokens(variant.name)) == laptop:
        return  # the size is another variant's, of the same kind (a laptop's for a laptop)
    said = next((start for start, _, size in sizes if size == ent.vram_gb), None)
    if said is not None and _HAVE.search(text[max(0, said - 20) : said]):
        ent.memory_claims = {ent.gpus[0]: ent.vram_gb}
        ent.vram_gb = None


def _unified(cards: list[str]) -> bool:
    """A card on unified memory (a Mac): its RAM is its VRAM."""
    from assistant.knowledge.matching import match_gpu

    return any(card.unified_memory for c in cards if (card := match_gpu(c).gpu) is not None)


def _key(item: Any) -> str:
    for attr in ("key", "name", "id"):
        value = getattr(item, attr, None)
        if isinstance(value, str):
            return value
    return str(item)


def _float(text: str) -> float:
    return float(text.replace(",", "."))


def _instance_cards(
    text: str, gpus: list[str], spans: list[CardSpan]
) -> tuple[list[str], list[CardSpan], dict[str, int]]:
    """A card named inside a catalog instance's name is that instance's card ('H100-1-80G' at
    Scaleway is an H100 PCIe, 'H100-SXM-2-80G' two H100 SXM), with the instance's count when it
    holds several."""
    from assistant.knowledge.cloud import instance_key, instances_in

    named = instances_in(text)
    if not named:
        return gpus, spans, {}
    counts: dict[str, int] = {}
    kept: list[CardSpan] = []
    for span in spans:
        inside = next((row for a, b, row in named if a <= span.start and span.end <= b), None)
        if inside is None:
            # 'la H100-1-80G … donc la H100 est 4x plus rapide': the bare name is that instance's
            said = instance_key(text[span.start : span.end])
            same = [
                row for _, _, row in named if said and instance_key(row.instance).startswith(said)
            ]
            kept.append(CardSpan(span.start, span.end, same[0].gpu) if same else span)
            continue
        kept.append(CardSpan(span.start, span.end, inside.gpu))
        if inside.gpu_count > 1:
            counts[inside.gpu] = max(counts.get(inside.gpu, 1), inside.gpu_count)
    spanned = {s.name for s in spans}
    cards = [s.name for s in sorted(kept, key=lambda s: s.start)]
    cards += [g for g in gpus if g not in spanned]
    return list(dict.fromkeys(cards)), kept, counts


def extract_entities(text: str) -> Entities:
    """Read every explicit entity of one English or French message."""
    text = _GLUED_COUNT.sub(r"\1 ", _expand_exponents(text))
    gpus, unknown, suggestions, card_spans, unknown_spans = _gpus(text)
    gpus, card_spans, instance_counts = _instance_cards(text, gpus, card_spans)
    gpus, card_spans, memory, claims, by_card = own_variants(text, gpus, card_spans)
    gpus, card_spans = _without_others(text, gpus, card_spans)
    ent = Entities(gpus=gpus, unknown_gpus=unknown, suggestions=suggestions)
    ent.card_memory = memory
    ent.stated_memory = by_card
    ent.memory_claims = claims
    ent.options = are_options(text, card_spans)
    ent.required_cards = requirement_cards(text, card_spans)
    ent.owned_gpus = owned_cards(text, card_spans)
    asked_memory = None if ent.required_cards else requirement_memory(text)
    ent.required_vram_gb = asked_memory[0] if asked_memory else None
    if ent.options:
        ent.card_counts = card_counts(text, card_spans)
    ent.topics = _through_stack(text, gpus, _topics(text) or _stack_topic(text, gpus))
    ent.models, ent.model_sizes_b, ent.unsized_models = _models(text)
    ent.model_size_b = ent.model_sizes_b[0] if ent.model_sizes_b else None
    every = sorted(card_spans + unknown_spans, key=lambda s: s.start)
    spans = [(s.name, s.start, s.end) for s in every]
    ent.gpu_counts = card_counts(text, every, default=None)
    for counted in (ent.gpu_counts, ent.card_counts if ent.options else {}):
        counted.update({k: v for k, v in instance_counts.items() if counted.get(k, 1) == 1})
    ent.gpu_count = next(iter(ent.gpu_counts.values()), None) or _bare_gpu_count(text)
    ent.speedups = speedup_by_card(text, spans)
    masked = _mask_cards(text)  # "a 5090 at 2500 €" is one price, not a range from 5090
    stated = parse_exchange_rate(masked)
    if stated is not None:  # "1 € = 1,08 $" is a rate, not two amounts
        ent.usd_per_eur = stated.usd_per_eur
        masked = blank(masked, [(stated.start, stated.end)])
    pairs = parse_pair_rates(masked)  # "1 $ US ≈ 1,38 $ CA": a rate, not two amounts
    masked = blank(masked, [(p.start, p.end) for p in pairs])
    power = read_power(text, spans)  # read once: the money's units and the power fields
    ent.money = _in_one_currency(
        _money(masked, power.load_w is not None or names_concept("electricity", text)),
        pairs,
        ent.usd_per_eur,
        asked_currency(text),
    )
    ent.electricity_price = next((m for m in ent.money if m.per == "kwh"), None)
    if ent.electricity_price is None:
        ent.bare_kwh_price = _bare_kwh_price(masked)
    ent.fuel_price = next((m for m in ent.money if m.per == "litre"), None)
    ent.fuel_l_per_h, ent.battery_wh = read_fuel_rate(text), read_battery(text)
    days = working_days(masked)
    if days is not None:
        ent.days_per_month = days.per_month
    patterned = [(days.start, days.end)] if days else []
    not_use = phrase_spans("always_on", masked) + media_lengths(masked)
    ent.durations = parse_durations(blank(masked, not_use + patterned))
    if days is not None:
        ent.durations = [_daily_before(d, masked, days.start) for d in ent.durations]
    ent.durations = [_times_runs(d, masked) for d in ent.durations]
    ent.always_on = always_on(masked)
    ent.work_hours = work_hours(masked)
    ent.continuous_job = continuous_job(masked)
    ent.utilisation = utilisation(masked)
    energy = read_energy(text, spans)
    if energy is not None and ent.battery_wh != energy.kwh * 1000:  # a battery's, not energy used
        ent.energy_kwh, ent.energy_period, ent.energy_card = energy.kwh, energy.period, energy.card
    ent.percentages = parse_percentages(text)
    for m in _PART.finditer(text):
        for g in m.groups():
            if g and 1 <= int(g) <= 9 and int(g) not in ent.parts:
                ent.parts.append(int(g))
    up_to = _UP_TO_PART.search(text)
    if up_to and 1 <= int(up_to.group(1)) <= 9:
        ent.up_to_part = int(up_to.group(1))
    ent.condition = "used" if _USED.search(text) else ("new" if _NEW.search(text) else None)
    buy, rent = names_concept("buy", text), renting_starts(text)
    # "after how many hours does the 5090 (say 2,500 €) pay off?": a price that pays off is a
    # purchase, though "buy" is not said.
    pays_off = names_concept("break_even", text) and bool(ent.budgets)
    ent.buy_mentioned = bool(buy or pays_off or phrase_spans("purchase_offer", text)) or None
    ent.repeats_per_year = repeats_per_year(text)
    if (buy or _LOCAL.search(text)) and not rent:
        ent.mode = "buy"
    elif rent and not buy:
        ent.mode = "rent"
    storage = _STORAGE.search(text)
    if storage:
        num = storage.group(1) or storage.group(3)
        unit = (storage.group(2) or storage.group(4)).lower()
        ent.storage_gb = _float(num) * (1000 if unit in ("tb", "to") else 1)
    sizes = [(m.start(), m.end(), _float(m.group(1))) for m in _MEMORY.finditer(text)]
    held = [
        i for i in memory_in_use(text, sizes) if not _system_ram(text, sizes[i][0], sizes[i][1])
    ]
    if held:
        ent.memory_in_use_gb = sum(sizes[i][2] for i in held)
    capacity = _CAPACITY.search(text)
    if capacity:  # PyTorch's OOM message: the card's total, not the allocation that failed
        ent.vram_gb = _float(capacity.group(1) or capacity.group(2))
    cards_memory: list[tuple[int, int, float]] = []
    for n, (start, end, size) in enumerate([] if capacity else sizes):
        if storage and storage.start() <= start < storage.end():
            continue
        if n in held:
            continue  # 'the game uses 5.5 GB': not the card's memory
        if asked_memory and start == asked_memory[1]:
            continue  # 'requires at least 16GB of VRAM': the project's, not the card's
        if _system_ram(text, start, end) and not _unified(ent.gpus):
            continue  # '100GB+ of system memory': the computer's, not the card's
        if _file_size(text, start):
            continue  # 'le fichier Q4_K_M fait 19,9 Go': the model's file, not the card
        cards_memory.append((start, end, size))
    if cards_memory:
        ent.vram_gb = cards_memory[0][2]
        ent.memory_options = _memory_options(text, cards_memory)
    if ent.vram_gb is None and asked_memory and not ent.gpus:
        # 'Min spec is an 8 GB GPU and the game uses 5.5 GB': with no other card or size, the
        # spec the asker meets is the memory to work with, not a figure to check theirs against
        ent.vram_gb, ent.required_vram_gb = asked_memory[0], None
    _memory_from_total(ent)
    _claimed_memory(ent, text, sizes)
    precision = _PRECISION.search(text)
    if precision:
        ent.precision = _normalize_precision(precision.group(1))
        named = (_normalize_precision(m.group(1)) for m in _PRECISION.finditer(text))
        ent.precisions = list(dict.fromkeys(named))
    elif phrase_spans("unquantized", text):
        ent.precision = "fp16"  # 'without quantization': the 16-bit weights as published
    mentions = _method_mentions(text)
    if mentions:
        ent.method = mentions[0][1]  # "a full fine-tune (not LoRA)" is a full fine-tune
    ent.methods = list(dict.fromkeys(m for _, m in sorted(mentions) if m in _NAMED_METHODS))
    if ent.method == "full" and (
        _MIXED.search(text) or (ent.precision in _HALF and not _PURE.search(text))
    ):
        # "bf16 mixed precision", and a bare "bf16, AdamW": training in 16 bits keeps fp32 master
        # weights and Adam states (Trainer's bf16=True), unless the asker says "pure bf16"
        ent.precision = "mixed"
    ctx = next((m for m in _CONTEXT.finditer(text) if _a_length(m)), None)
    if ctx:
        ent.context_tokens = int(ctx.group(1) or ctx.group(2)) * 1024
    elif (ctx_set := _CONTEXT_SET.search(text)) is not None:
        ent.context_tokens = int(ctx_set.group(1))
    elif (ctx_tokens := _CONTEXT_TOKENS.search(text)) is not None:
        ent.context_tokens = int(re.sub(r"\D", "", ctx_tokens.group(1) or ctx_tokens.group(2)))
    batch = _BATCH.search(text)
    if batch:
        ent.batch_size = int(batch.group(1))
    else:
        ent.batch_size = concurrent_requests(text)  # each request served at once has its KV cache
    ent.power_w, ent.idle_w = power.load_w, power.idle_w
    ent.card_power_w = {
        name: per_card_watts(text, (power.card_w_end or {})[name], w, count, _tdp(name))
        if (count := ent.gpu_counts.get(name) or 1) > 1
        else w
        for name, w in (power.card_w or {}).items()
    }
    ent.wall_w, ent.power_cap_w, ent.rest_w = power.wall_w, power.cap_w, power.rest_w
    ent.psu_w = power.psu_w
    ent.pue, ent.servers = read_pue(text), in_servers(text)
    ent.machines, inside = read_machines(text)
    ent.counts_per_machine = inside is not None and any(
        inside[0] <= s.start < inside[1]
        or _PER_MACHINE.match(text[s.end : s.end + 40])
        or bool(_MACHINE_OF.fullmatch(text[inside[1] : s.start]))
        for s in every
    )
    if inside is not None and ent.machines:
        for s in every:
            if s.start == inside[0] and ent.gpu_counts.get(s.name) == ent.machines:
                # '40 Orin NX boxes': the count is the boxes', one card in each
                ent.gpu_counts[s.name] = 1
                if ent.gpu_count == ent.machines:
                    ent.gpu_count = 1
    ent.power_options = list(power.load_options)
    ent.work_hours_per_day, ent.idle_hours_per_day = idle_hours(text, ent.durations, power)
    return ent


_SCHEDULE_GAP = re.compile(r"[\s,;(]*(?:on|sur|à raison de)?[\s,;(]*")


# "8 runs de 10 h", "three jobs of 2 hours", "5 entraînements de 4 h": a count of runs before
# the length of each
_RUNS_BEFORE = re.compile(
    r"\b(\d{1,4})\s*(?:[a-zà-ÿ-]+\s+)?(?:runs?|jobs?|trainings?|entra[iî]nements?|sessions?|exp[ée]riences?|"
    r"experiments?|passes|passages?|lancements?|t[aâ]ches?|tasks?)\s+(?:de|of|d'|x|×|à|at)\s*$",
    re.IGNORECASE,
)


_FINE_TUNE_NOUN = re.compile(r"fine[- ]?tune[sd]?|finetune[sd]?", re.I)
OWNED_SPAN = 3  # words between 'our' and 'fine-tune': 'our Yoruba/Hausa fine-tune'


def _without_others(
    text: str, gpus: list[str], spans: list[CardSpan]
) -> tuple[list[str], list[CardSpan]]:
    """The asker's cards without someone else's or a card theirs is compared with ('a laptop
    5090 … basically the desktop 5090 … like my friend does on his desktop 5090'), when the asker
    names one of their own and the cards are no options to weigh."""
    if len(gpus) < 2 or are_options(text, spans):
        return gpus, spans
    others = set(elsewhere_cards(text, spans))
    mine = _the_askers(gpus, lambda g: g in others)
    if mine is gpus:
        return gpus, spans
    return mine, [s for s in spans if s.name not in others]


_T = TypeVar("_T")


def _the_askers(mentions: list[_T], theirs: Callable[[_T], bool]) -> list[_T]:
    """The mentions that are the asker's: without those that are not (a pasted error's words,
    someone else's card) when the asker names one of their own; all of them (the same list)
    otherwise."""
    mine = [m for m in mentions if not theirs(m)]
    return mine if mine and len(mine) < len(mentions) else mentions


def _owned_model(text: str, m: re.Match[str]) -> bool:
    """'our Yoruba/Hausa fine-tune', 'our model = Llama 3.1 8B fine-tuned on Turkish': the noun
    or the participle names a model someone made, not a job to do."""
    from assistant.agent.offline.phrases import tables

    if not _FINE_TUNE_NOUN.fullmatch(m.group(0)):
        return False
    table = tables()["owned_model"]
    owners = {w.lower() for w in table["phrases"]}
    before = sentence_before(text[: m.start()]).lower()
    words = re.findall(r"[\w'/-]+", before)
    if _done_job(m, words, text, table):
        return True
    if not m.group(0).lower().endswith("d"):
        words = words[-(OWNED_SPAN + 1) :]  # the noun: right after its owner; the participle
        # ('our model = Llama 3.1 8B fine-tuned on Turkish') may follow the model's whole name
    at = max((i for i, w in enumerate(words) if w in owners), default=None)
    # 'my plan is to fine-tune': a verb after 'to', not a model someone owns
    return at is not None and not set(table["verb_links"]) & set(words[at:])


def _done_job(m: re.Match[str], words: list[str], text: str, table: dict[str, Any]) -> bool:
    """'we fine-tuned Llama 3.3 70B … can I serve it?': the participle after its subject names a
    finished job, when the message then asks about serving the result."""
    if not m.group(0).lower().endswith("d") or not words or words[-1] not in table["made_by"]:
        return False
    return any(start >= m.end() for start, _ in phrase_spans("owned_model.served", text))


def _memory_options(text: str, sizes: list[tuple[int, int, float]]) -> list[float]:
    """Memory sizes offered as alternatives of one machine: two or more distinct sizes, an option
    word between the first two ('16 Go à 699 € ou 24 Go', '16GB vs 24GB')."""
    distinct = list(dict.fromkeys(size for _, _, size in sizes))
    if len(distinct) < 2:
        return []
    first = sizes[0]
    second = next(s for s in sizes if s[2] != first[2])
    return distinct if options_between(text[first[1] : second[0]]) else []


def _memory_from_total(ent: Entities) -> None:
    """'4x MI50 = 128GB': a total over several cards of one model gives each card's memory, when
    that is a size the card comes in (less than the listed size, or for a card from the long
    tail, which lists one size per name, half or twice it: the MI50 came with 16 or 32 GB)."""
    from assistant.knowledge.matching import match_gpu

    if len(ent.gpus) != 1 or not ent.gpu_count or ent.gpu_count < 2 or not ent.vram_gb:
        return
    name = ent.gpus[0]
    card = match_gpu(name).gpu
    if card is None or not card.vram_gb or name in ent.card_memory:
        return
    each = ent.vram_gb / ent.gpu_count
    if abs(each - card.vram_gb) < 0.5 or abs(ent.vram_gb - card.vram_gb) < 0.5:
        return
    if each < card.vram_gb or (not card.curated and each <= 2 * card.vram_gb):
        ent.card_memory[name] = each


def _times_runs(duration: Duration, text: str) -> Duration:
    """The length of each of several runs ('8 runs de 10 h par semaine') is the runs' total."""
    runs = _RUNS_BEFORE.search(text, 0, duration.start)
    if runs is None or duration.unit != "hour":
        return duration
    count = float(runs.group(1))
    return duration.model_copy(
        update={
            "hours": duration.hours * count if duration.hours is not None else None,
            "per_day": duration.per_day * count if duration.per_day is not None else None,
        }
    )


def _daily_before(duration: Duration, text: str, schedule: int) -> Duration:
    """A span of hours written just before a schedule of days ('pendant 10 h, 5 nuits par
    semaine') is hours a day."""
    end = duration.start + len(duration.text)
    if duration.per_day is not None or duration.hours is None or duration.unit != "hour":
        return duration
    if duration.hours > HOURS_PER_DAY or not _SCHEDULE_GAP.fullmatch(text[end:schedule]):
        return duration
    return duration.model_copy(update={"per_day": duration.hours, "hours": None})


_BARE_KWH = re.compile(
    r"(?<![\w.,$€£¥])(\d+(?:[.,]\d+)?)\s*(?:/\s*|\s+(?:per|a|an|the|par|le|du|each)\s+)kwh\b",
    re.IGNORECASE,
)


def _bare_kwh_price(text: str) -> float | None:
    """'power is 0.30 per kWh', '0,25 le kWh': a price per kWh whose currency is not said."""
    m = _BARE_KWH.search(text)
    if m is None:
        return None
    value = _float(m.group(1))
    return value if value > 0 else None


def _normalize_precision(raw: str) -> str:
    raw = raw.lower().replace(" ", "").replace("-", "")
    if re.fullmatch(r"q\d(?:_\w+)?", raw):  # 'Q4' is llama.cpp's word: its usual Q4_K_M
        return _GGUF[raw[1]]
    if raw.startswith("4bit") or raw in ("nf4", "int4"):
        return "int4"
    if raw.startswith("8bit") or raw == "int8":
        return "int8"
    if raw.startswith("16bit"):
        return "fp16"
    return raw
