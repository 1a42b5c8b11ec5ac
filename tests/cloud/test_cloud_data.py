"""The cloud instance catalog and the notebook tiers: every row sourced, names known, hand-checked facts."""

from __future__ import annotations

import pytest

from assistant.knowledge.cloud import load_cloud_instances, load_notebook_tiers
from assistant.knowledge.matching import match_gpu


def _row(name: str):
    return next(r for r in load_cloud_instances() if r.instance == name)


def test_every_instance_gpu_is_a_catalog_card_with_the_same_memory() -> None:
    for row in load_cloud_instances():
        card = match_gpu(row.gpu).gpu
        assert card is not None, row.instance
        assert card.vram_gb == row.vram_gb, (
            f"{row.instance}: {row.vram_gb} GB vs catalog {card.vram_gb}"
        )


def test_every_price_has_a_date_and_a_source_and_every_row_a_spec_source() -> None:
    rows = load_cloud_instances()
    priced = [r for r in rows if r.price_usd_per_hour is not None]
    assert len(priced) >= 40
    for row in rows:
        assert row.spec_url.startswith("https://")
    for row in priced:
        assert row.price_as_of and row.price_source, row.instance
        assert row.sources()[-1].note and row.price_as_of in row.sources()[-1].note


@pytest.mark.parametrize(
    ("instance", "gpu", "count", "vram", "vcpu", "ram"),
    [
        ("p4d.24xlarge", "A100 40GB SXM4", 8, 40, 96, 1152),  # AWS P4 page
        ("p4de.24xlarge", "A100 80GB SXM4", 8, 80, 96, 1152),
        ("p5.48xlarge", "H100 SXM5 80GB", 8, 80, 192, 2048),  # AWS P5 page
        ("g5.xlarge", "A10G", 1, 24, 4, 16),
        ("g6e.xlarge", "L40S", 1, 48, 4, 32),
        ("g4dn.12xlarge", "T4", 4, 16, 48, 192),
        ("a3-highgpu-8g", "H100 SXM5 80GB", 8, 80, 208, 1872),  # GCP A3
        ("a2-highgpu-1g", "A100 40GB SXM4", 1, 40, 12, 85),
        ("Standard_ND96isr_H100_v5", "H100 SXM5 80GB", 8, 80, 96, 1900),
    ],
)
def test_hand_checked_instances(instance, gpu, count, vram, vcpu, ram) -> None:
    row = _row(instance)
    assert (row.gpu, row.gpu_count, row.vram_gb, row.vcpu, row.ram_gb) == (
        gpu,
        count,
        vram,
        vcpu,
        ram,
    )


def test_per_gpu_prices_agree_between_sizes_of_one_family() -> None:
    # AWS prices P5 linearly: the 8-GPU size costs 8 times the 1-GPU size.
    assert _row("p5.48xlarge").price_per_gpu_hour == pytest.approx(
        _row("p5.4xlarge").price_usd_per_hour
    )
    assert _row("p4d.24xlarge").total_vram_gb == 320


def test_notebook_tiers_hand_checked() -> None:
    tiers = {(t.provider, t.tier): t for t in load_notebook_tiers()}
    pro = tiers[("Google Colab", "Pro")]
    assert (pro.price_usd, pro.compute_units) == (9.99, 100)
    assert tiers[("Google Colab", "Pro+")].compute_units == 500
    assert tiers[("Google Colab", "Pay As You Go")].price_usd == 9.99
    free = tiers[("Google Colab", "Free")]
    assert free.price_usd is None and free.max_session_hours == 12
    kaggle = tiers[("Kaggle", "Free (GPU)")]
    assert kaggle.weekly_gpu_hours == 30 and "2 x T4" in kaggle.gpus and "P100" in kaggle.gpus
    for tier in tiers.values():
        assert tier.url.startswith("https://") and tier.as_of


def test_catalog_prices_agree_with_the_hourly_price_table() -> None:
    """Where the hourly price table names one of the catalog's instances, the per-GPU prices match."""
    from assistant.knowledge.prices import load_hourly_prices

    instances = {r.instance.lower(): r for r in load_cloud_instances()}
    checked = 0
    for price in load_hourly_prices():
        if price.kind != "on-demand":
            continue
        words = price.provider.replace("(", " ").replace(",", " ").lower().split()
        row = next((instances[w] for w in words if w in instances), None)
        if row is None or row.price_per_gpu_hour is None:
            continue
        assert row.price_per_gpu_hour == pytest.approx(price.low, rel=0.01), row.instance
        checked += 1
    assert checked >= 6


def test_notebook_text_columns_exist_in_both_languages() -> None:
    for tier in load_notebook_tiers():
        assert tier.gpus_fr and tier.billing_fr
        assert (tier.notes is None) == (tier.notes_fr is None)
        assert tier.text("notes", "fr") == tier.notes_fr
