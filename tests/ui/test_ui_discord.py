"""The Discord handlers driven with fake interactions and messages (Discord's network is the
only thing faked; answers come from the real `ask`)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from assistant.ui import discord_bot
from assistant.ui.discord_bot import BotContext, handle_ask, handle_mention, mention_question
from assistant.ui.limits import RateLimiter
from tests.ui.conftest import MEGAKERNELS

BOT = SimpleNamespace(id=999)


def no_pings(allowed: Any) -> bool:
    return isinstance(allowed, discord.AllowedMentions) and not any(
        [allowed.everyone, allowed.users, allowed.roles, allowed.replied_user]
    )


class FakeInteraction:
    """Records what the handler sends, in order."""

    def __init__(self, log: list[tuple], user_id: int = 42, defer_error: Exception | None = None):
        self.user = SimpleNamespace(id=user_id)
        outer = self

        class Response:
            async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
                log.append(("defer", thinking))
                if defer_error is not None:
                    raise defer_error

            async def send_message(self, content: str, **kwargs: Any) -> None:
                log.append(("send_message", content, kwargs))

        class Followup:
            async def send(self, content: str, **kwargs: Any) -> None:
                log.append(("followup", content, kwargs))

        outer.response = Response()
        outer.followup = Followup()


class FakeChannel:
    def __init__(self, log: list[tuple]) -> None:
        self.log = log

    def typing(self) -> Any:
        log = self.log

        class Typing:
            async def __aenter__(self) -> None:
                log.append(("typing",))

            async def __aexit__(self, *exc: object) -> None:
                return None

        return Typing()

    async def send(self, content: str, **kwargs: Any) -> None:
        self.log.append(("channel_send", content, kwargs))


class FakeMessage:
    def __init__(self, log, content: str, author_id: int = 7, bot: bool = False, mentions=(BOT,)):
        self.id = 1
        self.content = content
        self.author = SimpleNamespace(id=author_id, bot=bot)
        self.mentions = list(mentions)
        self.channel = FakeChannel(log)
        self.reference = None
        self.log = log

    async def reply(self, content: str, **kwargs: Any) -> FakeMessage:
        self.log.append(("reply", content, kwargs))
        return FakeMessage(self.log, content, author_id=BOT.id, bot=True, mentions=())


def spy_context(log: list[tuple], **kwargs: Any) -> BotContext:
    """A bot context whose answers come from the real `ask`, noting when it is called."""
    from assistant.agent.api import ask

    def answer(question: str, history: Any = None, backend: Any = None, at_machine: bool = True):
        log.append(("ask", question))
        return ask(question, history=history, backend=backend, at_machine=at_machine)

    return BotContext(ask=answer, **kwargs)


def run(coro) -> None:
    asyncio.run(coro)


def test_ask_defers_first_then_follows_up_with_sources_embed(megakernels_answer):
    log: list[tuple] = []
    run(handle_ask(FakeInteraction(log), MEGAKERNELS, spy_context(log)))
    assert log[0] == ("defer", True)
    assert log[1] == ("ask", MEGAKERNELS)
    sends = log[2:]
    assert sends and all(kind == "followup" for kind, *_ in sends)
    # the question opens the answer (a reply to it continues the conversation), then the verdict
    assert sends[0][1].startswith(f"-# ❓ {MEGAKERNELS}\n**Partly** — GeForce RTX 4090")
    assert all(
        len(content) <= 2000 and no_pings(kw["allowed_mentions"]) for _, content, kw in sends
    )
    embed = sends[-1][2]["embed"]
    assert embed.title.startswith("Sources (")
    assert embed.description.startswith("1. ")
    assert embed.footer.text.startswith("tools: gpu_capability, search_corpus · backend: offline")


def test_long_answer_is_chunked_without_breaking_code_or_tables(monkeypatch, megakernels_answer):
    monkeypatch.setattr(discord_bot, "MESSAGE_LIMIT", 300)
    log: list[tuple] = []
    question = "Compare the RTX 4090, RTX 3090 and A100"
    run(handle_ask(FakeInteraction(log), question, spy_context(log)))
    contents = [entry[1] for entry in log if entry[0] == "followup"]
    assert len(contents) >= 4
    assert all(len(c) <= 300 for c in contents)
    for chunk in contents:
        assert chunk.count("```") % 2 == 0
        rows = [line for line in chunk.splitlines() if line.startswith("|")]
        if rows:  # a table piece always starts with the table's header and separator
            assert rows[0].startswith("| | GeForce RTX 4090")
            assert rows[1].startswith("|---")


def test_answer_with_everyone_never_pings(megakernels_answer):
    """A (scripted) model that writes @everyone and a role mention: nothing may ping."""
    from tests.agent.scripted import scripted

    log: list[tuple] = []
    model = scripted("Hello @everyone and <@&123456> — yes, the RTX 4090 can try megakernels.")
    run(handle_ask(FakeInteraction(log), MEGAKERNELS, BotContext(backend=model)))
    followups = [entry for entry in log if entry[0] == "followup"]
    assert followups[0][1].startswith(f"-# ❓ {MEGAKERNELS}\nHello @everyone and <@&123456>")
    assert all(no_pings(kw["allowed_mentions"]) for _, _, kw in followups)
    client = discord_bot.build_client(BotContext(backend=model))
    assert no_pings(client.allowed_mentions)


def test_rate_limit_and_length_cap_answer_privately_without_asking(megakernels_answer):
    now = [0.0]
    log: list[tuple] = []
    context = spy_context(log, limiter=RateLimiter(1, clock=lambda: now[0]))
    run(handle_ask(FakeInteraction(log), MEGAKERNELS, context))
    log.clear()
    run(handle_ask(FakeInteraction(log), MEGAKERNELS, context))
    assert [entry[0] for entry in log] == ["send_message"]
    assert log[0][1] == (
        "You are sending messages faster than I can answer them. Please wait 60 s and ask again."
    )
    assert log[0][2]["ephemeral"] is True and no_pings(log[0][2]["allowed_mentions"])
    log.clear()
    run(handle_ask(FakeInteraction(log, user_id=43), "x" * 5000, context))
    assert [entry[0] for entry in log] == ["send_message"]
    assert log[0][1].startswith("Your message is 5,000 characters long; the limit is 4,000.")
    log.clear()
    run(handle_ask(FakeInteraction(log, user_id=44), MEGAKERNELS, context))  # others still served
    assert log[0] == ("defer", True)


def test_flood_from_one_user_is_refused_politely(megakernels_answer):
    log: list[tuple] = []
    context = spy_context(log, limiter=RateLimiter(3, clock=lambda: 0.0))
    for _ in range(20):
        run(handle_ask(FakeInteraction(log), MEGAKERNELS, context))
    assert sum(1 for entry in log if entry[0] == "ask") == 3
    assert sum(1 for entry in log if entry[0] == "send_message") == 17


def test_failure_becomes_a_polite_follow_up():
    log: list[tuple] = []

    def broken(question: str, history: Any = None, backend: Any = None, at_machine: bool = True):
        raise RuntimeError("Traceback: secret internals")

    run(
        handle_ask(
            FakeInteraction(log), "Quelles fonctionnalités a ma RTX 5090 ?", BotContext(ask=broken)
        )
    )
    assert log[0] == ("defer", True)
    assert log[1][:2] == (
        "followup",
        "Désolé — un problème est survenu pendant la réponse. Réessayez dans un instant.",
    )


def test_expired_interaction_stops_quietly():
    log: list[tuple] = []
    interaction = FakeInteraction(log, defer_error=RuntimeError("404 Unknown interaction"))
    run(handle_ask(interaction, MEGAKERNELS, spy_context(log)))
    assert log == [("defer", True)]


def test_mention_is_answered_as_a_reply_that_pings_nobody(megakernels_answer):
    log: list[tuple] = []
    message = FakeMessage(log, "<@999> Will Llama 3 70B fit in 24 GB?")
    run(handle_mention(message, BOT, spy_context(log)))
    assert log[0] == ("typing",)
    assert log[1] == ("ask", "Will Llama 3 70B fit in 24 GB?")
    kind, content, kwargs = log[2]
    assert kind == "reply" and content.startswith("**No, it does not fit**")
    assert kwargs["mention_author"] is False and no_pings(kwargs["allowed_mentions"])


def test_messages_not_for_the_bot_are_ignored():
    log: list[tuple] = []
    context = spy_context(log)
    run(handle_mention(FakeMessage(log, "hello", mentions=()), BOT, context))
    run(handle_mention(FakeMessage(log, "<@999> hi", bot=True), BOT, context))
    run(handle_mention(FakeMessage(log, "<@999> hi", author_id=999), BOT, context))
    assert log == []
    run(handle_mention(FakeMessage(log, "<@!999>   "), BOT, context))
    assert log[0][0] == "reply" and log[0][1].startswith("Please type a question")
    assert mention_question("<@999> <@!999> Can my RTX 4090\n do megakernels?") == MEGAKERNELS


def test_token_comes_from_the_environment_with_a_clear_error(monkeypatch):
    from assistant.settings import reset_settings

    monkeypatch.delenv("GPU_ADVISOR_DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    reset_settings()
    with pytest.raises(discord_bot.MissingTokenError, match="GPU_ADVISOR_DISCORD_TOKEN"):
        discord_bot.discord_token()
    monkeypatch.setenv("DISCORD_TOKEN", "fallback-token")
    reset_settings()
    assert discord_bot.discord_token() == "fallback-token"
    monkeypatch.setenv("GPU_ADVISOR_DISCORD_TOKEN", "preferred-token")
    reset_settings()
    assert discord_bot.discord_token() == "preferred-token"


def test_client_shards_automatically_with_ask_and_no_privileged_intent():
    client = discord_bot.build_client(BotContext())
    assert isinstance(client, discord.AutoShardedClient)
    assert client.intents.message_content is False
    assert client.intents.members is False and client.intents.presences is False
    command = client.tree.get_command("ask")
    assert command is not None
    assert [p.name for p in command.parameters] == ["question"]


def test_sources_too_long_for_an_embed_become_footnotes():
    from assistant.answer import Answer, ToolCall
    from assistant.ui.discord_text import Reply, answer_replies

    sources = [{"title": f"Source {i}", "note": "n" * 200} for i in range(40)]
    call = ToolCall(name="gpu_lookup", arguments={}, result={"sources": sources})
    replies = answer_replies(Answer(question="q", text="Short answer.", tool_calls=[call]))
    assert replies[0] == Reply("Short answer.")
    assert replies[1].content.startswith("**Sources (40)**\n1. Source 0 — nnn")
    assert len(replies) == 6
    assert all(r.embed_title is None and len(r.content) <= 2000 for r in replies)
    assert replies[-1].content.endswith("-# tools: gpu_lookup · backend: offline · 0.0 s")
