"""Conversations on Discord: reply chains, split answers, `/ask` answers, threads, deleted
messages and the bound on history, driven with fakes of discord.py's message objects (Discord's
network is the only thing faked; the three-turn conversation is answered by the real `ask`)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from assistant.answer import Answer
from assistant.ui import discord_bot
from assistant.ui.discord_bot import BotContext, handle_ask, handle_mention
from assistant.ui.discord_history import MessageCache, conversation_history
from tests.ui.conftest import MEGAKERNELS

BOT_ID = 999
BOT = SimpleNamespace(id=BOT_ID, bot=True, display_name="gpu-advisor")
ALICE = SimpleNamespace(id=7, bot=False, display_name="alice")
BOB = SimpleNamespace(id=8, bot=False, display_name="bob")


def no_pings(allowed: Any) -> bool:
    return isinstance(allowed, discord.AllowedMentions) and not any(
        [allowed.everyone, allowed.users, allowed.roles, allowed.replied_user]
    )


class World:
    """Every message sent, by id; counts the requests a real client would make."""

    def __init__(self) -> None:
        self.messages: dict[int, FakeMessage] = {}
        self.ids = itertools.count(1000)
        self.fetches = 0
        self.sent: list[tuple[str, dict[str, Any]]] = []


class FakeChannel:
    def __init__(self, world: World, channel_id: int = 1, parent: FakeChannel | None = None):
        self.world = world
        self.id = channel_id
        self.parent = parent
        if parent is not None:  # a thread: discord.py's Thread has parent_id, a channel has not
            self.parent_id = parent.id
            self.starter_message = None

    async def fetch_message(self, message_id: int) -> FakeMessage:
        self.world.fetches += 1
        message = self.world.messages.get(message_id)
        if message is None or message.channel is not self:
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, "Unknown Message")
        return message

    async def history(self, limit: int, before: Any) -> AsyncIterator[FakeMessage]:
        self.world.fetches += 1
        mine = [m for m in self.world.messages.values() if m.channel is self and m.id < before.id]
        for message in sorted(mine, key=lambda m: m.id, reverse=True)[:limit]:
            yield message

    def typing(self) -> Any:
        class Typing:
            async def __aenter__(self) -> None:
                return None

            async def __aexit__(self, *exc: object) -> None:
                return None

        return Typing()


class FakeMessage:
    """The attributes of discord.Message the bot reads; `reference` holds only the id, as a
    reference does when the replied-to message is not cached."""

    def __init__(
        self,
        channel: FakeChannel,
        author: Any,
        content: str,
        reply_to: FakeMessage | None = None,
        mentions: tuple[Any, ...] = (),
        interaction: Any = None,
    ) -> None:
        self.world = channel.world
        self.id = next(self.world.ids)
        self.channel = channel
        self.author = author
        self.content = content
        self.mentions = list(mentions)
        self.interaction_metadata = interaction
        self.reference = (
            SimpleNamespace(message_id=reply_to.id, resolved=None, cached_message=None)
            if reply_to is not None
            else None
        )
        self.world.messages[self.id] = self

    async def reply(self, content: str, **kwargs: Any) -> FakeMessage:
        self.world.sent.append((content, kwargs))
        return FakeMessage(self.channel, BOT, content, reply_to=self)

    def delete(self) -> None:
        del self.world.messages[self.id]


def say(channel: FakeChannel, who: Any, text: str, reply_to: FakeMessage | None = None):
    """A user's message that reaches the bot: a mention, or a reply (whose ping is a mention)."""
    content = text if reply_to is not None else f"<@{BOT_ID}> {text}"
    return FakeMessage(channel, who, content, reply_to=reply_to, mentions=(BOT,))


def last_bot_message(world: World) -> FakeMessage:
    return max((m for m in world.messages.values() if m.author is BOT), key=lambda m: m.id)


def recording_context(
    **kwargs: Any,
) -> tuple[BotContext, list[tuple[str, list[dict[str, str]], Answer]]]:
    """A bot context answering with the real `ask`, keeping each question, history and answer."""
    from assistant.agent.api import ask

    calls: list[tuple[str, list[dict[str, str]], Answer]] = []

    def answer(
        question: str, history: Any = None, backend: Any = None, at_machine: bool = True
    ) -> Answer:
        result = ask(question, history=history, backend=backend, at_machine=at_machine)
        calls.append((question, list(history or []), result))
        return result

    return BotContext(ask=answer, **kwargs), calls


def capturing_context(**kwargs: Any) -> tuple[BotContext, list[tuple[str, list[dict[str, str]]]]]:
    """A bot context that answers "ok" and keeps each question with its history."""
    calls: list[tuple[str, list[dict[str, str]]]] = []

    def answer(
        question: str, history: Any = None, backend: Any = None, at_machine: bool = True
    ) -> Answer:
        calls.append((question, list(history or [])))
        return Answer(question=question, text=f"ok {len(calls)}")

    return BotContext(ask=answer, **kwargs), calls


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_reply_chain_is_the_conversation(monkeypatch, megakernels_answer):
    """4090 × megakernels → "and the 3090?" → "et en location ?": each reply continues it."""
    monkeypatch.setattr(discord_bot, "MESSAGE_LIMIT", 500)  # the first answer comes in pieces
    world = World()
    channel = FakeChannel(world)
    context, calls = recording_context()

    run(handle_mention(say(channel, ALICE, MEGAKERNELS), BOT, context))
    pieces = [m for m in world.messages.values() if m.author is BOT]
    assert len(pieces) >= 2

    run(handle_mention(say(channel, ALICE, "and the 3090?", last_bot_message(world)), BOT, context))
    question, history, second = calls[1]
    assert question == "and the 3090?"
    assert [turn["role"] for turn in history] == ["user", "assistant"]  # the pieces: one turn
    assert history[0]["content"] == MEGAKERNELS
    assert history[1]["content"].startswith("**Partly** — GeForce RTX 4090")
    assert pieces[-1].content.splitlines()[-1] in history[1]["content"]
    capability = next(c for c in second.tool_calls if c.name == "gpu_capability")
    assert capability.arguments == {"gpu": "GeForce RTX 3090", "topic": "megakernels"}
    assert second.text.startswith("**Partly** — GeForce RTX 3090")

    run(
        handle_mention(
            say(channel, ALICE, "et en location ?", last_bot_message(world)), BOT, context
        )
    )
    question, history, third = calls[2]
    assert [turn["role"] for turn in history] == ["user", "assistant"] * 2
    assert third.language == "fr"
    rent = next(c for c in third.tool_calls if c.name == "rent_cost")
    assert rent.arguments["gpu"] == "GeForce RTX 3090"
    assert third.text.startswith("**Louer GeForce RTX 3090")
    assert "€" in third.text.split("\n", 1)[0]

    assert world.sent and all(
        kwargs["mention_author"] is False and no_pings(kwargs["allowed_mentions"])
        for _, kwargs in world.sent
    )


def _long_chain(world: World, channel: FakeChannel, length: int) -> FakeMessage:
    message = say(channel, ALICE, "question 0")
    for n in range(1, length):
        who, text = (BOT, f"answer {n}") if n % 2 else (ALICE, f"question {n}")
        message = FakeMessage(channel, who, text, reply_to=message)
    return message


def test_a_chain_longer_than_the_bound_reads_only_the_latest_messages_once():
    world = World()
    channel = FakeChannel(world)
    newest = _long_chain(world, channel, 30)  # question 0 … answer 29
    cache = MessageCache()
    question = say(channel, ALICE, "and now?", newest)
    history = run(conversation_history(question, BOT_ID, max_turns=4, cache=cache))
    assert history == [
        {"role": "user", "content": "question 26"},
        {"role": "assistant", "content": "answer 27"},
        {"role": "user", "content": "question 28"},
        {"role": "assistant", "content": "answer 29"},
    ]
    assert world.fetches == 4
    again = run(conversation_history(question, BOT_ID, max_turns=4, cache=cache))
    assert again == history and world.fetches == 4  # the second time comes from the cache

    context, calls = capturing_context(max_turns=6)
    run(handle_mention(say(channel, ALICE, "and now?", newest), BOT, context))
    assert len(calls[0][1]) == 6 and calls[0][1][-1]["content"] == "answer 29"
    assert world.fetches == 4 + 6


def test_a_deleted_message_ends_the_history_without_failing_the_answer():
    world = World()
    channel = FakeChannel(world)
    first = say(channel, ALICE, "Can my RTX 4090 do megakernels?")
    answer1 = FakeMessage(channel, BOT, "Partially.", reply_to=first)
    second = FakeMessage(channel, ALICE, "and the 3090?", reply_to=answer1, mentions=(BOT,))
    answer2 = FakeMessage(channel, BOT, "Partially, too.", reply_to=second)
    answer1.delete()
    context, calls = capturing_context()
    run(handle_mention(say(channel, ALICE, "et en location ?", answer2), BOT, context))
    assert calls == [
        (
            "et en location ?",
            [
                {"role": "user", "content": "and the 3090?"},
                {"role": "assistant", "content": "Partially, too."},
            ],
        )
    ]
    assert world.sent[-1][0] == "ok 1"

    # discord.py's placeholder for a deleted reply target ends it too, with no request
    gone = say(channel, ALICE, "and then?", answer2)
    gone.reference = SimpleNamespace(
        message_id=12345, resolved=SimpleNamespace(id=12345, channel_id=1), cached_message=None
    )
    before = world.fetches
    assert run(conversation_history(gone, BOT_ID, max_turns=20)) == []
    assert world.fetches == before


def test_another_user_joining_is_named_and_nobody_is_pinged():
    world = World()
    channel = FakeChannel(world)
    context, calls = capturing_context()
    run(handle_mention(say(channel, ALICE, "Can my <@123> RTX 4090 do megakernels?"), BOT, context))
    run(handle_mention(say(channel, BOB, "and the 3090?", last_bot_message(world)), BOT, context))
    assert calls[1] == (
        "and the 3090?",
        [
            {"role": "user", "content": "alice: Can my RTX 4090 do megakernels?"},
            {"role": "assistant", "content": "ok 1"},
        ],
    )
    assert all(no_pings(kwargs["allowed_mentions"]) for _, kwargs in world.sent)


def test_a_reply_to_an_ask_answer_continues_it(monkeypatch):
    """`/ask` answers are follow-ups, not replies: the first piece names the question, and the
    earlier pieces are found by their interaction."""
    monkeypatch.setattr(discord_bot, "MESSAGE_LIMIT", 200)
    world = World()
    channel = FakeChannel(world)
    long_text = "\n\n".join(f"Paragraph {n}: " + "text " * 20 for n in range(6))
    interaction = SimpleNamespace(id=555, user=ALICE)

    class Followup:
        async def send(self, content: str, **kwargs: Any) -> None:
            FakeMessage(channel, BOT, content, interaction=interaction)

    class Response:
        async def defer(self, **kwargs: Any) -> None:
            return None

    slash = SimpleNamespace(user=ALICE, response=Response(), followup=Followup())

    def answer(
        question: str, history: Any = None, backend: Any = None, at_machine: bool = True
    ) -> Answer:
        return Answer(question=question, text=long_text)

    run(handle_ask(slash, MEGAKERNELS, BotContext(ask=answer)))
    pieces = [m for m in world.messages.values() if m.author is BOT]
    assert len(pieces) >= 3 and pieces[0].content.startswith(f"-# ❓ {MEGAKERNELS}\n")

    context, calls = capturing_context()
    run(handle_mention(say(channel, BOB, "and the 3090?", pieces[-1]), BOT, context))
    history = calls[0][1]
    assert history[0] == {"role": "user", "content": f"alice: {MEGAKERNELS}"}
    assert [turn["role"] for turn in history] == ["user", "assistant"]
    assert history[1]["content"].startswith("Paragraph 0:")
    assert "Paragraph 5:" in history[1]["content"]


def test_a_thread_started_from_an_answer_uses_its_recent_messages():
    world = World()
    parent = FakeChannel(world)
    question = say(parent, ALICE, "Can my RTX 4090 do megakernels?")
    answer = FakeMessage(parent, BOT, "Partially: no TMA, no wgmma.", reply_to=question)
    thread = FakeChannel(world, channel_id=answer.id, parent=parent)
    FakeMessage(thread, ALICE, "Interesting, thanks")
    context, calls = capturing_context()
    run(handle_mention(say(thread, ALICE, "and the 3090?"), BOT, context))
    run(handle_mention(say(thread, BOB, "et en location ?"), BOT, context))
    assert calls[0][1] == [
        {"role": "user", "content": "Can my RTX 4090 do megakernels?"},
        {"role": "assistant", "content": "Partially: no TMA, no wgmma."},
        {"role": "user", "content": "Interesting, thanks"},
    ]
    assert calls[1][1] == [
        {"role": "user", "content": "alice: Can my RTX 4090 do megakernels?"},
        {"role": "assistant", "content": "Partially: no TMA, no wgmma."},
        {"role": "user", "content": "alice: Interesting, thanks"},
        {"role": "user", "content": "alice: and the 3090?"},
        {"role": "assistant", "content": "ok 1"},
    ]

    # a thread that did not start from one of the bot's answers brings no history
    other = FakeChannel(world, channel_id=question.id, parent=parent)
    FakeMessage(other, BOB, "chatter")
    run(handle_mention(say(other, BOB, "and the 3090?"), BOT, context))
    assert calls[2][1] == []


@pytest.mark.parametrize("bound", [0, 1])
def test_history_respects_tiny_bounds(bound: int):
    world = World()
    channel = FakeChannel(world)
    newest = _long_chain(world, channel, 5)
    history = run(conversation_history(say(channel, ALICE, "x", newest), BOT_ID, max_turns=bound))
    assert len(history) == bound and world.fetches == bound


def test_discord_never_probes_the_bots_machine(megakernels_answer):
    """On Discord, "my machine" is the asker's, not the bot's: no probe, how to check instead."""
    world = World()
    channel = FakeChannel(world)
    context, calls = recording_context()
    run(handle_mention(say(channel, ALICE, "What GPU is in my machine?"), BOT, context))
    ((_, _, answer),) = calls
    assert "probe_gpus" not in [call.name for call in answer.tool_calls]
    assert answer.text.startswith("**I can't see your machine from here**")
    assert "nvidia-smi" in answer.text
