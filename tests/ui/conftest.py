"""Fixtures for the interfaces: a warm `ask`, a chat page on a free loopback port."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

MEGAKERNELS = "Can my RTX 4090 do megakernels?"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def megakernels_answer(session_home: Path):
    """The real offline answer to the README question (also warms the models once)."""
    from assistant import ask

    return ask(MEGAKERNELS)


@pytest.fixture(scope="session")
def chat_url(session_home: Path, megakernels_answer) -> Iterator[str]:
    """The chat page, started the way `gpu-advisor chat` starts it, on 127.0.0.1."""
    from assistant.ui.gradio_app import launch

    demo = launch(host="127.0.0.1", port=free_port(), block=False)
    try:
        yield str(demo.local_url)
    finally:
        demo.close()
