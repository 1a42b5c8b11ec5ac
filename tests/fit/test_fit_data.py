"""Schema tests over the fit data: every row parses, names and aliases are unique, every figure has a source."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from assistant.knowledge.loader import data_path
from assistant.knowledge.model_matching import alias_collisions, model_key
from assistant.knowledge.models import (
    get_model,
    load_measured_vram,
    load_memory_rules,
    load_models,
)

# The reference table the model data started from, kept as received.
REFERENCE_CSV = Path(__file__).resolve().parent / "reference" / "model-sizes.csv"


def test_every_model_row_parses_with_sources() -> None:
    models = load_models()
    assert len(models) >= 30
    for spec in models:
        assert spec.sources, spec.name
        assert all(s.title for s in spec.sources)


def test_model_names_unique_and_aliases_do_not_collide() -> None:
    names = [model_key(m.name) for m in load_models()]
    assert len(names) == len(set(names))
    assert alias_collisions() == []


def test_table_covers_the_popular_models() -> None:
    wanted = [
        "Llama 3.1 8B",
        "Llama 3.1 70B",
        "Llama 3.1 405B",
        "Mistral 7B v0.3",
        "Mixtral 8x7B",
        "Qwen2.5 7B",
        "Qwen2.5 72B",
        "Qwen3 8B",
        "Qwen3 30B-A3B",
        "Gemma 2 9B",
        "Gemma 3 27B",
        "Phi-4",
        "DeepSeek-V3",
        "gpt-oss-20b",
        "FLUX.1-dev",
        "FLUX.1-schnell",
        "SDXL base 1.0",
        "SD3 Medium",
        "SD 3.5 Large",
        "Wan 2.1 T2V-14B",
        "HunyuanVideo",
    ]
    missing = [n for n in wanted if get_model(n) is None]
    assert missing == []


def test_llm_rows_have_attention_shapes() -> None:
    for spec in load_models():
        if spec.is_llm:
            assert spec.num_layers and spec.hidden_size and spec.max_context, spec.name
            assert spec.num_kv_heads or spec.kv_values_per_token_per_layer, spec.name


def test_diffusion_components_sum_to_total() -> None:
    flux = get_model("FLUX.1-dev")
    assert flux is not None
    roles = {c.role for c in flux.components}
    assert roles == {"denoiser", "text_encoder", "vae"}
    assert flux.params_b == pytest.approx(11.906 + 4.762 + 0.123 + 0.084)
    sdxl = get_model("SDXL base 1.0")
    assert sdxl is not None
    assert [c.params_b for c in sdxl.components] == [2.6, 0.123, 0.694, 0.084]


def test_parameter_counts_agree_with_the_reference_file() -> None:
    with REFERENCE_CSV.open(encoding="utf-8") as fh:
        ref = {row["model"]: row for row in csv.DictReader(fh)}
    checked = 0
    for spec in load_models():
        row = ref.get(spec.name)
        if row is None:
            continue
        checked += 1
        # components are summed here; the reference rounds some totals (SD 3.5 Large: 13.7)
        assert spec.params_b == pytest.approx(float(row["total_params_b"]), rel=0.01), spec.name
        if row["num_layers"].isdigit():
            assert spec.num_layers == int(row["num_layers"]), spec.name
        if row["num_kv_heads"].isdigit():
            assert spec.num_kv_heads == int(row["num_kv_heads"]), spec.name
    assert checked >= 25


def test_memory_rules_formats_and_sources() -> None:
    rules = load_memory_rules()
    assert {f.name for f in rules.formats} >= {
        "fp32",
        "bf16",
        "fp16",
        "fp8",
        "int8",
        "int4",
        "nf4",
        "q4_k_m",
    }
    assert all(f.sources for f in rules.formats)
    assert rules.format("BF16").bytes_per_param == 2.0  # type: ignore[union-attr]
    assert rules.format("Q4_K_M").bits_per_param == 4.89  # type: ignore[union-attr]
    assert rules.format("awq").name == "int4"  # type: ignore[union-attr]
    assert rules.format("load_in_4bit").name == "nf4"  # type: ignore[union-attr]
    assert rules.format("fp7") is None
    assert all(rules.sources[s] for s in ("kv_cache", "overhead", "training", "diffusion"))
    # one unit everywhere: binary GB, so a card sold as 24 GB holds 24 GB
    assert rules.bytes_per_gb == rules.bytes_per_gib == 2**30
    assert rules.card_capacity_gb(24) == 24
    assert rules.from_decimal_gb(1.073741824) == pytest.approx(1.0)


def test_measured_rows_keep_units_and_convert() -> None:
    rows = load_measured_vram()
    assert len(rows) >= 28
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids))
    by_id = {r.id: r for r in rows}
    flux = by_id["flux-dev-bf16-h100"]
    assert (flux.value, flux.unit, flux.value_gb) == (36.17, "GiB", 36.17)
    ctx = by_id["cuda-context-v100"]
    assert (ctx.value, ctx.unit, ctx.value_gb) == (1343, "MiB", 1.312)
    for row in rows:
        assert row.source
        if not row.comparable:
            assert row.not_comparable_reason
        if row.comparable and row.model_ref:
            assert get_model(row.model_ref) is not None, row.id


def test_data_files_are_packaged() -> None:
    for name in ("models.toml", "memory_rules.toml", "measured_vram.csv"):
        assert data_path(name).exists()
