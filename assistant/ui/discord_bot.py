"""The Discord bot: `/ask question` and replies to @mentions, both through `ask()`.

A reply to one of the bot's answers (or to an `/ask` answer) continues that conversation: the
reply chain becomes the history (see `discord_history.py`); so do the recent messages of a
thread started from an answer.

Set-up (developer portal): create an application, add a bot, copy its token into
`GPU_ADVISOR_DISCORD_TOKEN` (or `DISCORD_TOKEN`), and invite it with the scopes `bot` and
`applications.commands` and the permissions View Channels, Send Messages, Send Messages in
Threads, Embed Links and Read Message History.

Intents: none of the privileged ones. Discord passes the content of a message to a bot that
the message @mentions, so mention replies work without the Message Content intent; it would
only be needed to read messages that do not mention the bot, which this bot never does.

The client is an `AutoShardedClient`: Discord tells it how many shards to open, so one
process serves many servers. No message can ping anyone: allowed mentions are off on the
client and on every send.

The handlers are plain async functions of (interaction | message, context) so tests can drive
them with fake objects.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.log import get_logger, redact
from assistant.ui import limits
from assistant.ui.discord_history import (
    MessageCache,
    ask_lead,
    conversation_history,
    mention_question,
)
from assistant.ui.discord_text import MESSAGE_LIMIT, Reply, answer_replies

if TYPE_CHECKING:
    import discord

    from assistant.answer import Answer

log = get_logger(__name__)

TOKEN_VARIABLES = ("GPU_ADVISOR_DISCORD_TOKEN", "DISCORD_TOKEN")
__all__ = [
    "BotContext",
    "build_client",
    "handle_ask",
    "handle_mention",
    "mention_question",
    "run_bot",
]


class MissingTokenError(RuntimeError):
    """No bot token in the environment."""


def discord_token() -> str:
    """The bot token: `GPU_ADVISOR_DISCORD_TOKEN` (settings), else `DISCORD_TOKEN`."""
    from assistant.settings import get_settings

    secret = get_settings().discord_token
    token = (secret.get_secret_value() if secret else "") or os.environ.get("DISCORD_TOKEN", "")
    if not token.strip():
        raise MissingTokenError(
            "no Discord bot token: set GPU_ADVISOR_DISCORD_TOKEN (or DISCORD_TOKEN) to the token "
            "from the developer portal (Applications → your app → Bot → Reset Token)"
        )
    return token.strip()


def no_mentions() -> discord.AllowedMentions:
    """Allowed mentions that ping nobody: no user, role, @everyone or replied-to author."""
    import discord

    return discord.AllowedMentions.none()


@dataclass
class BotContext:
    """What the handlers share: the backend, the answer function, the per-user limit and the
    cache of messages read for conversations."""

    backend: Any = None  # a backend name, or a LangChain chat model
    ask: Callable[..., Answer] | None = None
    limiter: limits.RateLimiter = field(default_factory=lambda: _default_limiter())
    max_chars: int = field(default_factory=lambda: _settings().max_message_chars)
    max_turns: int = field(default_factory=lambda: _settings().max_history_turns)
    cache: MessageCache = field(default_factory=MessageCache)

    def answer(self, question: str, history: list[dict[str, str]] | None = None) -> Answer:
        """The answer to `question` after `history` (earlier turns, oldest first)."""
        # A Discord user's "my GPU" is their own machine, not the bot's: never probe here.
        if self.ask is not None:
            return self.ask(question, history=history or [], backend=self.backend, at_machine=False)
        from assistant.agent.api import ask

        return ask(question, history=history or [], backend=self.backend, at_machine=False)

    def refusal(self, question: str, user_id: object) -> str | None:
        """A polite message when this question must not be answered now, else None."""
        language = limits.guess_language(question)
        if not question.strip():
            return limits.EMPTY_TEXT[language]
        if len(question) > self.max_chars:
            return limits.length_message(len(question), self.max_chars, language)
        wait = self.limiter.acquire(f"discord:{user_id}")
        if wait > 0:
            return limits.rate_message(wait, language)
        return None


def _settings() -> Any:
    from assistant.settings import get_settings

    return get_settings()


def _default_limiter() -> limits.RateLimiter:
    return limits.RateLimiter(_settings().discord_rate_per_minute)


def _embed(reply: Reply) -> discord.Embed | None:
    if reply.embed_title is None and reply.embed_footer is None:
        return None
    import discord

    embed = discord.Embed(title=reply.embed_title, description=reply.embed_description)
    if reply.embed_footer:
        embed.set_footer(text=reply.embed_footer)
    return embed


def _send_kwargs(reply: Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"allowed_mentions": no_mentions()}
    embed = _embed(reply)
    if embed is not None:
        kwargs["embed"] = embed
    return kwargs


async def _answer_replies(
    context: BotContext, question: str, history: list[dict[str, str]] | None = None, lead: str = ""
) -> list[Reply]:
    """The answer as messages, computed off the event loop; a polite line if it fails."""
    try:
        answer = await asyncio.to_thread(context.answer, question, history)
    except Exception as exc:
        log.warning("discord answer failed: %s", redact(f"{type(exc).__name__}: {exc}"))
        return [Reply(limits.ERROR_TEXT[limits.guess_language(question)])]
    return answer_replies(answer, MESSAGE_LIMIT, lead=lead)


async def handle_ask(interaction: Any, question: str, context: BotContext) -> None:
    """`/ask question`: refuse politely (only the asker sees it), or defer within Discord's
    3-second window, then send the answer as follow-ups. The first follow-up opens with the
    question, so that a reply to the answer can continue the conversation."""
    question = question or ""
    refusal = context.refusal(question, interaction.user.id)
    if refusal is not None:
        await interaction.response.send_message(
            refusal, ephemeral=True, allowed_mentions=no_mentions()
        )
        return
    try:
        await interaction.response.defer(thinking=True)
    except Exception as exc:  # the interaction expired or was already answered
        log.warning("discord defer failed: %s", redact(f"{type(exc).__name__}: {exc}"))
        return
    for reply in await _answer_replies(context, question, lead=ask_lead(question)):
        try:
            await interaction.followup.send(reply.content, **_send_kwargs(reply))
        except Exception as exc:  # an expired interaction or a network error: stop quietly
            log.warning("discord follow-up failed: %s", redact(f"{type(exc).__name__}: {exc}"))
            return


async def handle_mention(message: Any, bot_user: Any, context: BotContext) -> None:
    """Answer a message that @mentions the bot (a reply to the bot's answer does, through its
    reply ping), as a reply that pings nobody; the reply chain or thread is the history. The
    pieces of a split answer each reply to the previous one, so the chain keeps them together."""
    author = message.author
    if author is None or getattr(author, "bot", False) or bot_user is None:
        return
    if author.id == bot_user.id or not any(u.id == bot_user.id for u in message.mentions):
        return
    question = mention_question(message.content)
    refusal = context.refusal(question, author.id)
    if refusal is not None:
        await message.reply(refusal, mention_author=False, allowed_mentions=no_mentions())
        return
    async with message.channel.typing():
        history = await conversation_history(
            message, bot_user.id, max_turns=context.max_turns, cache=context.cache
        )
        replies = await _answer_replies(context, question, history)
    target = message
    try:
        for reply in replies:
            target = await target.reply(reply.content, mention_author=False, **_send_kwargs(reply))
    except Exception as exc:
        log.warning("discord reply failed: %s", redact(f"{type(exc).__name__}: {exc}"))


def build_client(context: BotContext | None = None) -> discord.AutoShardedClient:
    """The sharded client with `/ask` registered and mentions answered."""
    import discord
    from discord import app_commands

    shared = context or BotContext()
    intents = discord.Intents.default()  # no privileged intent (see the module docstring)

    class AdvisorBot(discord.AutoShardedClient):
        def __init__(self) -> None:
            super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
            self.tree = app_commands.CommandTree(self)

        async def setup_hook(self) -> None:
            await self.tree.sync()

        async def on_ready(self) -> None:
            log.warning("discord bot ready as %s on %d shard(s)", self.user, self.shard_count or 1)

        async def on_message(self, message: discord.Message) -> None:
            await handle_mention(message, self.user, shared)

    client = AdvisorBot()

    @client.tree.command(name="ask", description="Ask gpu-advisor about GPUs (English or French)")
    @app_commands.describe(question="e.g. Can my RTX 4090 do megakernels?")
    async def ask_command(interaction: discord.Interaction, question: str) -> None:
        """Answer the /ask slash command."""
        await handle_ask(interaction, question, shared)

    return client


def run_bot(backend: str | None = None) -> None:
    """Connect and serve until stopped; raises MissingTokenError without a token."""
    token = discord_token()
    from assistant.log import setup_logging

    setup_logging()
    build_client(BotContext(backend=backend)).run(token, log_handler=None)
