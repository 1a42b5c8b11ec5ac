"""`gpu-advisor chat` (the Gradio page) and `gpu-advisor discord` (the bot)."""

from __future__ import annotations

import argparse

from assistant.cli._common import CommandError, add_json_flag


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `chat` and `discord` commands."""
    chat = sub.add_parser(
        "chat",
        help="open the chat page in the browser (Gradio); prints its URL",
        description=(
            "Serve the chat page: answers stream, each tool call shows as a step and sources "
            "expand under the answer. The conversation stays in the browser, so several "
            "replicas can serve the same users. The page is also an API: "
            "Client(url).predict('…', api_name='/chat') returns the answer text."
        ),
        epilog=(
            "examples:\n"
            "  gpu-advisor chat                      # http://127.0.0.1:7860\n"
            "  gpu-advisor chat --host 0.0.0.0 --port 8080\n"
            "  gpu-advisor chat --share              # a public link (works from Colab)\n"
            '  gpu-advisor chat --json               # prints {"url": …} once the page is up\n\n'
            "settings: GPU_ADVISOR_CHAT_HOST, GPU_ADVISOR_CHAT_PORT, GPU_ADVISOR_CHAT_RATE_PER_MINUTE,\n"
            "GPU_ADVISOR_CHAT_CONCURRENCY, GPU_ADVISOR_MAX_MESSAGE_CHARS, GPU_ADVISOR_LLM"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chat.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    chat.add_argument("--port", type=int, default=None, help="port (default 7860)")
    chat.add_argument("--share", action="store_true", help="also open a public share link")
    _backend_flag(chat)
    add_json_flag(chat)
    chat.set_defaults(func=run_chat)

    bot = sub.add_parser(
        "discord",
        help="run the Discord bot (/ask and mentions); token from GPU_ADVISOR_DISCORD_TOKEN",
        description=(
            "Run the Discord bot: a /ask slash command and replies to mentions, with citations "
            "in an embed, no pings, and a per-user rate limit. It shards automatically. The "
            "token is read from GPU_ADVISOR_DISCORD_TOKEN (or DISCORD_TOKEN). A reply to one "
            "of its answers continues the conversation (the reply chain is the history). No "
            "privileged intent is needed: Discord sends a bot the text of messages that "
            "mention it, replies included."
        ),
        epilog="example:\n  GPU_ADVISOR_DISCORD_TOKEN=... gpu-advisor discord",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _backend_flag(bot)
    add_json_flag(bot)
    bot.set_defaults(func=run_discord)


def _backend_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        metavar="B",
        default=None,
        help="offline, openai:<model> or ollama:<model> (default: GPU_ADVISOR_LLM, offline)",
    )


def _checked_backend(name: str | None) -> str:
    from assistant.agent.backends import BackendConfigError, normalize_backend

    try:
        return normalize_backend(name)
    except BackendConfigError as exc:
        raise CommandError(str(exc)) from None


def run_chat(args: argparse.Namespace) -> int:
    """Serve the chat page until stopped."""
    from assistant.ui.gradio_app import launch

    if args.port is not None and not 0 < args.port < 65536:
        raise CommandError(f"--port must be between 1 and 65535, not {args.port}")
    try:
        launch(
            host=args.host,
            port=args.port,
            share=args.share,
            backend=_checked_backend(args.backend),
            block=True,
            as_json=args.json,
        )
    except OSError as exc:
        raise CommandError(f"could not start the chat page: {exc}", exit_code=1) from None
    return 0


def run_discord(args: argparse.Namespace) -> int:
    """Run the Discord bot until stopped."""
    from assistant.ui.discord_bot import MissingTokenError, run_bot

    try:
        run_bot(backend=_checked_backend(args.backend))
    except MissingTokenError as exc:
        raise CommandError(str(exc)) from None
    return 0
