"""The chat page on a real loopback port: the /chat API, the caps, the browser-held history,
and no secret on the page."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.ui.conftest import MEGAKERNELS, free_port

pytestmark = [
    pytest.mark.slow,
    # raised inside Gradio's queue by its own use of pandas, not by this project
    pytest.mark.filterwarnings("ignore:.*no_silent_downcasting:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated:DeprecationWarning"),
]

CANARY = "sk-test-INTERFACES-canary-7f3a9c21e4b5"


def test_chat_api_returns_the_answer_text(chat_url: str):
    from gradio_client import Client

    client = Client(chat_url, verbose=False)
    assert list(client.view_api(return_format="dict")["named_endpoints"]) == ["/chat"]
    text = client.predict(MEGAKERNELS, api_name="/chat")
    assert isinstance(text, str)
    assert text.startswith("**Partly** — GeForce RTX 4090 (`sm_89`, CC 8.9)")
    assert "<sub>backend" not in text  # the API returns the answer, not the page decorations


def test_chat_api_continues_a_conversation_like_ask_and_the_page(chat_url: str):
    """Two turns through `/chat` with their history: the same answers as `ask()` with that
    history, and as the page gives after those messages."""
    from gradio_client import Client

    from assistant import ask

    client = Client(chat_url, verbose=False)
    first = client.predict(MEGAKERNELS, [], api_name="/chat")
    history = [
        {"role": "user", "content": MEGAKERNELS},
        {"role": "assistant", "content": first},
    ]
    second = client.predict("and the 3090?", history, api_name="/chat")
    assert first == ask(MEGAKERNELS).text
    assert second == ask("and the 3090?", history=history).text
    assert second.startswith("**Partly** — GeForce RTX 3090")
    service, _ = _service(per_minute=10)
    page = _last_text(service.turn("and the 3090?", history, "browser"))
    assert page.startswith(second)  # the page adds only its backend badge
    alone = client.predict("and the 3090?", api_name="/chat")  # without history: no megakernels
    assert "GeForce RTX 3090" in alone and "egakernel" not in alone


def test_chat_api_caps_length_and_refuses_empty(chat_url: str):
    from gradio_client import Client

    from assistant.settings import get_settings

    limit = get_settings().max_message_chars
    client = Client(chat_url, verbose=False)
    assert client.predict("x " * 50_000, api_name="/chat") == (
        f"Your message is 100,000 characters long; the limit is {limit:,}. "
        "Please shorten it and ask again."
    )
    assert client.predict("   ", api_name="/chat").startswith("Please type a question")
    # and the server keeps serving
    assert "Partly" in client.predict(MEGAKERNELS, api_name="/chat")


def _service(per_minute: int = 2):
    from assistant.ui.gradio_app import ChatService
    from assistant.ui.limits import RateLimiter

    service = ChatService()
    now = [0.0]
    service.limiter = RateLimiter(per_minute, clock=lambda: now[0])
    return service, now


def _last_text(turns) -> str:
    *_, last = turns
    return next(m["content"] for m in reversed(last) if not m.get("metadata"))


def test_flood_from_one_session_is_rate_limited_politely(megakernels_answer):
    service, now = _service(per_minute=2)
    replies = [_last_text(service.turn(MEGAKERNELS, [], "flooder")) for _ in range(20)]
    answered = [r for r in replies if "Partly" in r]
    refused = [r for r in replies if r.startswith("You are sending messages faster")]
    assert len(answered) == 2 and len(refused) == 18
    assert refused[0].endswith("Please wait 30 s and ask again.")
    assert "Partly" in _last_text(service.turn(MEGAKERNELS, [], "someone-else"))
    now[0] += 30.0
    assert "Partly" in _last_text(service.turn(MEGAKERNELS, [], "flooder"))
    french = _last_text(service.turn("Quelles fonctionnalités a ma RTX 5090 ?", [], "flooder"))
    assert french.startswith("Vous envoyez des messages plus vite")


def test_only_a_chat_on_localhost_probes_this_machine(megakernels_answer):
    """A chat on localhost is used by someone at this machine; a shared or public one is not."""
    from assistant.ui.gradio_app import ChatService, is_local

    assert is_local("127.0.0.1") and is_local("localhost") and is_local("::1")
    assert not is_local("0.0.0.0") and not is_local("192.168.1.20")
    question = "What GPU is in my machine?"
    local = list(ChatService(at_machine=True).turn(question, [], "a"))[-1]
    shared = list(ChatService(at_machine=False).turn(question, [], "b"))[-1]
    assert local[0]["metadata"]["title"] == "🔧 probe_gpus"
    assert all(m.get("metadata", {}).get("title") != "🔧 probe_gpus" for m in shared)
    assert _last_text([shared]).startswith("**I can't see your machine from here**")
    assert (
        ChatService(at_machine=False)
        .answer_text(question, "c")
        .startswith("**I can't see your machine from here**")
    )


def test_stream_shows_steps_then_answer_then_sources(megakernels_answer):
    service, _ = _service(per_minute=10)
    frames = list(service.turn(MEGAKERNELS, [], "s"))
    assert frames[0][0]["metadata"]["title"] == "🔧 gpu_capability"  # a step before any text
    final = frames[-1]
    titles = [m.get("metadata", {}).get("title") for m in final]
    assert titles[:2] == ["🔧 gpu_capability", "🔧 search_corpus"]
    assert titles[-1].startswith("📚 Sources (")
    assert final[-2]["content"].endswith("</sub>") and "backend: offline" in final[-2]["content"]


def test_history_lives_in_the_browser_so_any_replica_answers(megakernels_answer):
    """Turn 1 on one replica, turn 2 on another: the page sends the conversation each time."""
    first, _ = _service(per_minute=10)
    second, _ = _service(per_minute=10)
    chat = [{"role": "user", "content": MEGAKERNELS}, *list(first.turn(MEGAKERNELS, [], "u"))[-1]]
    # what the browser sends back: content as text parts
    sent = [{**m, "content": [{"type": "text", "text": m["content"]}]} for m in chat]
    follow_up = list(second.turn("And an H100?", sent, "u"))[-1]
    step = follow_up[0]
    assert step["metadata"]["title"] == "🔧 gpu_capability"
    assert '"topic": "megakernels"' in step["content"]
    assert _last_text([follow_up]).startswith("**Yes** — H100")


def test_failing_turn_is_a_polite_message(monkeypatch, megakernels_answer):
    import assistant.agent.api as api

    def broken(*args, **kwargs):
        raise RuntimeError("boom: /secret/path line 3")

    monkeypatch.setattr(api, "ask_stream", broken)
    service, _ = _service()
    frames = list(service.turn(MEGAKERNELS, [], "s"))
    assert frames[-1] == [
        {
            "role": "assistant",
            "content": "Sorry — something went wrong while answering. Please try again in a moment.",
        }
    ]
    assert service.answer_text(MEGAKERNELS, "t") == frames[-1][0]["content"]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8", errors="replace")


def test_api_key_never_reaches_the_page(monkeypatch, megakernels_answer):
    """A failing OpenAI backend with a recognisable key: page, config, API info and the answer
    (which carries the fallback notice) never show the key."""
    from gradio_client import Client

    from assistant.ui.gradio_app import launch

    dead = free_port()  # nothing listens there: the backend fails fast and falls back
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{dead}/v1")
    demo = launch(host="127.0.0.1", port=free_port(), backend="openai:gpt-4o-mini", block=False)
    try:
        url = str(demo.local_url)
        page = _get(url)
        config = _get(url + "config")
        assert "openai:gpt-4o-mini" in config  # the backend is shown…
        info = _get(url + "gradio_api/info")
        client = Client(url, verbose=False)
        text = client.predict(MEGAKERNELS, api_name="/chat")
        assert "Partly" in text
        for output in (page, config, info, text, json.dumps(text)):
            assert CANARY not in output  # …the key never is
            assert CANARY[-12:] not in output  # nor a part of it
    finally:
        demo.close()


def test_concurrent_users_all_get_answers_through_the_queue(chat_url: str):
    from concurrent.futures import ThreadPoolExecutor

    from gradio_client import Client

    questions = [
        MEGAKERNELS,
        "Will Llama 3 70B fit in 24 GB?",
        "Quelles fonctionnalités a ma RTX 5090 ?",
    ]

    def one_user(i: int) -> str:
        return Client(chat_url, verbose=False).predict(questions[i % 3], api_name="/chat")

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(one_user, range(8)))
    assert [a.startswith("**Partly**") for a in answers[0::3]] == [True] * 3
    assert all(a.startswith("**No, it does not fit**") for a in answers[1::3])
    assert all(a.startswith("**GeForce RTX 5090**") for a in answers[2::3])
