"""`Skill`: everything the offline model knows about one kind of question, in one object."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from assistant.language import Lang

if TYPE_CHECKING:
    from assistant.agent.offline.entities import Entities
    from assistant.agent.offline.reading import Reading

R = TypeVar("R", bound=BaseModel)
Builder = Callable[["Entities", "Reading"], list[dict[str, Any]]]
SearchTerms = Callable[["Reading"], str]


@dataclass(frozen=True)
class Examples:
    """A skill's labelled example questions, per language (package data beside the skill)."""

    en: tuple[str, ...]
    fr: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        """The English examples, then the French ones."""
        return self.en + self.fr


def load_examples(package: str, stem: str) -> Examples:
    """`<stem>.toml` of `package`: `en = [...]` and `fr = [...]` under `[examples]`."""
    data = tomllib.loads(resources.files(package).joinpath(f"{stem}.toml").read_text("utf-8"))
    table = data.get("examples", {})
    return Examples(en=tuple(table.get("en", ())), fr=tuple(table.get("fr", ())))


@dataclass(frozen=True)
class Skill(Generic[R]):
    """One kind of question, answered by one tool.

    `tool` is the tool's name in TOOL_SPECS; `result` its pydantic result model, which the tool's
    JSON is parsed back into before `render` sees it (a renamed field fails the type check).
    `slots` are the `Entities` fields the builder reads; `needs` the slots of which at least one
    must be filled for the tool to be callable (empty: none needed). `concepts` are ids of the
    concept vocabulary whose presence in a question speaks for this skill. `requires`: concepts of
    which the question must name at least one for the tool to be called at all (a calculator that
    would otherwise run on its defaults and answer a question nobody asked).
    """

    tool: str
    result: type[R]
    build: Builder
    render: Callable[[R, str, Lang], str]
    search_hint: str
    slots: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    concepts: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    fallback: str | Callable[[Entities, Reading], str | None] | None = None
    search_terms: SearchTerms | None = None
    combine: Callable[[list[R], str, Lang], str] | None = None
    examples_package: str = field(default="", compare=False)

    @cached_property
    def examples(self) -> Examples:
        """The skill's example questions, from `<tool>.toml`."""
        return load_examples(self.examples_package, self.tool)

    def parse(self, payload: Any) -> R | None:
        """The tool's JSON result as its result model, or None when it doesn't validate."""
        try:
            return self.result.model_validate(payload)
        except ValidationError:
            return None

    def answer(self, payload: Any, question: str, lang: Lang) -> str | None:
        """The rendered section for a tool result, or None when the result can't be read."""
        parsed = self.parse(payload)
        if parsed is None:
            return None
        return self.render(parsed, question, lang)

    def next_tool(self, ent: Entities, reading: Reading) -> str | None:
        """The tool to try when this skill's builder finds nothing to call."""
        if callable(self.fallback):
            return self.fallback(ent, reading)
        return self.fallback

    def answer_many(self, payloads: list[Any], question: str, lang: Lang) -> list[str | None]:
        """The sections for several results of this tool in one turn (`combine` may merge them)."""
        parsed = [self.parse(p) for p in payloads]
        readable = [p for p in parsed if p is not None]
        if self.combine is not None and len(readable) > 1:
            merged = self.combine(readable, question, lang)
            if merged:
                return [merged]
        return [None if p is None else self.render(p, question, lang) for p in parsed]

    def hint(self, reading: Reading) -> str:
        """The words added to the corpus search when this skill answers."""
        return self.search_terms(reading) if self.search_terms else self.search_hint
