"""The pure conversions from answers and stream events to chat messages (no UI started)."""

from __future__ import annotations

import json

from assistant.answer import Answer, Citation, StreamEvent, ToolCall
from assistant.ui.render import (
    TurnView,
    answer_messages,
    compact_json,
    history_for_ask,
    sources_message,
    tool_step_message,
)

CAPABILITY = ToolCall(
    name="gpu_capability",
    arguments={"gpu": "GeForce RTX 4090", "topic": "megakernels"},
    result={
        "verdict": "partial",
        "sources": [
            {
                "title": "CUDA Programming Guide",
                "url": "https://example.org/cc",
                "note": "Table 29",
            },
            {"title": "Corpus: Obtenir un GPU", "url": None, "note": "§1.5"},
        ],
    },
)
LOOKUP = ToolCall(
    name="gpu_lookup",
    arguments={"name": "RTX 4090"},
    result={
        "name": "GeForce RTX 4090",
        "sources": [
            {"title": "CUDA Programming Guide", "url": "https://example.org/cc", "note": "Table 29"}
        ],
    },
)
CITATION = Citation(
    document="obtenir-un-gpu.md",
    section="1.5 Ce qu'il faut pour chaque partie",
    snippet="Megakernels : Hopper ou Blackwell en pratique.\n\nLouez une H100.",
)


def make_answer(**update) -> Answer:
    base = Answer(
        question="Can my RTX 4090 do megakernels?",
        text="**Partly** — the concepts work everywhere.",
        citations=[CITATION],
        tool_calls=[CAPABILITY],
        backend="offline",
        elapsed_ms=1234.0,
    )
    return base.model_copy(update=update)


def test_tool_step_is_a_closed_step_with_arguments_and_result_but_not_sources():
    msg = tool_step_message(CAPABILITY)
    assert msg["role"] == "assistant"
    assert msg["metadata"] == {"title": "🔧 gpu_capability", "status": "done"}
    assert '{"gpu": "GeForce RTX 4090", "topic": "megakernels"}' in msg["content"]
    assert 'verdict: "partial"' in msg["content"]
    assert "Table 29" not in msg["content"]  # sources go under the answer, once
    assert msg["content"].startswith("**Arguments**")


def test_failed_tool_step_shows_the_error_in_french_labels():
    call = ToolCall(name="gpu_lookup", arguments={"name": "RTX 9999"}, error="unknown GPU")
    msg = tool_step_message(call, "fr")
    assert msg["metadata"]["title"] == "🔧 gpu_lookup — erreur"
    assert msg["content"].endswith("**Erreur**\n\nunknown GPU")


def test_compact_json_cuts_long_results_and_fences_survive_backticks():
    text = compact_json({"x": "a" * 5000}, limit=100)
    assert len(text) <= 100 + len("\n… (truncated)")
    assert text.endswith("… (truncated)")
    msg = tool_step_message(ToolCall(name="t", arguments={"q": "```"}, result="```"))
    assert "````json" in msg["content"]  # a longer fence keeps the block closed


def test_sources_list_citations_then_distinct_tool_sources():
    answer = make_answer(tool_calls=[CAPABILITY, LOOKUP])
    msg = sources_message(answer)
    assert msg is not None
    assert msg["metadata"] == {"title": "📚 Sources (3)", "status": "done"}
    assert msg["content"].splitlines() == [
        "1. *obtenir-un-gpu.md* — 1.5 Ce qu'il faut pour chaque partie",
        "   > Megakernels : Hopper ou Blackwell en pratique. Louez une H100.",
        "2. [CUDA Programming Guide](https://example.org/cc) — Table 29",
        "3. Corpus: Obtenir un GPU — §1.5",
    ]
    assert sources_message(make_answer(citations=[], tool_calls=[])) is None


def test_answer_messages_order_and_badge():
    messages = answer_messages(make_answer(notices=["Your message was cut to 4000 characters."]))
    assert [m.get("metadata", {}).get("title") for m in messages] == [
        "🔧 gpu_capability",
        None,
        "📚 Sources (3)",
    ]
    body = messages[1]["content"]
    assert body == (
        "> ℹ️ Your message was cut to 4000 characters.\n\n"
        "**Partly** — the concepts work everywhere.\n\n"
        "<sub>backend: offline · 1.2 s</sub>"
    )


def test_turn_view_streams_steps_then_text_then_final_answer():
    view = TurnView()
    assert view.messages() == []
    view.add(StreamEvent(kind="notice", text="The openai:x backend failed; answered offline."))
    view.add(StreamEvent(kind="tool_call", tool_call=CAPABILITY))
    shown = view.messages()
    assert [m["metadata"]["title"] for m in shown if "metadata" in m] == ["🔧 gpu_capability"]
    assert shown[-1]["content"] == "> ℹ️ The openai:x backend failed; answered offline."
    view.add(StreamEvent(kind="text", text="**Part"))
    view.add(StreamEvent(kind="text", text="ly**"))
    assert view.messages()[-1]["content"].endswith("**Partly**")
    assert view.final_text == "**Partly**"
    view.add(StreamEvent(kind="done", answer=make_answer()))
    final = view.messages()
    assert final[-1]["metadata"]["title"] == "📚 Sources (3)"
    assert final[-2]["content"].startswith("> ℹ️ The openai:x backend failed; answered offline.")
    assert final[-2]["content"].endswith("<sub>backend: offline · 1.2 s</sub>")
    assert view.final_text == "**Partly** — the concepts work everywhere."


def test_history_keeps_questions_and_answer_texts_only():
    chat = [
        {"role": "user", "content": "Can my RTX 4090 do megakernels?"},
        *answer_messages(make_answer(notices=["note"])),
        # what Gradio sends back from the browser: content as a list of parts
        {"role": "user", "content": [{"type": "text", "text": "And an H100?"}], "metadata": None},
        {"role": "assistant", "content": "🖥️ probe", "metadata": {"title": "🖥️ This machine"}},
    ]
    assert history_for_ask(chat) == [
        {"role": "user", "content": "Can my RTX 4090 do megakernels?"},
        {"role": "assistant", "content": "**Partly** — the concepts work everywhere."},
        {"role": "user", "content": "And an H100?"},
    ]


def test_real_answer_renders_tool_steps_answer_and_sources(megakernels_answer):
    messages = answer_messages(megakernels_answer)
    titles = [m.get("metadata", {}).get("title") for m in messages]
    assert titles[0] == "🔧 gpu_capability"
    assert titles[-1].startswith("📚 Sources (")
    body = next(m["content"] for m in messages if not m.get("metadata"))
    assert "Partly" in body
    step_args = json.loads(messages[0]["content"].split("```json\n")[1].split("\n```")[0])
    assert step_args == {"gpu": "GeForce RTX 4090", "topic": "megakernels"}
