"""`ask()` and `ask_stream()`: one question in, a grounded `Answer` out, whatever the backend."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from time import perf_counter
from typing import TYPE_CHECKING, Any

from assistant.agent.backends import OFFLINE, BackendError
from assistant.agent.collect import RunRecorder, message_text
from assistant.agent.guards import EMPTY_QUESTION_TEXT, CleanInput, clean_input
from assistant.answer import Answer, StreamEvent
from assistant.log import get_logger, redact

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

log = get_logger(__name__)

History = Iterable[Any] | None

FAILED_TEXT = {
    "en": "Sorry — I could not produce an answer this time ({reason}). Please try again.",
    "fr": "Désolé — je n'ai pas pu répondre cette fois ({reason}). Réessayez.",
}


def ask(
    question: str | bytes,
    history: History = None,
    backend: str | BaseChatModel | None = None,
    *,
    at_machine: bool = True,
) -> Answer:
    """Answer one question; `history` is a list of {"role", "content"} messages before it.

    `backend` is a name (`offline`, `openai:<model>`, `ollama:<model>`; default: the
    `GPU_ADVISOR_LLM` setting) or a LangChain chat model. Never raises for a failing backend:
    it falls back to `offline` and says so in `Answer.notices`.

    `at_machine` says whether the asker sits at the machine this runs on (the CLI, a notebook, a
    chat on localhost): only then may "my GPU" be probed. A shared interface (Discord, a public chat)
    passes False, and the answer explains how to check instead.
    """
    for event in _events(question, history, backend, stream_text=False, at_machine=at_machine):
        if event.kind == "done" and event.answer is not None:
            return event.answer
    raise AssertionError("the event stream ended without an answer")  # pragma: no cover


def ask_stream(
    question: str | bytes,
    history: History = None,
    backend: str | BaseChatModel | None = None,
    *,
    at_machine: bool = True,
) -> Iterator[StreamEvent]:
    """Like `ask`, as events: each tool call when it finishes, text as it is written, notices,
    then `done` with the full `Answer` (whose text is the authoritative answer)."""
    return _events(question, history, backend, stream_text=True, at_machine=at_machine)


def describe_failure(exc: BaseException) -> str:
    """A short, key-free reason for a backend failure."""
    kind = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if isinstance(exc, BackendError):
        reason = str(exc)
    elif "Timeout" in kind:
        reason = "timed out"
    elif "Connect" in kind or isinstance(exc, ConnectionError):
        reason = "unreachable"
    elif isinstance(status, int):
        reason = f"HTTP {status}"
        if status == 401:
            reason += ": the API key was refused (OPENAI_API_KEY)"
    elif kind == "GraphRecursionError":
        reason = "too many tool steps"
    else:
        detail = " ".join(str(exc).split())[:160]
        reason = f"{kind}: {detail}" if detail else kind
    return redact(reason)


def _backend_name(backend: Any) -> str:
    if backend is None or isinstance(backend, str):
        from assistant.agent.backends import normalize_backend

        try:
            return normalize_backend(backend)
        except BackendError:
            return str(backend).strip()
    return str(getattr(backend, "model_name", None) or type(backend).__name__)


def _agent_for(backend: Any, name: str, at_machine: bool = True) -> Any:
    from assistant.agent.factory import build_agent, build_agent_for_model

    if backend is None or isinstance(backend, str):
        return build_agent(name, at_machine)
    return build_agent_for_model(backend, at_machine)


def _events(
    question: str | bytes,
    history: History,
    backend: Any,
    *,
    stream_text: bool,
    at_machine: bool = True,
) -> Generator[StreamEvent, None, None]:
    from assistant.language import detect_language
    from assistant.settings import get_settings

    started = perf_counter()
    settings = get_settings()
    clean = clean_input(
        question,
        history,
        max_chars=settings.max_message_chars,
        max_turns=settings.max_history_turns,
    )
    notices = list(clean.notices)
    for notice in notices:
        yield StreamEvent(kind="notice", text=notice)
    name = _backend_name(backend)

    def finish(text: str, recorder: RunRecorder | None, backend_name: str) -> StreamEvent:
        """The closing event: the answer with its citations, tool calls, notices and timing."""
        answer = Answer(
            question=clean.question,
            text=text,
            language=detect_language(clean.question) if clean.question else "en",
            citations=recorder.citations() if recorder else [],
            tool_calls=recorder.tool_calls if recorder else [],
            backend=backend_name,
            elapsed_ms=(perf_counter() - started) * 1000,
            notices=notices,
        )
        return StreamEvent(kind="done", answer=answer)

    if clean.empty:
        yield finish(EMPTY_QUESTION_TEXT, None, name)
        return

    recorder: RunRecorder | None = None
    try:
        recorder = yield from _run(
            lambda: _agent_for(backend, name, at_machine), clean, stream_text
        )
    except Exception as exc:
        reason = describe_failure(exc)
        log.warning("backend %s failed: %s", name, reason)
        if name != OFFLINE:
            notice = redact(f"The {name} backend failed ({reason}); answered offline.")
            notices.append(notice)
            yield StreamEvent(kind="notice", text=notice)
            name = OFFLINE
            try:
                recorder = yield from _run(
                    lambda: _agent_for(None, OFFLINE, at_machine), clean, stream_text
                )
            except Exception as offline_exc:
                reason = describe_failure(offline_exc)
                log.warning("offline backend failed: %s", reason)
        if recorder is None:
            language = detect_language(clean.question)
            yield finish(FAILED_TEXT[language].format(reason=reason), None, name)
            return
    yield finish(recorder.final_text, recorder, name)


def _run(
    make_agent: Any, clean: CleanInput, stream_text: bool
) -> Generator[StreamEvent, None, RunRecorder]:
    """Run the agent once, yielding tool-call (and text) events; return what it recorded."""
    from langchain_core.messages import AIMessage, ToolMessage

    from assistant.agent.toolset import build_tools
    from assistant.settings import get_settings

    agent = make_agent()
    recorder = RunRecorder({tool.name for tool in build_tools()})
    messages = [*clean.history, {"role": "user", "content": clean.question}]
    config = {"recursion_limit": 2 * get_settings().llm_max_steps + 1}
    modes = ["updates", "messages"] if stream_text else ["updates"]
    for mode, data in agent.stream({"messages": messages}, config=config, stream_mode=modes):
        if mode == "messages":
            chunk, meta = data
            if isinstance(chunk, AIMessage) and meta.get("langgraph_node") == "model":
                text = message_text(chunk)
                if text:
                    yield StreamEvent(kind="text", text=text)
            continue
        for update in data.values():
            for message in (update or {}).get("messages", []) if isinstance(update, dict) else []:
                if isinstance(message, AIMessage):
                    recorder.on_model_message(message)
                elif isinstance(message, ToolMessage):
                    yield StreamEvent(kind="tool_call", tool_call=recorder.on_tool_message(message))
    if not recorder.final_text.strip():
        raise BackendError("empty answer")
    return recorder
