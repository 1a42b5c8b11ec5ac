"""The chat page: a Gradio Blocks app around `ask_stream()`.

The conversation lives in the browser: every request carries the Chatbot's messages and
the server rebuilds the history from them, so any replica can answer any message. The
only per-process state is the rate-limit buckets (see `limits.py`).

    from assistant.ui.gradio_app import launch
    launch()                      # prints the URL
    launch(share=True)            # a public link, e.g. from Colab

`/chat` is also an API endpoint: `Client(url).predict("…", api_name="/chat")` returns the
answer text; `Client(url).predict("and the 3090?", history, api_name="/chat")` continues a
conversation, `history` being the earlier `{"role", "content"}` messages (the same answer the page
gives after those messages).
"""

# No `from __future__ import annotations` here: Gradio reads the handlers' annotations
# (gr.Request, gr.SelectData, str) as real objects to inject requests and type the API.

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from assistant.log import get_logger, redact
from assistant.tools.probe.markdown import probe_markdown
from assistant.ui import limits
from assistant.ui.render import ChatDict, TurnView, history_for_ask

if TYPE_CHECKING:
    import gradio as gr

log = get_logger(__name__)

EXAMPLES = [
    "Can my RTX 4090 do megakernels?",
    "J'ai 200 €, louer ou acheter ?",
    "Spot at $0.80/h or dedicated at $2.50/h for a 100-hour run?",
    "Will Llama 3 70B fit in 24 GB?",
    "Quelles fonctionnalités a ma RTX 5090 ?",
    "Combien coûte une H100 pendant 50 heures ?",
]

INTRO = (
    "Which GPU? Ask about a card's features, renting or buying, the memory a model needs, "
    "or this machine's GPU. Each answer shows the tools it used (🔧) and its sources (📚).  \n"
    "*Quel GPU ? Posez votre question en français : fonctionnalités d'une carte, louer ou "
    "acheter, mémoire nécessaire pour un modèle.*"
)

CSS = """
#gpu-advisor-header h1 { margin-bottom: 0.2rem; }
#gpu-advisor-header p { margin-top: 0; opacity: 0.85; }
#gpu-advisor-chat .message-wrap pre { white-space: pre-wrap; }
footer { display: none !important; }
"""


class ChatService:
    """What the page does per message, free of Gradio: caps, limits, streaming, errors."""

    def __init__(self, backend: str | None = None, at_machine: bool = True) -> None:
        from assistant.settings import get_settings

        settings = get_settings()
        self.backend = backend
        # whether the people chatting sit at this machine (a chat on localhost, not shared):
        # only then may "my GPU" be probed
        self.at_machine = at_machine
        self.max_chars = settings.max_message_chars
        self.limiter = limits.RateLimiter(settings.chat_rate_per_minute)

    def backend_label(self) -> str:
        """The backend's name as the page shows it (never with a key)."""
        from assistant.agent.backends import BackendError, normalize_backend

        try:
            name = normalize_backend(self.backend)
        except BackendError:
            name = str(self.backend)
        return redact(name)

    def refusal(self, message: str, session: str) -> str | None:
        """A polite message when this message must not be answered, else None."""
        language = limits.guess_language(message)
        if not message.strip():
            return limits.EMPTY_TEXT[language]
        if len(message) > self.max_chars:
            return limits.length_message(len(message), self.max_chars, language)
        wait = self.limiter.acquire(session)
        if wait > 0:
            return limits.rate_message(wait, language)
        return None

    def turn(self, message: str, history: list[Any], session: str) -> Iterator[list[ChatDict]]:
        """The assistant messages of this turn, re-yielded as they grow."""
        refusal = self.refusal(message, session)
        if refusal is not None:
            yield [{"role": "assistant", "content": refusal}]
            return
        from assistant.agent.api import ask_stream

        view = TurnView(limits.guess_language(message))
        try:
            for event in ask_stream(
                message,
                history=history_for_ask(history),
                backend=self.backend,
                at_machine=self.at_machine,
            ):
                view.add(event)
                yield view.messages()
        except Exception as exc:  # the page shows a polite line, never a traceback
            log.warning("chat turn failed: %s", redact(f"{type(exc).__name__}: {exc}"))
            yield [*view.steps, {"role": "assistant", "content": limits.ERROR_TEXT[view.language]}]

    def answer_text(self, message: str, session: str, history: list[Any] | None = None) -> str:
        """One message (after `history`, the earlier messages) in, the answer text out: the
        `/chat` API."""
        refusal = self.refusal(message, session)
        if refusal is not None:
            return refusal
        from assistant.agent.api import ask_stream

        view = TurnView(limits.guess_language(message))
        turns = history_for_ask(history if isinstance(history, list) else [])
        try:
            for event in ask_stream(
                message, history=turns, backend=self.backend, at_machine=self.at_machine
            ):
                view.add(event)
        except Exception as exc:
            log.warning("chat API call failed: %s", redact(f"{type(exc).__name__}: {exc}"))
            return limits.ERROR_TEXT[view.language]
        return view.final_text


def _session_key(request: Any) -> str:
    if request is None:
        return "anonymous"
    session = getattr(request, "session_hash", None)
    if session:
        return str(session)
    client = getattr(request, "client", None)
    return str(getattr(client, "host", None) or "anonymous")


def build_app(backend: str | None = None, at_machine: bool = True) -> "gr.Blocks":
    """The chat page, with its queue configured; launch it with `.launch()` or `launch()`.

    `at_machine`: the people chatting sit at this machine (a chat on localhost). Otherwise the
    page offers no "Probe this machine" button and answers never probe it."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    import gradio as gr

    from assistant.settings import get_settings

    service = ChatService(backend, at_machine)
    badge = service.backend_label()

    def respond(
        message: str, chat: list[Any] | None, request: gr.Request
    ) -> Iterator[tuple[str, list[Any]]]:
        """Show the question at once, then the answer's messages as they come."""
        chat = list(chat or [])
        message = message or ""
        shown = [*chat, {"role": "user", "content": message}] if message.strip() else chat
        yield "", shown
        for turn in service.turn(message, chat, _session_key(request)):
            yield "", [*shown, *turn]

    def pick_example(example: gr.SelectData) -> str:
        """The text of the example clicked."""
        value = example.value
        return str(value.get("text", "") if isinstance(value, dict) else value)

    def probe(chat: list[Any] | None) -> list[Any]:
        """The chat with this machine's GPUs appended, or a line saying the probe could not run."""
        chat = list(chat or [])
        try:
            from assistant.tools.probe import probe_local_gpus

            text = probe_markdown(probe_local_gpus(None))
        except Exception as exc:
            log.warning("probe failed: %s", redact(f"{type(exc).__name__}: {exc}"))
            text = "The probe could not run on this machine. / La sonde n'a pas pu s'exécuter."
        return [
            *chat,
            {"role": "assistant", "content": text, "metadata": {"title": "🖥️ This machine"}},
        ]

    def chat_api(
        request: gr.Request, message: str, history: list[dict[str, str]] | None = None
    ) -> str:
        """Ask gpu-advisor a question (English or French), optionally after `history` (the
        earlier messages, a list of {"role": "user" | "assistant", "content": text}); returns
        the answer text."""
        return service.answer_text(message or "", _session_key(request), history)

    with gr.Blocks(title="gpu-advisor", fill_height=True) as demo:
        gr.Markdown(
            f"# gpu-advisor\n{INTRO}\n\n<sub>backend: **{badge}**</sub>",
            elem_id="gpu-advisor-header",
        )
        chatbot = gr.Chatbot(
            label="gpu-advisor",
            show_label=False,
            elem_id="gpu-advisor-chat",
            examples=[{"text": q} for q in EXAMPLES],
            placeholder="**Ask about a GPU** — or pick an example / *choisissez un exemple*.",
            buttons=["copy"],
            feedback_options=None,
            scale=1,
            height=560,
            autoscroll=True,
        )
        with gr.Row():
            textbox = gr.Textbox(
                placeholder="Ask about a GPU… / Posez votre question…",
                show_label=False,
                container=False,
                scale=8,
                max_lines=6,
                autofocus=True,
                elem_id="gpu-advisor-input",
                submit_btn=True,
            )
        with gr.Row():
            probe_btn = gr.Button(
                "🖥️ Probe this machine · Sonder cette machine",
                size="sm",
                variant="secondary",
                visible=at_machine,
            )
            clear_btn = gr.ClearButton(
                [chatbot, textbox], value="New chat · Nouvelle conversation", size="sm"
            )
        del clear_btn

        textbox.submit(respond, [textbox, chatbot], [textbox, chatbot], api_visibility="private")
        chatbot.example_select(pick_example, None, textbox, api_visibility="private").then(
            respond, [textbox, chatbot], [textbox, chatbot], api_visibility="private"
        )
        probe_btn.click(probe, chatbot, chatbot, api_visibility="private")
        gr.api(chat_api, api_name="chat")

    demo.queue(default_concurrency_limit=get_settings().chat_concurrency, max_size=256)
    return demo


def is_local(host: str) -> bool:
    """Whether a chat listening on `host` is reachable only from this machine."""
    return host.strip().lower() in {"127.0.0.1", "localhost", "::1", "[::1]"}


def _in_notebook() -> bool:
    return "ipykernel" in sys.modules or "google.colab" in sys.modules


def launch(
    host: str | None = None,
    port: int | None = None,
    share: bool = False,
    inline: bool | None = None,
    backend: str | None = None,
    block: bool | None = None,
    as_json: bool = False,
) -> "gr.Blocks":
    """Start the chat page and print its URL; blocks unless in a notebook (or `block=False`)."""
    import json

    from assistant.settings import get_settings

    settings = get_settings()
    host = host or settings.chat_host
    demo = build_app(backend, at_machine=is_local(host) and not share)
    notebook = _in_notebook()
    demo.launch(
        server_name=host,
        server_port=port or settings.chat_port or None,
        share=share,
        inline=inline if inline is not None else notebook,
        prevent_thread_lock=True,
        quiet=True,
        show_error=False,
        css=CSS,
    )
    url = str(getattr(demo, "share_url", None) or demo.local_url)
    if as_json:
        print(json.dumps({"url": url, "local_url": demo.local_url, "share_url": demo.share_url}))
    else:
        print(f"gpu-advisor chat running at {url}  (Ctrl+C to stop)")
    sys.stdout.flush()
    if block if block is not None else not notebook:
        try:
            demo.block_thread()
        except KeyboardInterrupt:
            demo.close()
    return demo
