"""What gpu-advisor does not cover: gaming, displays, peripherals, PC building, phones.

The intent classifier reads a graphics card's name as a sign that a question is about GPUs, so
"how many FPS will my 4070 get?" looks in scope. These patterns (`scope.toml`, data) catch the
questions about things gpu-advisor does not advise on, unless the question also names computing
work (a model, CUDA, training, renting...). Such a question gets no tool call and a plain answer
saying what is outside and what is inside the scope.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from importlib import resources

from assistant.language import Lang

SCOPE_FILE = "scope.toml"

OUTSIDE = {
    "en": "That is outside what I can answer: gpu-advisor covers GPUs for computing (AI models, "
    "CUDA, renting and buying compute), not gaming performance, displays, peripherals, PC "
    "building or phones. ",
    "fr": "Cette question sort de mon domaine : gpu-advisor couvre les GPU pour le calcul (modèles "
    "d'IA, CUDA, location et achat de puissance de calcul), pas les performances en jeu, les "
    "écrans, les périphériques, le montage de PC ni les téléphones. ",
}


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    data = tomllib.loads(
        resources.files("assistant.agent.offline").joinpath(SCOPE_FILE).read_text("utf-8")
    )
    outside = re.compile("|".join(f"(?:{p})" for p in data["outside"]), re.IGNORECASE)
    inside = re.compile("|".join(f"(?:{p})" for p in data["inside"]), re.IGNORECASE)
    return outside, inside


def out_of_scope(text: str, earlier: str = "") -> bool:
    """The question is about something gpu-advisor doesn't cover (and names no computing work):
    neither the question nor the asker's previous message (`earlier`: "so 60 fps total, we're
    fine?" after a message about a detection model) names any."""
    outside, inside = _patterns()
    return bool(outside.search(text)) and not inside.search(text) and not inside.search(earlier)


def outside_answer(lang: Lang) -> str:
    """The plain statement that the question is outside the scope (what I do follows it)."""
    return OUTSIDE.get(lang, OUTSIDE["en"])
