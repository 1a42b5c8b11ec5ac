"""The one place that converts, formats and reads amounts of money.

The euro, the US dollar and the pound have their exchange rates in the settings
(`GPU_ADVISOR_USD_PER_EUR`, `GPU_ADVISOR_EUR_PER_GBP`) unless a caller passes one; the other
currencies (Swiss franc, Singapore dollar, rupee, yen...) have the dated reference rates of
knowledge/data/currencies.toml. Rates are assumptions, not facts: every cost result states the ones
it uses. Every currency converts through the euro.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Annotated, Literal, cast, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from assistant.language import Lang

# The three with rates in the settings, then those of currencies.toml (a test checks the two agree).
Currency = Literal[
    "EUR", "USD", "GBP", "CHF", "CAD", "AUD", "NZD", "SGD", "HKD", "INR", "JPY", "CNY", "KRW",
    "BRL", "MXN", "PHP", "PLN", "HUF", "RON", "ILS", "SEK", "NOK", "DKK", "CZK", "TRY", "ZAR",
    "MYR", "THB", "IDR", "XOF", "DZD", "TND", "MAD", "EGP", "NGN", "GHS", "KES", "PKR", "LKR",
    "NPR", "BDT", "VND", "TWD", "PEN", "MGA", "HTG", "ARS", "COP", "CLP", "UAH", "RUB", "ISK",
    "XPF", "KZT", "RWF", "BIF", "CDF", "GNF", "UYU", "BOB", "PYG", "CRC", "GTQ", "DOP", "UGX",
    "TZS", "ETB", "XAF", "AED", "SAR", "MNT", "GEL", "RSD", "UZS", "BAM", "DJF",
]  # fmt: skip

Period = Literal["hour", "month", "day", "kwh", "litre"]

CURRENCIES: tuple[Currency, ...] = get_args(Currency)
SETTINGS_CURRENCIES: tuple[Currency, ...] = ("EUR", "USD", "GBP")
_CORE_SYMBOLS: dict[str, str] = {"EUR": "€", "USD": "$", "GBP": "£"}


@dataclass(frozen=True)
class OtherCurrency:
    """A currency of currencies.toml: its code, symbol, units per euro (None: no rate on record,
    so never converted), and how people write it."""

    code: Currency
    symbol: str
    per_eur: float | None
    decimals: int
    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    fixed: str | None = None  # a parity set by law (the CFA franc), not a market rate
    strict_prefixes: tuple[str, ...] = ()  # "R3.40/kWh": only with a unit or a multiplier
    places: tuple[str, ...] = ()  # where a family's shared word means this one ("Colombo")


@dataclass(frozen=True)
class CurrencyFamily:
    """A word several currencies share ("rupees"): the first currency unless the message names
    another of them."""

    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    currencies: tuple[Currency, ...]


@dataclass(frozen=True)
class OtherCurrencies:
    """currencies.toml: the currencies, the date and source of their rates, the shared words."""

    by_code: dict[str, OtherCurrency]
    date: str
    source: str
    families: tuple[CurrencyFamily, ...] = ()


class NoExchangeRate(ValueError):
    """A conversion to or from a currency with no rate on record."""


@lru_cache(maxsize=1)
def other_currencies() -> OtherCurrencies:
    """The currencies besides EUR, USD and GBP, with their reference rates."""
    data = tomllib.loads(
        resources.files("assistant.knowledge")
        .joinpath("data", "currencies.toml")
        .read_text(encoding="utf-8")
    )
    by_code = {
        c["code"]: OtherCurrency(
            code=cast(Currency, c["code"]),
            symbol=c["symbol"],
            per_eur=float(c["per_eur"]) if "per_eur" in c else None,
            decimals=int(c.get("decimals", 2)),
            prefixes=tuple(c["prefixes"]),
            suffixes=tuple(c["suffixes"]),
            fixed=c.get("fixed"),
            strict_prefixes=tuple(c.get("strict_prefixes", ())),
            places=tuple(c.get("places", ())),
        )
        for c in data["currency"]
    }
    families = tuple(
        CurrencyFamily(
            prefixes=tuple(f["prefixes"]),
            suffixes=tuple(f["suffixes"]),
            currencies=tuple(cast(Currency, code) for code in f["currencies"]),
        )
        for f in data["families"].values()
    )
    return OtherCurrencies(by_code, data["rates"]["date"], data["rates"]["source"], families)


def has_rate(currency: str) -> bool:
    """Whether amounts in `currency` can be converted (EUR, USD, GBP and the table's rated ones)."""
    other = other_currencies().by_code.get(currency)
    return other is None or other.per_eur is not None


def symbol_of(currency: str) -> str:
    """'€', '$', 'S$', 'CHF'..."""
    if currency in _CORE_SYMBOLS:
        return _CORE_SYMBOLS[currency]
    return other_currencies().by_code[currency].symbol


def _fold_form(form: str) -> str:
    return "".join(form.lower().split())


@lru_cache(maxsize=1)
def _other_forms() -> dict[str, Currency]:
    """Every written form of the other currencies, folded (lower case, no spaces) → code."""
    out: dict[str, Currency] = {}
    table = other_currencies()
    for c in table.by_code.values():
        for form in (c.code, c.symbol, *c.prefixes, *c.suffixes, *c.strict_prefixes):
            out.setdefault(_fold_form(form), c.code)
    for family in table.families:
        for form in (*family.prefixes, *family.suffixes):
            out.setdefault(_fold_form(form), family.currencies[0])
    return out


class Money(BaseModel):
    """An amount in a currency."""

    model_config = ConfigDict(allow_inf_nan=False, frozen=True)

    amount: float = Field(description="The amount, in `currency`")
    currency: Currency = Field(description="ISO code: EUR, USD, GBP, CHF, SGD...")

    def to(self, currency: Currency, usd_per_eur: float | None = None) -> Money:
        """The same amount in another currency, at `usd_per_eur` (default: the settings' rate)."""
        return Money(
            amount=convert(self.amount, self.currency, currency, usd_per_eur), currency=currency
        )

    def format(self, lang: Lang = "en") -> str:
        """The amount as text, in the language's way ('$2.50', '2,50 €')."""
        return format_money(self.amount, self.currency, lang)


def normalize_currency(value: str | None) -> Currency:
    """'eur', '€', 'euros', 'usd', '$', 'dollars', 'gbp', '£', 'pounds' → 'EUR'/'USD'/'GBP';
    None → the configured currency."""
    if value is None:
        from assistant.settings import get_settings

        value = get_settings().currency
    key = "".join(value.lower().split())
    if key in {"eur", "€", "euro", "euros"}:
        return "EUR"
    if key in {"usd", "$", "us$", "$us", "dollar", "dollars"}:
        return "USD"
    if key in {"gbp", "£", "pound", "pounds", "livre", "livres"}:
        return "GBP"
    other = _other_forms().get(key)
    if other is not None:
        return other
    raise ValueError(f"unknown currency {value!r}: use one of {', '.join(CURRENCIES)}")


def exchange_rate(usd_per_eur: float | None = None) -> float:
    """USD per EUR: the given rate, else the configured one."""
    if usd_per_eur is None:
        from assistant.settings import get_settings

        usd_per_eur = get_settings().usd_per_eur
    if not math.isfinite(usd_per_eur) or usd_per_eur <= 0:
        raise ValueError("usd_per_eur must be a positive finite number")
    return usd_per_eur


def configured_electricity_price(currency: Currency, usd_per_eur: float | None = None) -> float:
    """The configured electricity price per kWh (GPU_ADVISOR_ELECTRICITY_PRICE_PER_KWH, stated in
    the configured currency), converted to `currency`: the default for a caller that gives none."""
    from assistant.settings import get_settings

    settings = get_settings()
    return convert(
        settings.electricity_price_per_kwh,
        normalize_currency(settings.currency),
        currency,
        usd_per_eur,
    )


def convert(
    amount: float, from_cur: Currency, to_cur: Currency, usd_per_eur: float | None = None
) -> float:
    """Convert an amount between currencies at `usd_per_eur` (default: the settings' rate), the
    configured pound rate and the reference rates of the others; all go through the euro."""
    if from_cur == to_cur:
        return float(amount)
    return amount * _euros_per_unit(from_cur, usd_per_eur) / _euros_per_unit(to_cur, usd_per_eur)


def _euros_per_unit(currency: str, usd_per_eur: float | None) -> float:
    if currency == "EUR":
        return 1.0
    if currency == "USD":
        return 1 / exchange_rate(usd_per_eur)
    if currency == "GBP":
        return pound_rate()
    other = other_currencies().by_code.get(currency)
    if other is None:
        raise ValueError(f"cannot convert {currency}")
    if other.per_eur is None:
        raise NoExchangeRate(
            f"no exchange rate is on record for {currency}: state one in the question "
            f"('1 € = … {other.symbol}') or ask in EUR or USD"
        )
    return 1 / other.per_eur


def pound_rate() -> float:
    """EUR per GBP: the configured rate (GPU_ADVISOR_EUR_PER_GBP)."""
    from assistant.settings import get_settings

    return float(get_settings().eur_per_gbp)


def rate_assumption(usd_per_eur: float | None = None) -> str:
    """The sentence every converted result carries."""
    rate = exchange_rate(usd_per_eur)
    return f"Exchange rate assumed: 1 EUR = {rate:.4g} USD (configurable with GPU_ADVISOR_USD_PER_EUR)."


def pound_assumption() -> str:
    """The sentence a result in pounds carries besides the euro-dollar rate."""
    return (
        f"Exchange rate assumed: 1 GBP = {pound_rate():.4g} EUR "
        "(configurable with GPU_ADVISOR_EUR_PER_GBP)."
    )


def other_rate_assumption(currency: str) -> str | None:
    """The sentence a result in another currency than EUR, USD or GBP carries (None for those)."""
    table = other_currencies()
    other = table.by_code.get(currency)
    if other is None:
        return None
    if other.per_eur is None:
        return (
            f"No exchange rate is on record for {other.code}: amounts are computed as given, in "
            f"{other.code}; only a rate stated in the question converts to or from it."
        )
    if other.fixed:
        return f"Exchange rate: 1 EUR = {other.per_eur:.6g} {other.code} ({other.fixed})."
    return (
        f"Exchange rate assumed: 1 EUR = {other.per_eur:.6g} {other.code} "
        f"(European Central Bank reference rate of {table.date})."
    )


def _group(integer: str, sep: str) -> str:
    parts: list[str] = []
    while len(integer) > 3:
        parts.insert(0, integer[-3:])
        integer = integer[:-3]
    parts.insert(0, integer)
    return sep.join(parts)


def format_number(value: float, decimals: int = 2, lang: Lang = "en") -> str:
    """1234.5 → '1,234.50' (en) or '1 234,50' (fr)."""
    text = f"{abs(value):.{decimals}f}"
    integer, _, frac = text.partition(".")
    if lang == "fr":
        body = _group(integer, "\u202f") + ("," + frac if frac else "")
    else:
        body = _group(integer, ",") + ("." + frac if frac else "")
    return ("-" if value < 0 and float(text) != 0 else "") + body


def format_money(amount: float, currency: Currency, lang: Lang = "en", decimals: int = 2) -> str:
    """'$2.50' / '€2.50' / 'CHF 2.50' in English, '2,50 $' / '2,50 €' in French; whole units for
    a currency without cents in use (yen, won, rupiah)."""
    other = other_currencies().by_code.get(currency)
    if other is not None and other.decimals == 0:
        decimals = 0
    return _with_symbol(amount, currency, lang, decimals)


def _with_symbol(amount: float, currency: Currency, lang: Lang, decimals: int) -> str:
    """The amount with `decimals` and the currency's symbol, in the language's order."""
    if not math.isfinite(amount):
        raise ValueError("cannot format a non-finite amount")
    symbol = symbol_of(currency)
    number = format_number(amount, decimals, lang)
    if lang == "fr":
        return f"{number}\u00a0{symbol}"
    sign, digits = ("-", number[1:]) if number.startswith("-") else ("", number)
    space = " " if symbol[-1].isalpha() else ""
    return f"{sign}{symbol}{space}{digits}"


def format_unit_price(amount: float, currency: Currency, lang: Lang = "en") -> str:
    """A price per unit (per kWh) as precisely as it was given, 2 to 4 decimals: '€0.2516', '$0.32';
    in a currency without cents, whole units unless the price has more ('NT$4.5', '750 Ar')."""
    other = other_currencies().by_code.get(currency)
    decimals = 0 if other is not None and other.decimals == 0 else 2
    while decimals < 4 and abs(round(amount, decimals) - amount) > 1e-9:
        decimals += 1
    return _with_symbol(amount, currency, lang, decimals)


class ParsedMoney(BaseModel):
    """An amount found in free text."""

    amount: float = Field(description="The amount (the low end for a range)")
    high: float | None = Field(
        default=None, description="The high end, for a range like '2 – 5 $/h'"
    )
    currency: Currency
    per: Period | None = Field(default=None, description="hour, day or month if the text says so")
    text: str = Field(description="The matched text")
    start: int
    end: int

    @property
    def per_hour(self) -> bool:
        """Whether the amount is a rate per hour."""
        return self.per == "hour"


_SPACE = "[ \u00a0\u202f]"
# 1 500 / 1 500,50 / 1,500.50 / 2.50 / 0,80 / 200
# 1'200 (Swiss), 1,50,000 (Indian lakh), 9,000,000
_NUM = (
    rf"\d{{1,3}}(?:,\d{{2}})+,\d{{3}}(?:\.\d+)?|\d{{1,3}}(?:{_SPACE}\d{{3}})+(?:[.,]\d+)?|\d{{1,3}}(?:['’]\d{{3}})+(?:[.,]\d+)?"
    rf"|\d{{1,3}}(?:,\d{{3}})+\.\d+|\d{{1,3}}(?:,\d{{3}}){{2,}}(?!\d)|\d{{1,3}}(?:\.\d{{3}})+(?:,\d+)?"
    rf"|\d+(?:[.,]\d+)?"
)


def _forms_pattern(forms: list[str]) -> str:
    """An alternation of written forms, longest first: one with a capital letter matched as
    written, one in lower case in any case; a form ending in a letter not inside a longer word."""
    parts = []
    for form in sorted(set(forms), key=len, reverse=True):
        body = re.escape(form)
        if form[-1].isascii() and form[-1].isalpha():
            body += r"(?![a-z])"
        parts.append(f"(?-i:{body})" if form != form.lower() else body)
    return "|".join(parts)


_TABLE = other_currencies()
_OTHER_PREFIX = _forms_pattern(
    [f for c in _TABLE.by_code.values() for f in c.prefixes]
    + [f for family in _TABLE.families for f in family.prefixes]
)
_OTHER_SUFFIX = _forms_pattern(
    [f for c in _TABLE.by_code.values() for f in c.suffixes]
    + [f for family in _TABLE.families for f in family.suffixes]
)
_STRICT_PREFIX = _forms_pattern([f for c in _TABLE.by_code.values() for f in c.strict_prefixes])
_CUR_PREFIX = rf"{_OTHER_PREFIX}|US\$|\$|€|£|USD|EUR|GBP"
# "22 $ US", "22 $US": the dollar sign with its country after it, as French writes it
_CUR_SUFFIX = (
    rf"{_OTHER_SUFFIX}|€|\$\s?US\b|\$|£|US\$|euros?\b|eur\b|usd\b|dollars?\b|gbp\b|pounds?\b"
)
_UNIT = r"(?:kwh|litres?|liters?|l|hours?|heures?|hrs?|h|month|mois|mo|days?|jours?|j|d)\b"
# "$2.85/GPU-hr", "2,10 €/h", "0,27 € le kWh", "$0.32 per kWh"
# "$2.20/GPU/h", "0,50 € l'heure-GPU", "$1.30 per GPU per hour", "2 € par GPU et par heure"
_PER_GPU = r"(?:gpu\s*(?:[-/]\s*|\s+(?:et\s+)?(?:par|per|an?|/)\s+)?)?"
# "1,40 € HT/h", "$2.10 excl. VAT per hour": a tax word between the amount and its unit
_TAX = r"(?:(?:HT|TTC|hors\s+taxes?|excl\.?\s+(?:VAT|tax)|ex\.?\s+VAT|incl\.?\s+VAT|\+\s?(?:VAT|TVA))\s*)?"
_PER = (
    rf"(?P<per>\s*{_TAX}(?:(?:/\s*|(?:par|per|an?|une?|every|each|chaque|du)\s+|(?:de|à)\s+l'|l')"
    rf"{_PER_GPU}{_UNIT}(?:[- ]gpu\b)?|(?:le|the)\s+(?:kwh|litre|liter)\b))?"
)
# "a kWh at 0,25 €", "le kWh est à 0,2516 €", "le kWh nous coûte environ 120 FCFA", "le kWh me
# revient à environ 90 FCFA", "the kWh costs me 70 Ft": the unit
# named before the amount
KWH_BEFORE_SPAN = 40  # how far before an amount its "kWh ... costs" may start
_PRICED_AS = (
    r"nous|vous|me|us|is|costs?|co[uû]te|est|vaut|revient|comes\s+to|at|à|a|=|:"
    r"|about|around|roughly|environ|~"
)


def _unit_before(unit: str, words: str = "") -> re.Pattern[str]:
    """The unit, then up to four pricing words, right before an amount ('le kWh nous coûte',
    'the litre of diesel costs'); `words` are more words allowed between them."""
    allowed = f"{words}|{_PRICED_AS}" if words else _PRICED_AS
    return re.compile(rf"{unit}\s*(?:(?:{allowed})(?:\s+|(?<=[=:~])\s*)){{0,4}}$", re.I)


_KWH_BEFORE = _unit_before("kwh")
# 'le litre de gazole me coûte', 'the liter of diesel costs'
_LITRE_BEFORE = _unit_before(r"\b(?:litre|liter|l)", r"of\s+\w+|de\s+\w+|d'\w+")
_RANGE = rf"(?:\s*(?:-|–|—|à|to)\s*(?P<high>{_NUM}))?"
# 2k€, $1.5k; 1.5万元 (ten thousands); N6.5m; Rs 3.4 lakh (hundred thousands), ₹1.5 crore
_K = r"(?P<k>\s?k(?![a-z])|万|m(?![a-z])|\s?(?:lakhs?|lacs?|crores?)(?![a-z]))?"
_SCALES = {"万": 10_000, "m": 1_000_000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000,
           "lacs": 100_000, "crore": 10_000_000, "crores": 10_000_000}  # fmt: skip
_CENTS = (
    r"(?P<cents>centimes?|cents?|cennes?|ct|¢|pence|c(?=\s*/\s*kwh)|p(?=\s*(?:/|per|a)\s*kwh))(?![a-z])"
    r"(?P<of_euro>\s+(?:d'euros?|of a euro|euros?))?"
)
# A letter or digit that glues an amount into a word; Chinese and Japanese characters don't, as
# those scripts write no spaces ("予算は¥150,000", "预算5000元").
_GLUED = r"(?<![^\W\u3040-\u30ff\u4e00-\u9fff])"
_PATTERNS = [
    re.compile(
        rf"{_GLUED}(?<![.,$€])(?P<cur>{_CUR_PREFIX}){_SPACE}?(?P<num>{_NUM}){_RANGE}{_K}{_PER}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_GLUED}(?<![.,])(?P<num>{_NUM}){_RANGE}{_K}{_SPACE}?(?P<cur>{_CUR_SUFFIX}){_PER}",
        re.IGNORECASE,
    ),
    # "15 cents/kWh", "20 centimes le kWh": hundredths of the currency
    re.compile(rf"(?<![\w.,])(?P<num>\d+(?:[.,]\d+)?){_RANGE}{_SPACE}?{_CENTS}{_PER}", re.I),
    # "R3.40/kWh", "N6.5m": a one-letter sign, only with a unit or a multiplier after it
    re.compile(
        rf"{_GLUED}(?<![.,$€])(?P<cur>{_STRICT_PREFIX})(?P<num>{_NUM}){_RANGE}{_K}{_PER}", re.I
    ),
]
_PREFIX_PATTERNS = (0, 3)
_STRICT_PATTERN = 3
# "cents" (and Quebec's "cennes") alone are dollar cents; "centimes", "ct" and "cents d'euro" are
# euro cents; "28p per kWh" and "pence" are pennies.
_EURO_CENTS = {"centime", "centimes", "ct"}
_PENCE = {"p", "pence"}


_LAKH = re.compile(r"\d{1,3}(?:,\d{2})+,\d{3}")
_GROUPED = re.compile(r"[1-9]\d{0,2}(?:[.,]\d{3})+")


def _to_float(num: str, english_thousands: bool, rate: bool = False) -> float:
    """'1,800' and '2.500' are thousands (a rate per hour or per kWh aside: '1,500 $/h' is 1.5);
    '0,80' a decimal; '1.444,70' and '1,444.70' the same amount."""
    s = re.sub(rf"{_SPACE}|['’]", "", num)
    if "," in s and "." in s and s.rfind(",") > s.rfind("."):
        s = s.replace(".", "").replace(",", ".")  # Rp 1.444,70
    elif "," in s and "." in s or _LAKH.fullmatch(s):
        s = s.replace(",", "")  # 1,500.50 · 1,50,000
    elif not rate and _GROUPED.fullmatch(s) and (english_thousands or "," in s or "." in s):
        s = s.replace(",", "").replace(".", "")  # $1,500 · 1,800 dollars · 2.500 €
    elif "," in s:
        head, _, tail = s.rpartition(",")
        s = head.replace(",", "") + "." + tail  # 0,80
    return float(s)


def _has_decimals(currency: Currency) -> bool:
    """Whether amounts in the currency are written with decimals (the peso, the won and the yen
    are not: currencies.toml `decimals = 0`)."""
    other = other_currencies().by_code.get(currency)
    return other is None or other.decimals > 0


def _period(raw: str | None) -> Period | None:
    if not raw:
        return None
    words = [w for w in re.split(r"[\s/'-]", raw.strip().lower()) if w and w != "gpu"]
    word = words[-1] if words else ""
    if word == "kwh":
        return "kwh"
    if word in {"l", "litre", "litres", "liter", "liters"}:
        return "litre"
    if word.startswith("mo"):
        return "month"
    if word.startswith(("j", "d")):
        return "day"
    return "hour"


_CODE_AFTER = re.compile(r"\s*\(?\s*([A-Z]{3})\b")


def _cents_code_after(text: str, end: int) -> Currency | None:
    """The currency code written right after an amount in cents: '38c/kWh (AUD)', '15 cents CAD'."""
    m = _CODE_AFTER.match(text, end)
    if m is None or m.group(1) not in CURRENCIES:
        return None
    return cast(Currency, m.group(1))


_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _yen_or_yuan(currency: Currency, written: str, text: str) -> Currency:
    """A bare '¥' is the yuan in a question written in Chinese (Han characters, no kana)."""
    if (
        currency == "JPY"
        and written.strip() == "¥"
        and _HAN.search(text)
        and not _KANA.search(text)
    ):
        return "CNY"
    return currency


def parse_money(text: str) -> list[ParsedMoney]:
    """Every amount with a currency in an English or French sentence, in order.

    Understands '200 €', '200€', '200 euros', '$0.80/h', '0,80 $/h', '2.50 USD per hour',
    '1 500 €', '$1,500', '2k€' and ranges such as '2 – 5 $/h'.
    """
    found: list[ParsedMoney] = []
    taken: list[tuple[int, int]] = []
    bare: set[int] = set()  # where an amount's only currency sign is '$'
    bare_cents: set[int] = set()  # cents with no currency said ('34c/kWh')
    shared: dict[int, CurrencyFamily] = {}  # where the currency is a shared word ('rupees')
    for index, pattern in enumerate(_PATTERNS):
        for m in pattern.finditer(text):
            start, end = m.span()
            if any(start < e and s < end for s, e in taken):
                continue
            if index == _STRICT_PATTERN and not (m.group("per") or m.group("k")):
                continue  # "R9 390", "N100": a name, not an amount
            cents = "cents" in m.groupdict() and m.group("cents")
            if cents:
                unit = m.group("cents").lower()
                euro = m.group("of_euro") or unit in _EURO_CENTS
                cur: Currency = "GBP" if unit in _PENCE else "EUR" if euro else "USD"
                coded = _cents_code_after(text, end)  # '38c/kWh (AUD)'
                if coded is None and cur == "USD":
                    bare_cents.add(start)
                cur = coded or cur
            else:
                cur = _yen_or_yuan(
                    normalize_currency(m.group("cur").replace("US$", "$")), m.group("cur"), text
                )
                if m.group("cur").strip() == "$":
                    bare.add(start)
                family = _family_of(m.group("cur"))
                if family is not None:
                    shared[start] = family
            prefix_style = index in _PREFIX_PATTERNS
            # '1,500 $/h' and '0,200 €/kWh' are decimals; '$3,800/month' is thousands, and so is
            # '1,050 COP per kWh': a currency written without decimals has no '1.05'
            rate = _period(m.group("per")) in ("hour", "kwh") and _has_decimals(cur)
            try:
                amount = _to_float(m.group("num"), prefix_style, rate)
                high = _to_float(m.group("high"), prefix_style, rate) if m.group("high") else None
            except ValueError:
                continue
            if cents:
                amount, high = amount / 100, (high / 100 if high is not None else None)
            elif m.group("k"):
                unit = _SCALES.get(m.group("k").strip().lower(), 1000)
                amount, high = amount * unit, (high * unit if high is not None else None)
            if not math.isfinite(amount) or (high is not None and not math.isfinite(high)):
                continue  # hundreds of digits: not an amount of money
            per = _period(m.group("per"))
            before = text[max(0, start - KWH_BEFORE_SPAN) : start]
            if per is None and _KWH_BEFORE.search(before):
                per = "kwh"
            elif per is None and _LITRE_BEFORE.search(before):
                per = "litre"  # 'le litre me coûte ~1,6 USD'
            found.append(
                ParsedMoney(
                    amount=amount,
                    high=high,
                    currency=cur,
                    per=per,
                    text=text[start:end].strip(),
                    start=start,
                    end=end,
                )
            )
            taken.append((start, end))
    found.sort(key=lambda p: p.start)
    return _named_member(_local_dollars(found, bare, text, bare_cents), shared, text)


_FAMILY_OF = {
    _fold_form(form): family
    for family in _TABLE.families
    for form in (*family.prefixes, *family.suffixes)
}


def _family_of(written: str) -> CurrencyFamily | None:
    """The family whose shared word `written` is ('rupees', 'Rs.'), if any."""
    return _FAMILY_OF.get(_fold_form(written))


@lru_cache(maxsize=8)
def _own_names(code: str) -> re.Pattern[str]:
    """A currency's own written forms (code, symbol, names), as whole words."""
    c = _TABLE.by_code[code]
    forms = [f for f in {c.code, c.symbol, *c.prefixes, *c.suffixes} if len(f) > 1]
    return re.compile(rf"(?<![\w$]){_forms_pattern(forms)}", re.IGNORECASE)


def _named_member(
    found: list[ParsedMoney], shared: dict[int, CurrencyFamily], text: str
) -> list[ParsedMoney]:
    """An amount in a shared word ('60 rupees') is in the one currency of its family the message
    names by its own name ('… how much PKR?', 'pakistani rupees'), else the one whose place it
    names ('Rs 52 per unit' on a bill in Colombo); else the family's first."""
    if not shared:
        return found
    out = []
    for p in found:
        family = shared.get(p.start)
        if family is not None:
            members = [code for code in family.currencies if code in _TABLE.by_code]
            named = [code for code in members if _own_names(code).search(text)]
            if not named:
                named = [code for code in members if _places(code).search(text)]
            if len(named) == 1:
                p = p.model_copy(update={"currency": named[0]})
        out.append(p)
    return out


@lru_cache(maxsize=64)
def _places(code: str) -> re.Pattern[str]:
    """The places whose shared currency word means this currency, as whole words ('Colombo',
    not 'Guinée' in 'Guinée-Bissau'); a pattern matching nothing when it has none."""
    places = _TABLE.by_code[code].places
    if not places:
        return re.compile(r"(?!)")
    alternatives = "|".join(re.escape(p) for p in sorted(places, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


_OTHER_DOLLARS = frozenset({"CAD", "AUD", "NZD", "SGD", "HKD"})
_US_EXPLICIT = re.compile(r"\$\s?US\b|US\$|\bUSD\b|dollars? (?:US|américains?)\b", re.I)


def _local_dollars(
    found: list[ParsedMoney], bare: set[int], text: str, bare_cents: set[int] | None = None
) -> list[ParsedMoney]:
    """A bare '$' is the other dollar of a message that writes both that one and the US dollar
    explicitly ('900 $ CA … 0,35 $ US/h … 0,08 $/kWh': the last is Canadian); bare cents are
    the cents of a message's only other dollar ('AU$1.35/hr … 34c/kWh': Australian cents)."""
    others = {p.currency for p in found if p.currency in _OTHER_DOLLARS}
    if len(others) != 1:
        return found
    local = next(iter(others))
    local_signs = bare if _US_EXPLICIT.search(text) else set()
    local_signs = local_signs | (bare_cents or set())
    return [
        p.model_copy(update={"currency": local}) if p.start in local_signs else p for p in found
    ]


def _currency_or_none(value: object) -> object:
    if value is None or not isinstance(value, str):
        return value
    return normalize_currency(value)


# An input field's type: "eur", "€", "USD"... accepted; None means the configured currency.
CurrencyInput = Annotated[Currency | None, BeforeValidator(_currency_or_none)]


def resolve_currency(value: Currency | None) -> Currency:
    """The given currency, else the configured one."""
    return value if value is not None else normalize_currency(None)


MONEY_FIELDS = ("currency", "usd_per_eur", "electricity_price_per_kwh")


def tool_defaults(model: type[object], arguments: dict[str, object]) -> dict[str, object]:
    """A tool's arguments with the configured money defaults filled in where the tool's input
    model has the field and the caller gave none: currency, exchange rate, and the electricity
    price (converted to the currency used). Arguments set to None count as not given.

    Tools take these as inputs; callers at the edge (the CLI, the agent's tool wrapper) call this,
    so no tool reads the settings behind its caller's back."""
    fields = getattr(model, "model_fields", {})
    out = {k: v for k, v in arguments.items() if v is not None}
    wanted = [name for name in MONEY_FIELDS if name in fields and name not in out]
    if not wanted:
        return out
    from assistant.settings import get_settings

    settings = get_settings()
    currency = normalize_currency(str(out.get("currency") or settings.currency))
    rate = out.get("usd_per_eur") or settings.usd_per_eur
    if "currency" in wanted:
        out["currency"] = currency
    if "usd_per_eur" in wanted:
        out["usd_per_eur"] = rate
    if "electricity_price_per_kwh" in wanted:
        out["electricity_price_per_kwh"] = convert(
            settings.electricity_price_per_kwh,
            normalize_currency(settings.currency),
            currency,
            float(rate),  # type: ignore[arg-type]
        )
    return out


class StatedRate(BaseModel):
    """An exchange rate the text states ('1 € = 1,08 $'), as USD per EUR."""

    usd_per_eur: float = Field(gt=0)
    start: int
    end: int


_ONE = r"1(?:[.,]0+)?"
# a rate with a decimal comma or point, its thousands grouped by spaces ('1 $ ≈ 1 450 RWF')
_RATE_NUM = rf"\d{{1,3}}(?:{_SPACE}\d{{3}})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"


def _rate_value(raw: str) -> float:
    """A rate as written ('1 450', '1,08', '0.92')."""
    return float(re.sub(_SPACE, "", raw).replace(",", "."))


_EUR = r"(?:€|eur\b|euros?\b)"
_USD = r"(?:\$|usd\b|us\$|dollars?\b)"
_STATED_RATE = re.compile(
    rf"(?:{_ONE}\s*(?P<one_a>{_EUR}|{_USD})|(?P<one_b>{_EUR}|{_USD})\s*{_ONE})"
    rf"\s*(?:=|≈|vaut|is|equals|est)\s*"
    rf"(?:(?P<num_a>{_RATE_NUM})\s*(?P<cur_a>{_EUR}|{_USD})|(?P<cur_b>{_EUR}|{_USD})\s*(?P<num_b>{_RATE_NUM}))",
    re.IGNORECASE,
)


class PairRate(BaseModel):
    """A rate the text states between two currencies: 1 `base` = `rate` `quote`."""

    base: Currency
    quote: Currency
    rate: float = Field(gt=0)
    start: int
    end: int


_ANY_CUR = rf"(?:{_CUR_SUFFIX}|{_CUR_PREFIX})"
_PAIR_RATE = re.compile(
    rf"(?:{_ONE}\s*(?P<one_a>{_ANY_CUR})|(?P<one_b>{_ANY_CUR})\s*{_ONE})"
    rf"\s*(?:=|≈|~|vaut|is|equals|est|fait)\s*(?:about|environ|~)?\s*"
    rf"(?:(?P<num_a>{_RATE_NUM})\s*(?P<cur_a>{_ANY_CUR})|(?P<cur_b>{_ANY_CUR})\s*(?P<num_b>{_RATE_NUM}))",
    re.IGNORECASE,
)


# "N1,600 per dollar", "150 DA pour un euro", "we budget at 280 PKR to the dollar"
_PER_BASE_RATE = re.compile(
    rf"(?:(?P<cur_a>{_ANY_CUR}|{_STRICT_PREFIX}){_SPACE}?(?P<num_a>{_NUM})"
    rf"|(?P<num_b>{_NUM}){_SPACE}?(?P<cur_b>{_ANY_CUR}))\s*"
    r"(?:per|to\s+the|to\s+a|for\s+(?:one|a|1)|pour\s+(?:un|1)|par|the|le)\s+"
    r"(?P<base>us\s+dollars?|dollars?|euros?|usd|eur|pounds?|gbp|\$|€|£)(?![a-z$])",
    re.IGNORECASE,
)


# "dollar is ~48.5 EGP", "the dollar at 4,100 COP", "l'euro vaut 655 FCFA", "le dollar est à 130
# gourdes": the base currency named by its word, no "1" before it
_BASE_IS_RATE = re.compile(
    r"(?<![\w$€])(?P<base>us\s+dollars?|dollars?|euros?|usd|eur|gbp|pounds?)"
    r"\s*(?:is|=|≈|~|vaut|est|est\s+à|at|à|trades\s+at|se\s+change\s+à)\s*"
    r"(?:about|around|roughly|approx\.?|environ|~|≈)?\s*"
    rf"(?:(?P<num_a>{_NUM}){_SPACE}?(?P<cur_a>{_ANY_CUR})|(?P<cur_b>{_ANY_CUR}){_SPACE}?(?P<num_b>{_NUM}))",
    re.IGNORECASE,
)


# "ça fait combien en FCFA ?", "how much is that in EGP", "convert it to COP": the currency the
# asker wants the answer in, named by its code or word (a bare symbol names none)
_ASKED_CURRENCY = re.compile(
    rf"(?:\ben|\bin|\binto|\bto|\bconverti\w*\s+en)\s+(?P<cur>{_CUR_SUFFIX})(?![\w$€£])(?!{_SPACE}?\d)",
    re.IGNORECASE,
)


def asked_currency(text: str) -> Currency | None:
    """The currency a message asks its answer in ('combien en FCFA ?'), None when it names none
    or only by a symbol."""
    for m in _ASKED_CURRENCY.finditer(text):
        if not re.search(r"[a-z]{2}", m.group("cur"), re.IGNORECASE):
            continue
        family = _family_of(m.group("cur"))
        if family is not None:  # 'in pesos … dollar at 4,050 COP': the member the text names,
            # by its name or by an amount in it ('in pesos? … ₱13.50/kWh')
            amounts = {p.currency for p in parse_money(text)}
            named = [
                c
                for c in family.currencies
                if c in _TABLE.by_code and (c in amounts or _own_names(c).search(text))
            ]
            if len(named) == 1:
                return cast(Currency, named[0])
        try:
            return normalize_currency(m.group("cur"))
        except ValueError:
            continue
    return None


def parse_pair_rates(text: str) -> list[PairRate]:
    """Every exchange rate a message states between two currencies: '1 $ US ≈ 1,38 $ CA',
    '1 USD = 83 INR', '1 € = 1,08 $', 'N1,600 per dollar', 'dollar is ~48.5 EGP'."""
    out: list[PairRate] = []
    for m in _PER_BASE_RATE.finditer(text):
        out += _named_base_rate(m)
    for m in _PAIR_RATE.finditer(text):
        try:
            base = normalize_currency((m.group("one_a") or m.group("one_b")).replace("US$", "$"))
            quote = normalize_currency((m.group("cur_a") or m.group("cur_b")).replace("US$", "$"))
        except ValueError:
            continue
        value = _rate_value(m.group("num_a") or m.group("num_b"))
        if base != quote and value > 0:
            out.append(PairRate(base=base, quote=quote, rate=value, start=m.start(), end=m.end()))
    for m in _BASE_IS_RATE.finditer(text):
        if not any(p.start < m.end() and m.start() < p.end for p in out):
            out += _named_base_rate(m)  # "1 USD = 83 INR" is read above
    return out


def _named_base_rate(m: re.Match[str]) -> list[PairRate]:
    """The rate of a match naming its base currency by its word ('per dollar', 'dollar is'):
    one PairRate, or none when a currency is unknown or the two are the same."""
    try:
        quote = normalize_currency(m.group("cur_a") or m.group("cur_b"))
        base = normalize_currency(re.sub(r"^us\s+", "", m.group("base"), flags=re.I))
        value = _to_float(m.group("num_a") or m.group("num_b"), english_thousands=True)
    except ValueError:
        return []
    if base == quote or value <= 0:
        return []
    return [PairRate(base=base, quote=quote, rate=value, start=m.start(), end=m.end())]


def convert_stated(
    amount: float,
    from_cur: Currency,
    to_cur: Currency,
    stated: list[PairRate],
    usd_per_eur: float | None = None,
) -> float:
    """Convert at the rate the message states between the two currencies, else as `convert`."""
    for pair in stated:
        if (pair.base, pair.quote) == (from_cur, to_cur):
            return amount * pair.rate
        if (pair.base, pair.quote) == (to_cur, from_cur):
            return amount / pair.rate
    return convert(amount, from_cur, to_cur, usd_per_eur)


def parse_exchange_rate(text: str) -> StatedRate | None:
    """The exchange rate a sentence states: '1 € = 1,08 $', '1 EUR = 1.08 USD', '$1 = 0.92 €'."""
    for m in _STATED_RATE.finditer(text):
        one = normalize_currency(m.group("one_a") or m.group("one_b"))
        other = normalize_currency(m.group("cur_a") or m.group("cur_b"))
        value = _rate_value(m.group("num_a") or m.group("num_b"))
        if one == other or value <= 0:
            continue
        usd_per_eur = value if one == "EUR" else 1 / value
        if 0.2 <= usd_per_eur <= 5:  # anything else is not a euro-dollar rate
            return StatedRate(usd_per_eur=usd_per_eur, start=m.start(), end=m.end())
    return None
