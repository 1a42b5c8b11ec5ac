"""Knowledge-led answers and out-of-scope questions (hand-written questions, not the golden sets')."""

from __future__ import annotations

import re

import pytest

from assistant import ask
from assistant.agent.offline.knowledge_lead import bearing_results, settings, strip_comments
from assistant.agent.offline.planner import ToolResult
from assistant.agent.offline.scope import out_of_scope
from assistant.knowledge.entries import get_entry

SPEC_SHEET = re.compile(r"Bandwidth \(GB/s\)|Bande passante|Per-SM limits|SMs / compute units")


@pytest.mark.parametrize(
    "question",
    [
        "What frame rate can I expect in Elden Ring on an RTX 3070 at 4K?",
        "Which 240 Hz display pairs well with a 4080 Super?",
        "Is a Logitech mouse better than a Razer one for a gaming setup?",
        "When should I redo the thermal paste on my graphics card?",
        "Which smartphone has the fastest GPU?",
        "Mon Ryzen 5 va-t-il brider ma RTX 4070 en jeu ? Le CPU fait-il bottleneck ?",
        "Quelle manette pour jouer sur PC ?",
        "Combien d'images par seconde sur Fortnite avec une RX 7600 ?",
    ],
)
def test_questions_outside_the_scope_are_recognised(question: str) -> None:
    assert out_of_scope(question)


@pytest.mark.parametrize(
    "question",
    [
        "Is an RTX 4070 enough to fine-tune a 7B model with LoRA?",
        "Does two GPUs' VRAM add up for a 70B model?",
        "How do I monitor GPU memory while training in PyTorch?",
        "Can my gaming PC with a 3080 run Stable Diffusion XL?",
        "Puis-je entraîner un petit modèle sur la RTX 3060 de mon PC de jeu ?",
        "Which CUDA version does my RTX 2060 need for PyTorch?",
        "Will Ollama run on my MSI Gaming X laptop with a 6 GB card?",
        "Est-ce que LM Studio tourne sur mon portable gamer avec 8 Go de VRAM ?",
        "My gaming laptop has a GTX 1650 and 16GB of RAM, is that enough for this project?",
        "Un PC gamer avec 32 Go de RAM et une RTX 3060, c'est suffisant pour ce projet ?",
        # a data-centre card, a numeric format or a compute workload is computing work
        "For GROMACS, is a consumer card comparable to an A100? Gaming cards are weak at FP64",
        "Jetson Orin ou un laptop gamer avec une RTX 4060 pour notre robot ?",
        "Could the Tesla T4 replace the P4? It is newer and better at games",
    ],
)
def test_computing_questions_stay_in_scope(question: str) -> None:
    assert not out_of_scope(question)


def test_a_question_on_a_gpu_concept_is_never_answered_as_off_topic() -> None:
    # whatever the router's label, a question naming a card and a GPU concept, with passages
    # found on it, gets a passage or a tool's answer, not the out-of-scope paragraph
    answer = ask(
        "can our department give 7 interns their own slice of the H100s with MIG? and the L40S boxes?"
    )
    assert "outside what I can answer" not in answer.text
    assert answer.citations or answer.tool_calls


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("How many FPS does an RTX 4060 Ti get in Warzone at 1080p?", "outside what I can answer"),
        ("Quel écran 1440p choisir pour ma RTX 4070 ?", "sort de mon domaine"),
    ],
)
def test_out_of_scope_answer_says_so_without_gpu_material(question: str, said: str) -> None:
    answer = ask(question)
    assert said in answer.text
    assert "gpu-advisor" in answer.text
    assert not [c for c in answer.tool_calls if c.name != "search_corpus"]
    assert not re.search(r"\b\d+\s?(?:GB|Go)\b|sm_\d+|€|\$", answer.text), answer.text


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0]


@pytest.mark.parametrize(
    ("question", "lang", "entry_ids"),
    [
        (
            "If I put two GTX 1070 cards in my PC, do I get 16 GB of VRAM?",
            "en",
            ("multigpu-vram-does-not-pool",),
        ),
    ],
)
def test_conceptual_question_about_a_card_opens_with_the_entry(
    question: str, lang: str, entry_ids: tuple[str, ...]
) -> None:
    answer = ask(question)
    first = _first_paragraph(answer.text)
    if first.startswith("**No: the memory of"):
        # the premise stated in figures (two cards' memories added up) is answered first, in the
        # cards' own terms; the entry follows
        assert "2 × GeForce GTX 1070" in first
        first = _first_paragraph(answer.text.strip().split("\n\n", 1)[1])
    entries = [get_entry(i, lang) for i in entry_ids]
    entry = next(
        (e for e in entries if e and first.startswith(" ".join(e.answer.split())[:60])), None
    )
    assert entry is not None, answer.text
    assert not SPEC_SHEET.search(answer.text), answer.text
    assert "<!--" not in answer.text
    assert "From the guide" not in answer.text
    assert re.search(r"Knowledge base|Base de connaissances|fiche", answer.text)
    assert any(c.url == entry.sources[0].url for c in answer.citations), answer.citations


def test_the_entry_answers_in_the_question_language_even_from_a_french_passage() -> None:
    answer = ask("My RTX 5080 says sm_120 is not compatible with my PyTorch install, what now?")
    entry = get_entry("pytorch-sm-not-compatible", "en")
    french = get_entry("pytorch-sm-not-compatible", "fr")
    assert entry is not None and french is not None
    assert _first_paragraph(answer.text).startswith(" ".join(entry.answer.split())[:60])
    assert " ".join(french.answer.split())[:60] not in answer.text


def test_a_spec_question_keeps_its_spec_sheet() -> None:
    lookup = ToolResult(name="gpu_lookup", args={"gpu": "GeForce RTX 3090"}, result={})
    capability = ToolResult(
        name="gpu_capability",
        args={"gpu": "GeForce RTX 3090", "topic": "cuda_programming"},
        result={"topic": "cuda_programming"},
    )
    fit = ToolResult(name="workload_fit", args={}, result={})
    asked = "What are the specs of two RTX 3090 together, does the memory add up?"
    conceptual = "Does the memory of two RTX 3090 add up?"
    assert [r.name for r in bearing_results([lookup, capability, fit], asked)] == [
        "gpu_lookup",
        "workload_fit",
    ]
    assert [r.name for r in bearing_results([lookup, capability, fit], conceptual)] == [
        "workload_fit"
    ]


def test_comments_never_reach_a_quote() -> None:
    text = "## Q?\n<!-- id: some-id · date: 2026-01-01 -->\n\nThe answer."
    assert strip_comments(text) == "## Q? The answer."


def test_lists_are_data() -> None:
    conf = settings()
    assert "rent_cost" in conf.tool_first
    assert "gpu_lookup" in conf.spec_tools


@pytest.fixture
def declining_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lead model finds no entry sure enough (whatever the fitted weights say today)."""
    from assistant.agent.offline import lead_model
    from assistant.agent.offline.reading import forget_readings

    monkeypatch.setattr(lead_model, "choose", lambda options: None)
    forget_readings()


@pytest.mark.usefixtures("declining_lead")
def test_a_gpu_question_nothing_answers_for_sure_names_the_question_it_answers() -> None:
    # A card named, no tool answering and no entry surely about it: the nearest entry is given
    # as the answer to its own question, named first, never as the answer to this one, then the
    # card's facts, and never the out-of-scope paragraph.
    from assistant.knowledge.entries import load_entries

    answer = ask("Why does my RTX 4070 smell like hot plastic after a long rendering night?").text
    assert "outside what I can answer" not in answer
    paragraphs = answer.split("\n\n")
    first = paragraphs[0]
    assert first.startswith("The nearest question I have an answer to is *"), first
    titles = {e.title for e in load_entries()}
    assert first.split("*")[1] in titles
    assert "Knowledge base:" in answer  # the entry's source follows its answer
    assert any(p.startswith("**GeForce RTX 4070**") for p in paragraphs[2:]), answer


@pytest.mark.usefixtures("declining_lead")
def test_a_french_question_nothing_answers_for_sure_says_so_in_french() -> None:
    answer = ask("Pourquoi ma RTX 4070 sent le plastique chaud après une nuit de rendu ?").text
    first = answer.split("\n\n")[0]
    assert first.startswith("La question la plus proche à laquelle j'ai une réponse"), first


def test_an_entry_about_other_cards_does_not_answer_for_the_asker_s_card() -> None:
    text = ask("Is my gaming laptop with a 4060 good for Stable Diffusion?").text
    assert "GTX 1650" not in text.split("\n\n")[0]
    assert "4060" in text.split("\n\n")[0]


def test_a_pasted_incompatibility_warning_opens_with_the_fix() -> None:
    # the entry or the support check may lead; either way the first lines give the wheels to install
    answer = ask(
        "Ma RTX 5070 affiche que sm_120 n'est pas compatible avec mon installation PyTorch, que faire ?"
    )
    head = "\n".join(answer.text.split("\n")[:4])
    assert "cu128" in head or "CUDA 12.8" in head, answer.text
    assert not SPEC_SHEET.search(answer.text), answer.text


@pytest.mark.parametrize(
    "question",
    ["Can my RTX 4090 do megakernels?", "Ma RTX 4090 peut-elle faire des megakernels ?"],
)
def test_a_named_card_s_verdict_comes_before_an_entry_on_the_feature(question: str) -> None:
    # an entry explains what a megakernel is; the question asks what this card can do
    first = ask(question).text.split("\n\n")[0]
    assert first.startswith(("**Partly", "**En partie")), first
    assert "4090" in first


def test_memory_in_training_is_not_the_entry_for_an_error_while_generating() -> None:
    from assistant.agent.offline.lead_match import other_task

    generating = "ComfyUI died with CUDA out of memory while generating an image with SDXL"
    assert other_task(generating, "oom-training-fixes")
    assert not other_task(generating, "oom-on-small-gpu-inference")
    training = "CUDA out of memory while training a LoRA with batch size 8"
    assert not other_task(training, "oom-training-fixes")
    assert other_task(training, "oom-on-small-gpu-inference")
    assert not other_task(generating, "amd-polaris-rx580")  # 'training' in its title, not memory


def test_an_entry_written_for_any_card_gets_the_named_cards_targets() -> None:
    """The 'no kernel image' fix says sm_XX; the asker's RTX 3090 is sm_86, from CUDA 11.1."""
    answer = ask(
        "rtx 3090 error: Check failed: error == cudaSuccess (48 vs. 0) no kernel image is "
        "available for execution on the device"
    )
    assert "For your GeForce RTX 3090: `sm_86`" in answer.text, answer.text
    assert "CUDA 11.1 or newer" in answer.text


def test_the_nearest_question_is_never_about_a_feature_the_question_does_not_name() -> None:
    from assistant.agent.offline import knowledge_lead
    from assistant.agent.offline.lead_match import about_unasked_feature
    from assistant.agent.offline.reading import Conversation, read_turn

    reading = read_turn(
        Conversation(
            "No compatible GPU available RTX A4500 — Is it true the RTX A4500 is not supported? "
            "It says there is no compatible GPU available to support your training."
        )
    )
    near = knowledge_lead.nearest_entry(reading, [])
    assert near is None or not about_unasked_feature(reading, near.entry.id)
