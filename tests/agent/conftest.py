"""Agent-test fixtures: a clean agent cache around every test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _fresh_agents() -> Iterator[None]:
    from assistant.agent.factory import clear_agent_cache

    clear_agent_cache()
    yield
    clear_agent_cache()


@pytest.fixture
def openai_stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start a stub server; the test fills `stub.script`. OPENAI_BASE_URL points at it."""
    from tests.agent.openai_stub import StubOpenAI

    stub = StubOpenAI(script=[]).start()
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    yield stub
    stub.stop()
