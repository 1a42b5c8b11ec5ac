"""Cost tests pin the money assumptions so a developer's environment can't change the figures."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _pinned_money(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_CURRENCY", "EUR")
    monkeypatch.setenv("GPU_ADVISOR_USD_PER_EUR", "1.08")
    monkeypatch.setenv("GPU_ADVISOR_ELECTRICITY_PRICE_PER_KWH", "0.25")
    from assistant.settings import reset_settings

    reset_settings()
