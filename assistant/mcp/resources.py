"""What the MCP server exposes besides tools: read-only resources and prompts.

Resources: the knowledge entries, a topic file at a time (`corpus/knowledge/<language>/<topic>.md`
as `gpu-advisor://knowledge/<language>/<topic>`) or one entry by id
(`gpu-advisor://entry/<language>/<id>`, a resource template), and the data files of the catalog
(`assistant/knowledge/data/`: cards, features, topics, prices, models) as
`gpu-advisor://data/<file>`. All are read when asked for, never written.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources as package_files
from pathlib import Path
from typing import Any

SCHEME = "gpu-advisor://"
_MIME = {".md": "text/markdown", ".toml": "application/toml", ".csv": "text/csv"}


def _knowledge_dir() -> Path:
    from assistant.settings import get_settings

    return get_settings().resolved_corpus_dir() / "knowledge"


def _knowledge_files() -> dict[str, Path]:
    from assistant.knowledge.entries import knowledge_files

    return {
        f"{SCHEME}knowledge/{path.parent.name}/{path.stem}": path
        for path in knowledge_files(_knowledge_dir())
    }


ENTRY_TEMPLATE = {
    "uri_template": f"{SCHEME}entry/{{language}}/{{id}}",
    "name": "knowledge-entry",
    "title": "One knowledge entry",
    "description": "A question with its direct answer, details and sources; language is en or "
    "fr, id is the entry's id (the same in both languages; see the knowledge resources)",
    "mime_type": "text/markdown",
}


def _entry_text(uri: str) -> str | None:
    """One knowledge entry as Markdown: its question, answer, details and sources."""
    from assistant.knowledge.entries import get_entry

    language, _, entry_id = uri.removeprefix(f"{SCHEME}entry/").partition("/")
    if language not in ("en", "fr") or not entry_id:
        return None
    entry = get_entry(entry_id, language)
    if entry is None:
        return None
    sources = "; ".join(f"[{s.title}]({s.url})" for s in entry.sources)
    return (
        f"## {entry.title}\n<!-- id: {entry.id} · date: {entry.date.isoformat()} -->\n\n"
        f"{entry.body.strip()}\n\n**Sources:** {sources}\n"
    )


def _data_files() -> dict[str, Any]:
    folder = package_files.files("assistant.knowledge") / "data"
    return {
        f"{SCHEME}data/{item.name}": item
        for item in sorted(folder.iterdir(), key=lambda i: i.name)
        if item.is_file() and Path(item.name).suffix in _MIME
    }


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines()[:12]:
        if line.startswith("title:"):
            return line.partition(":")[2].strip().strip('"')
    return path.stem


def resources() -> list[dict[str, Any]]:
    """Every resource as the fields of an MCP `Resource`."""
    listed = [
        {
            "uri": uri,
            "name": f"knowledge/{path.parent.name}/{path.stem}",
            "title": _title(path),
            "description": f"Knowledge entries ({path.parent.name}): questions with short, "
            "sourced answers",
            "mime_type": "text/markdown",
        }
        for uri, path in _knowledge_files().items()
    ]
    listed += [
        {
            "uri": uri,
            "name": f"data/{item.name}",
            "description": "Catalog data (every figure with its source)",
            "mime_type": _MIME[Path(item.name).suffix],
        }
        for uri, item in _data_files().items()
    ]
    return listed


def read_resource(uri: str) -> tuple[str, str] | None:
    """The text and MIME type of a resource, or None for an unknown URI."""
    if uri.startswith(f"{SCHEME}entry/"):
        text = _entry_text(uri)
        return None if text is None else (text, "text/markdown")
    path = _knowledge_files().get(uri)
    if path is not None:
        return path.read_text(encoding="utf-8"), "text/markdown"
    item = _data_files().get(uri)
    if item is not None:
        return item.read_text(encoding="utf-8"), _MIME[Path(item.name).suffix]
    return None


@dataclass(frozen=True)
class PromptSpec:
    """A prompt the client can offer its user: name, description, (argument, description)."""

    name: str
    description: str
    arguments: tuple[tuple[str, str], ...]
    text: dict[str, str]


PROMPTS = (
    PromptSpec(
        "check_card_feature",
        "Check whether a GPU can do a feature or a topic of the guide (megakernels, FP8, TMA…)",
        (("gpu", "the card, e.g. RTX 4090"), ("feature", "e.g. megakernels, FP8, tcgen05")),
        {
            "en": "Can my {gpu} do {feature}? Call gpu_capability with gpu={gpu!r} and "
            "topic={feature!r} (or gpu_lookup for the card's features), then search_corpus for "
            "what the guide says. Answer with the verdict first, what is missing and why, and "
            "cite the sources the results carry.",
            "fr": "Ma {gpu} peut-elle faire {feature} ? Appelle gpu_capability avec gpu={gpu!r} "
            "et topic={feature!r} (ou gpu_lookup pour les fonctionnalités de la carte), puis "
            "search_corpus pour ce que dit le guide. Réponds d'abord par le verdict, puis ce "
            "qui manque et pourquoi, en citant les sources des résultats.",
        },
    ),
    PromptSpec(
        "plan_budget",
        "Plan a GPU budget: rent or buy, which card, for how many hours",
        (("budget", "the amount, e.g. 200 EUR or $500"), ("goal", "e.g. learn CUDA, run LLMs")),
        {
            "en": "I have {budget} to {goal}. Should I rent or buy a GPU? Call budget_plan and "
            "recommend_gpus (and rent_vs_buy for a card you suggest), then search_corpus for the "
            "guide's advice. Give the plan with figures, and cite the sources the results carry.",
            "fr": "J'ai {budget} pour {goal}. Louer ou acheter un GPU ? Appelle budget_plan et "
            "recommend_gpus (et rent_vs_buy pour la carte proposée), puis search_corpus pour les "
            "conseils du guide. Donne le plan chiffré en citant les sources des résultats.",
        },
    ),
)


def prompts() -> tuple[PromptSpec, ...]:
    """The prompts offered (each takes `language`, en or fr, besides its arguments)."""
    return PROMPTS


def prompt_messages(name: str, arguments: dict[str, str]) -> tuple[str, str] | None:
    """The description and the user message of a prompt, or None for an unknown name."""
    spec = next((p for p in PROMPTS if p.name == name), None)
    if spec is None:
        return None
    values = {key: " ".join(str(arguments.get(key, "")).split())[:200] for key, _ in spec.arguments}
    language = "fr" if str(arguments.get("language", "")).lower().startswith("fr") else "en"
    return spec.description, spec.text[language].format(**values)
