"""The one logging setup, with secrets scrubbed from every record."""

from __future__ import annotations

import logging
import os
import re

_SECRET_ENV_HINTS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
_configured = False


def secret_values() -> list[str]:
    """Values of environment variables that look like secrets (long enough to matter)."""
    return [
        value
        for name, value in os.environ.items()
        if any(hint in name.upper() for hint in _SECRET_ENV_HINTS) and len(value) >= 8
    ]


def redact(text: str) -> str:
    """Replace any secret value found in the environment, and bearer-like keys, with ***."""
    for value in secret_values():
        text = text.replace(value, "***")
    return re.sub(r"\b(sk-[A-Za-z0-9_\-]{8,})", "***", text)


class _RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = ()
        return True


def setup_logging(level: str | None = None) -> None:
    """Configure the package logger once; later calls only change the level."""
    global _configured
    logger = logging.getLogger("assistant")
    if not _configured:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.addFilter(_RedactingFilter())
        logger.addHandler(handler)
        logger.propagate = False
        _configured = True
    if level is None:
        from assistant.settings import get_settings

        level = get_settings().log_level
    logger.setLevel(level.upper())


def get_logger(name: str) -> logging.Logger:
    """The logger for `name`, placed under the package's `assistant` logger."""
    return logging.getLogger(name if name.startswith("assistant") else f"assistant.{name}")
