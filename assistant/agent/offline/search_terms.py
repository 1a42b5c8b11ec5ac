"""The corpus query for a turn: the question, plus the French words of what it asks about.

The documents are French and many questions are English; the retrieval glossary bridges single
words, and each skill's search hint names the *kind* of passage it wants (never a known question).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.agent.offline.reading import Reading

MAX_QUERY_CHARS = 600


def search_query(reading: Reading) -> str:
    """What to search the corpus for; empty when the turn has nothing to look up."""
    from assistant.agent.offline.skills import get_skill

    base = " ".join(reading.entities.gpus) if reading.intents == ["declined"] else reading.text
    if reading.follow_up:
        base = " ".join([*reading.entities.gpus, *reading.entities.topics, base])
    hints = [skill.hint(reading) for skill in map(get_skill, reading.tool_intents) if skill]
    query = " ".join([base, *hints]).strip()
    return query[:MAX_QUERY_CHARS]
