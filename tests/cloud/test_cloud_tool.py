"""`cloud_instances` and `notebook_tiers`: lookups, the cheapest instance a model fits, bad input."""

from __future__ import annotations

import json

from assistant.cli import main
from assistant.tools.cloud import (
    CloudInstancesQuery,
    NotebookTiersQuery,
    cloud_instances,
    notebook_tiers,
)


def test_p4d_24xlarge_is_eight_a100_40gb() -> None:
    result = cloud_instances(CloudInstancesQuery(instance="p4d.24xlarge"))
    assert len(result.matches) == 1
    m = result.matches[0]
    assert (m.gpu, m.gpu_count, m.vram_gb, m.total_vram_gb) == ("A100 40GB SXM4", 8, 40, 320)
    assert "8 x A100 40GB" in result.message and "2026-11-09" in result.message
    assert result.sources and any(s.url and "aws.amazon.com" in s.url for s in result.sources)


def test_instance_names_are_matched_loosely() -> None:
    assert (
        cloud_instances(CloudInstancesQuery(instance="P4D 24XLARGE")).matches[0].instance
        == "p4d.24xlarge"
    )


def test_a_family_name_keeps_every_variant_and_a_size_narrows_it() -> None:
    family = {
        m.gpu for m in cloud_instances(CloudInstancesQuery(gpu="A100", max_results=100)).matches
    }
    assert {"A100 40GB SXM4", "A100 80GB SXM4", "A100 80GB PCIe"} <= family
    narrow = {
        m.gpu
        for m in cloud_instances(CloudInstancesQuery(gpu="A100 40GB", max_results=100)).matches
    }
    assert narrow == {"A100 40GB SXM4"}


def test_gpu_and_provider_filters_combine_and_sort_by_price() -> None:
    result = cloud_instances(CloudInstancesQuery(gpu="H100", provider="aws"))
    assert [m.instance for m in result.matches] == ["p5.4xlarge", "p5.48xlarge"]
    assert result.cheapest is not None and result.cheapest.instance == "p5.4xlarge"


def test_cheapest_aws_instance_for_a_70b_model_at_4_bit_is_one_l40s() -> None:
    # 70B at int4 needs ~43.5 GB: one 48 GB L40S (g6e.xlarge, $1.861/h) beats 4 x L4 or 4 x A10G.
    result = cloud_instances(
        CloudInstancesQuery(model="llama 3 70b", precision="int4", provider="AWS")
    )
    assert result.cheapest is not None
    assert result.cheapest.instance == "g6e.xlarge"
    assert result.cheapest.fit_verdict == "fits"
    assert result.model and "70B" in result.model
    # a single 40 GB A100 is too small for it
    assert all(not (m.gpu == "A100 40GB SXM4" and m.gpu_count == 1) for m in result.matches)


def test_70b_in_bf16_needs_at_least_140_gb_of_gpu_memory() -> None:
    result = cloud_instances(CloudInstancesQuery(model="llama 3 70b", precision="bf16"))
    assert result.matches
    assert all(m.total_vram_gb >= 140 for m in result.matches)
    assert result.cheapest is not None and result.cheapest.price_usd_per_hour is not None
    by_provider = {m.provider for m in result.cheapest_by_provider}
    assert "AWS" in by_provider


def test_min_vram_per_gpu_and_total() -> None:
    per_gpu = cloud_instances(CloudInstancesQuery(min_vram_gb=80, max_results=100)).matches
    assert per_gpu and all(m.vram_gb >= 80 for m in per_gpu)
    total = cloud_instances(CloudInstancesQuery(min_total_vram_gb=1000, max_results=100)).matches
    assert {m.instance for m in total} >= {"p5e.48xlarge", "p6-b200.48xlarge"}


def test_unknown_names_are_messages_with_suggestions_not_errors() -> None:
    gpu = cloud_instances(CloudInstancesQuery(gpu="RTX 9999"))
    assert gpu.matches == [] and "Unknown GPU" in gpu.message and gpu.suggestions
    inst = cloud_instances(CloudInstancesQuery(instance="p4d.24xlarg"))
    assert inst.matches[0].instance == "p4d.24xlarge"  # a prefix still finds it
    none = cloud_instances(CloudInstancesQuery(instance="zz-none"))
    assert none.matches == [] and "Unknown instance" in none.message
    model = cloud_instances(CloudInstancesQuery(model="no such model at all"))
    assert model.matches == [] and "Unknown model" in model.message


def test_notebook_tiers_lookup() -> None:
    result = notebook_tiers(NotebookTiersQuery(provider="colab", tier="pro+"))
    assert [t.tier for t in result.tiers] == ["Pro+"]
    assert "500 compute units" in result.message
    assert notebook_tiers(NotebookTiersQuery(provider="colab", tier="pro")).tiers[0].tier == "Pro"
    kaggle = notebook_tiers(NotebookTiersQuery(provider="kaggle"))
    assert "30 GPU hours a week" in kaggle.message and kaggle.sources
    assert notebook_tiers(NotebookTiersQuery(gpu="A100")).tiers
    assert notebook_tiers(NotebookTiersQuery(provider="nowhere")).tiers == []


def test_cli_json_and_bad_input(capsys) -> None:
    assert main(["cloud", "--instance", "p5.48xlarge", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"][0]["gpu_count"] == 8
    assert main(["cloud", "--gpu", "RTX 9999"]) == 2
    assert "Unknown GPU" in capsys.readouterr().err
    assert main(["notebooks", "--provider", "kaggle"]) == 0
    assert "P100" in capsys.readouterr().out
    assert main(["cloud", "--min-vram", "-3"]) == 2
