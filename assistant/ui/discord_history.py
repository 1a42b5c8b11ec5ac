"""A Discord conversation as `ask()` history: the reply chain, or a thread started from an answer.

A message that replies to one of the bot's answers continues that conversation. The chain is
walked through `message.reference`, newest first, with at most `max_turns` messages and at most
`max_turns` requests to Discord per question; messages already seen come from a small cache.
The bot's messages become assistant turns (the pieces of one split answer are one turn), the
others user turns, prefixed with their author's name when several people take part. A deleted or
unreadable message ends the history there. Works on duck-typed discord.py objects, so tests can
drive it with fakes.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from assistant.log import get_logger, redact

log = get_logger(__name__)

_MENTION = re.compile(r"<@[!&]?\d+>")
# the first line of an `/ask` answer names the question, so a reply to it can carry it on
ASK_LEAD = "-# ❓ "
_ASK_LEAD_MAX = 300


def mention_question(content: str) -> str:
    """A message's text without mention tokens and with its whitespace collapsed."""
    return " ".join(_MENTION.sub(" ", content or "").split())


def ask_lead(question: str) -> str:
    """The line that opens an `/ask` answer: the question, on one line, without mentions."""
    text = mention_question(question)
    if len(text) > _ASK_LEAD_MAX:
        text = text[: _ASK_LEAD_MAX - 1].rstrip() + "…"
    return ASK_LEAD + text


@dataclass(frozen=True)
class Seen:
    """What the history needs from one message."""

    id: int
    author_id: int
    author_name: str
    content: str
    reference_id: int | None
    interaction_id: int | None = None
    asker_id: int | None = None
    asker_name: str = ""


def _name(user: Any) -> str:
    name = getattr(user, "display_name", None) or getattr(user, "name", None) or "someone"
    return mention_question(str(name))[:40] or "someone"


def seen(message: Any) -> Seen:
    """A snapshot of a discord.py message (or a fake with the same attributes)."""
    reference = getattr(message, "reference", None)
    metadata = getattr(message, "interaction_metadata", None)
    return Seen(
        id=int(message.id),
        author_id=int(message.author.id),
        author_name=_name(message.author),
        content=str(getattr(message, "content", "") or ""),
        reference_id=getattr(reference, "message_id", None),
        interaction_id=getattr(metadata, "id", None),
        asker_id=getattr(getattr(metadata, "user", None), "id", None),
        asker_name=_name(getattr(metadata, "user", None)) if metadata is not None else "",
    )


class MessageCache:
    """The last `size` messages seen, by id; `None` marks one that is deleted or unreadable."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict[int, Seen | None] = OrderedDict()

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._items

    def get(self, message_id: int) -> Seen | None:
        """The cached snapshot (None when unknown or known to be gone)."""
        item = self._items.get(message_id)
        if message_id in self._items:
            self._items.move_to_end(message_id)
        return item

    def put(self, message_id: int, item: Seen | None) -> None:
        """Remember a snapshot, forgetting the oldest beyond `size`."""
        self._items[message_id] = item
        self._items.move_to_end(message_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class _Budget:
    def __init__(self, fetches: int) -> None:
        self.left = fetches
        self.used = 0

    def take(self) -> bool:
        """Spend one message fetch; False when none are left."""
        if self.left <= 0:
            return False
        self.left -= 1
        self.used += 1
        return True


def _resolved(reference: Any) -> Any | None:
    """The referenced message when discord.py already has it (not a deleted placeholder)."""
    for attribute in ("resolved", "cached_message"):
        candidate = getattr(reference, attribute, None)
        if candidate is not None and hasattr(candidate, "author") and hasattr(candidate, "id"):
            return candidate
    return None


async def _message(
    channel: Any, reference: Any, cache: MessageCache, budget: _Budget
) -> Seen | None:
    """The message a reference points to: resolved, cached, or fetched (within the budget)."""
    message_id = getattr(reference, "message_id", None)
    if message_id is None:
        return None
    if message_id in cache:
        return cache.get(message_id)
    resolved = _resolved(reference)
    if resolved is not None:
        item = seen(resolved)
        cache.put(message_id, item)
        return item
    if getattr(reference, "resolved", None) is not None:  # a DeletedReferencedMessage
        cache.put(message_id, None)
        return None
    if not budget.take():
        return None
    try:
        item = seen(await channel.fetch_message(message_id))
    except Exception as exc:  # deleted, no access, network: the history ends here
        log.info("discord history ends at %s: %s", message_id, redact(type(exc).__name__))
        cache.put(message_id, None)
        return None
    cache.put(message_id, item)
    return item


async def _earlier_ask_pieces(channel: Any, item: Seen, limit: int, budget: _Budget) -> list[Seen]:
    """The earlier pieces of an `/ask` answer (same interaction), newest first, up to its lead."""
    if not budget.take():
        return []
    pieces: list[Seen] = []
    try:
        async for message in channel.history(limit=limit, before=_Snowflake(item.id)):
            other = seen(message)
            if other.interaction_id != item.interaction_id:
                continue
            pieces.append(other)
            if other.content.startswith(ASK_LEAD):
                break
    except Exception as exc:
        log.info("discord history read failed: %s", redact(type(exc).__name__))
    return pieces


@dataclass(frozen=True)
class _Snowflake:
    id: int


async def _walk(
    channel: Any, reference: Any, bot_id: int, limit: int, cache: MessageCache, budget: _Budget
) -> list[Seen]:
    """The reply chain from `reference` back, newest first, at most `limit` messages."""
    chain: list[Seen] = []
    while reference is not None and len(chain) < limit:
        item = await _message(channel, reference, cache, budget)
        if item is None:
            break
        chain.append(item)
        if (
            item.author_id == bot_id
            and item.interaction_id is not None
            and item.reference_id is None
            and not item.content.startswith(ASK_LEAD)
        ):  # a later piece of an `/ask` answer: its first piece holds the question
            chain.extend(await _earlier_ask_pieces(channel, item, limit - len(chain), budget))
            break
        reference = _Reference(item.reference_id) if item.reference_id is not None else None
    return chain[:limit]


@dataclass(frozen=True)
class _Reference:
    message_id: int


def _is_thread(channel: Any) -> bool:
    return getattr(channel, "parent_id", None) is not None and hasattr(channel, "history")


async def _thread_messages(
    message: Any, bot_id: int, limit: int, cache: MessageCache, budget: _Budget
) -> list[Seen]:
    """In a thread started from one of the bot's answers: that answer's conversation, then the
    thread's recent messages, newest first. Empty in any other thread."""
    channel = message.channel
    starter = getattr(channel, "starter_message", None)
    parent = getattr(channel, "parent", None)
    if starter is None and parent is not None:
        starter_item = await _message(parent, _Reference(int(channel.id)), cache, budget)
    else:
        starter_item = seen(starter) if starter is not None else None
    if starter_item is None or starter_item.author_id != bot_id:
        return []
    recent: list[Seen] = []
    if budget.take():
        try:
            async for earlier in channel.history(limit=limit, before=_Snowflake(int(message.id))):
                item = seen(earlier)
                cache.put(item.id, item)
                if item.content.strip():
                    recent.append(item)
        except Exception as exc:
            log.info("discord thread read failed: %s", redact(type(exc).__name__))
    chain = [*recent, starter_item]
    if len(chain) < limit and starter_item.reference_id is not None and parent is not None:
        chain += await _walk(
            parent,
            _Reference(starter_item.reference_id),
            bot_id,
            limit - len(chain),
            cache,
            budget,
        )
    return chain[:limit]


def _turns(chain: list[Seen], bot_id: int, asker_id: int) -> list[dict[str, str]]:
    """Oldest-first turns from a newest-first chain; pieces of one answer join into one turn."""
    people = {item.author_id for item in chain if item.author_id != bot_id} | {asker_id}
    people |= {
        item.asker_id
        for item in chain
        if item.asker_id is not None and item.content.startswith(ASK_LEAD)
    }
    several = len(people) > 1
    turns: list[dict[str, str]] = []

    def add(role: str, text: str, who: str) -> None:
        """Append a turn (author-named when several people talk); answer pieces join into one."""
        text = text.strip()
        if not text:
            return
        if role == "user" and several:
            text = f"{who}: {text}"
        if role == "assistant" and turns and turns[-1]["role"] == "assistant":
            turns[-1]["content"] += "\n" + text
        else:
            turns.append({"role": role, "content": text})

    for item in reversed(chain):
        if item.author_id != bot_id:
            add("user", mention_question(item.content), item.author_name)
            continue
        text = item.content
        if text.startswith(ASK_LEAD):
            lead, _, text = text.partition("\n")
            add("user", lead[len(ASK_LEAD) :], item.asker_name or "someone")
        add("assistant", text, "")
    return turns


async def conversation_history(
    message: Any,
    bot_id: int,
    *,
    max_turns: int,
    cache: MessageCache | None = None,
) -> list[dict[str, str]]:
    """The conversation before `message`, as {"role", "content"} turns, oldest first.

    Never raises: whatever cannot be read ends the history there.
    """
    cache = cache if cache is not None else MessageCache()
    budget = _Budget(max_turns)
    try:
        reference = getattr(message, "reference", None)
        if reference is not None:
            chain = await _walk(message.channel, reference, bot_id, max_turns, cache, budget)
        elif _is_thread(message.channel):
            chain = await _thread_messages(message, bot_id, max_turns, cache, budget)
        else:
            chain = []
        turns = _turns(chain, bot_id, int(message.author.id))
    except Exception as exc:  # a malformed object must not cost the user the answer
        log.warning("discord history failed: %s", redact(f"{type(exc).__name__}: {exc}"))
        turns = []
    return turns[-max_turns:] if max_turns else []
