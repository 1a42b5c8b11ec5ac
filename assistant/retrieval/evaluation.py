"""Retrieval metrics over a labelled query set: recall@1, recall@3, MRR, and off-topic rejection."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from assistant.retrieval.models import SearchHit


@dataclass(frozen=True)
class LabelledQuery:
    id: str
    language: str
    query: str
    sections: tuple[str, ...]  # leaf headings that answer it; empty = off-topic
    split: str = "tuning"  # "holdout": written after the set-up was chosen; "knowledge": entries

    @property
    def off_topic(self) -> bool:
        """True for a query the corpus should not answer (no section expected)."""
        return not self.sections


def load_queries(path: Path) -> list[LabelledQuery]:
    """The labelled queries of a JSON file (see tests/retrieval/queries.json)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        LabelledQuery(
            q["id"],
            q["language"],
            q["query"],
            tuple(q.get("sections", ())),
            q.get("split", "tuning"),
        )
        for q in data["queries"]
    ]


def leaf(section: str) -> str:
    """The last part of a section path (`A > B > C` → `C`)."""
    return section.split(" > ")[-1].strip()


def first_relevant_rank(hits: Sequence[SearchHit], sections: Sequence[str]) -> int | None:
    """1-based rank of the first hit whose section is one of `sections`, or None."""
    wanted = set(sections)
    for rank, hit in enumerate(hits, 1):
        if leaf(hit.section) in wanted:
            return rank
    return None


@dataclass
class Scores:
    queries: int = 0
    at1: int = 0
    at3: int = 0
    reciprocal: float = 0.0
    empty: int = 0  # on-topic queries that got nothing
    misses: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, float | int | list[str]]:
        """The scores as rounded rates, for reports and JSON."""
        n = max(self.queries, 1)
        return {
            "queries": self.queries,
            "recall@1": round(self.at1 / n, 4),
            "recall@3": round(self.at3 / n, 4),
            "mrr": round(self.reciprocal / n, 4),
            "empty": self.empty,
            "misses@3": self.misses,
        }


def evaluate(
    queries: Sequence[LabelledQuery], search: Callable[[str, int], list[SearchHit]], k: int = 5
) -> dict[str, dict[str, object]]:
    """Scores per language ('en', 'fr', 'all') and the off-topic rejection rate."""
    per: dict[str, Scores] = {
        "en": Scores(),
        "fr": Scores(),
        "all": Scores(),
        "holdout": Scores(),
        "knowledge": Scores(),
    }
    off_total = off_rejected = 0
    off_leaks: list[str] = []
    details: dict[str, object] = {}
    for q in queries:
        hits = search(q.query, k)
        details[q.id] = {
            "rank": first_relevant_rank(hits, q.sections) if q.sections else None,
            "top": [f"{h.score:.3f} {leaf(h.section)}" for h in hits[:3]],
        }
        if q.off_topic:
            off_total += 1
            if hits:
                off_leaks.append(q.id)
            else:
                off_rejected += 1
            continue
        rank = first_relevant_rank(hits, q.sections)
        groups = (q.split,) if q.split in ("holdout", "knowledge") else ()
        for key in (q.language, "all", *groups):
            s = per.setdefault(key, Scores())
            s.queries += 1
            s.empty += not hits
            if rank is not None:
                s.reciprocal += 1.0 / rank
                s.at1 += rank == 1
                s.at3 += rank <= 3
            if rank is None or rank > 3:
                s.misses.append(q.id)
    result: dict[str, dict[str, object]] = {k_: dict(v.as_dict()) for k_, v in per.items()}
    result["off_topic"] = {
        "queries": off_total,
        "rejected": round(off_rejected / max(off_total, 1), 4),
        "leaks": off_leaks,
    }
    result["per_query"] = details
    return result
