"""Agent-test fixtures: a clean agent cache around every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fresh_agents() -> Iterator[None]:
    from assistant.agent.factory import clear_agent_cache

    clear_agent_cache()
    yield
    clear_agent_cache()
