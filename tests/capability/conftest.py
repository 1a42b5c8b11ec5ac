"""Fixture cards with the catalog's field names, for checks that must not depend on catalog rows."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from assistant.knowledge.sources import Source

_SRC = [Source(title="Fixture card for tests")]


def card(**fields: object) -> SimpleNamespace:
    base = {
        "vendor": "nvidia",
        "arch_target": None,
        "vram_gb": None,
        "shared_memory_per_sm_kb": None,
        "sources": _SRC,
    }
    return SimpleNamespace(**{**base, **fields})


@pytest.fixture
def make_card():
    """Build a card-like object with the catalog's field names."""
    return card


@pytest.fixture
def ada_24gb() -> SimpleNamespace:
    return card(
        name="Fixture Ada 24GB",
        architecture="Ada Lovelace",
        compute_capability="8.9",
        arch_target="sm_89",
        vram_gb=24.0,
        shared_memory_per_sm_kb=100.0,
    )


@pytest.fixture
def hopper_80gb() -> SimpleNamespace:
    return card(
        name="Fixture Hopper 80GB",
        architecture="Hopper",
        compute_capability="9.0",
        arch_target="sm_90a",
        vram_gb=80.0,
        shared_memory_per_sm_kb=228.0,
    )


@pytest.fixture
def amd_192gb() -> SimpleNamespace:
    return card(
        name="Fixture CDNA 192GB",
        vendor="amd",
        architecture="CDNA 3",
        compute_capability=None,
        arch_target="gfx942",
        vram_gb=192.0,
    )
