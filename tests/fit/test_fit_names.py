"""A model name is never answered for a different model: known names resolve to their own entry,
unknown ones are sized from the size written in the name, with a generic architecture, and say so."""

from __future__ import annotations

import pytest

from assistant.knowledge.models import get_model
from assistant.tools.fit import FitQuery, estimate_fit
from assistant.tools.fit.names import read_size


@pytest.mark.parametrize(
    ("text", "name", "params_b"),
    [
        ("DeepSeek-R1-Distill-Qwen-32B", "DeepSeek-R1-Distill-Qwen-32B", 32.76),
        ("deepseek-r1:32b", "DeepSeek-R1-Distill-Qwen-32B", 32.76),
        ("DeepSeek-R1", "DeepSeek-R1", 671),
        ("Mistral Large 2", "Mistral Large 2", 123),
        ("Mistral Small 3.1", "Mistral Small 3.1 24B", 24.0),
        ("Llama 4 Maverick", "Llama 4 Maverick", 400),
        ("Llama-4-Scout-17B-16E-Instruct", "Llama 4 Scout", 109),
        ("Qwen3-235B-A22B", "Qwen3 235B-A22B", 235),
        ("Mixtral 8x22B", "Mixtral 8x22B", 141),
        ("gemma 3 12b", "Gemma 3 12B", 12.2),
        ("Phi-4-mini", "Phi-4-mini", 3.84),
        ("gpt-oss-120b", "gpt-oss-120b", 117),
        ("flux kontext dev", "FLUX.1 Kontext dev", 16.875),
        ("SD 3.5 Medium", "SD 3.5 Medium", 8.16),
        ("wan 2.2", "Wan 2.2 T2V-A14B", 33.807),
        ("LTX-Video", "LTX-Video 2B", 6.762),
        ("Qwen2.5-Coder-32B-Instruct", "Qwen2.5-Coder 32B", 32.5),
    ],
)
def test_known_names_resolve_to_their_own_entry(text: str, name: str, params_b: float) -> None:
    result = estimate_fit(FitQuery(model=text))
    assert (result.model, result.params_b) == (name, params_b)


@pytest.mark.parametrize(
    ("text", "params_b", "not_this"),
    [
        ("DeepSeek-R1-Distill-Qwen-3B", 3.0, "DeepSeek-R1"),  # a distill that does not exist
        ("Mixtral 8x3B", 24.0, "Mixtral 8x7B"),  # 8 experts of 3B: at most 24B
        ("Phi-4-mini-flash-reasoning-3.8B", 3.8, "Phi-4-mini"),
    ],
)
def test_unknown_names_are_sized_from_the_name_never_substituted(
    text: str, params_b: float, not_this: str
) -> None:
    result = estimate_fit(FitQuery(model=text, vram_gb=24))
    assert result.model is None and result.model_found is False
    assert result.params_b == params_b
    assert result.assumptions[0].startswith(f"{text!r} is not in the model table")
    assert f"not as {not_this}" in result.assumptions[0]
    assert any("Generic model" in a for a in result.assumptions)


def test_unknown_name_without_a_size_is_unknown_not_another_model() -> None:
    result = estimate_fit(FitQuery(model="Mistral Large 3", vram_gb=80))
    assert result.verdict == "unknown" and result.total_gb is None
    assert "Mistral Large 3" in result.message and "not answered for" in result.message
    assert "Mistral Large 2" in result.suggestions  # a near name, offered, not used
    sized = estimate_fit(FitQuery(model="Mistral Large 3", params_b=675, vram_gb=80))
    assert sized.model is None and sized.params_b == 675


def test_same_model_words_keep_the_match() -> None:
    for text in (
        "Llama-3.1-70B-Instruct-AWQ",
        "Llama 3.1 8B Instruct Q4_K_M",
        "llama 3 70b on a 3090",
    ):
        assert estimate_fit(FitQuery(model=text)).model is not None, text
    assert estimate_fit(FitQuery(model="Llama-3.1-70B-Instruct-AWQ")).precision == "int4"
    assert estimate_fit(FitQuery(model="Llama 3.1 8B Instruct Q4_K_M")).precision == "q4_k_m"


def test_read_size_from_names() -> None:
    moe = read_size("Qwen3-30B-A3B")
    assert moe is not None and (moe.total_b, moe.active_b) == (30.0, 3.0)
    experts = read_size("Mixtral 8x22B")
    assert experts is not None and experts.total_b == 176.0 and "at most" in experts.how
    assert read_size("a 1.5b model") is not None and read_size("a 1.5b model").total_b == 1.5  # type: ignore[union-attr]
    assert read_size("Mistral Large") is None
    assert read_size("RTX 4090 24GB") is None


def test_new_entries_carry_sources_and_consistent_shapes() -> None:
    for name in ("Llama 4 Scout", "Qwen3 235B-A22B", "Mistral Large 2", "Wan 2.2 T2V-A14B"):
        spec = get_model(name)
        assert spec is not None and spec.sources and all(s.url for s in spec.sources)
    scout = get_model("Llama 4 Scout")
    assert scout is not None and scout.active_params_b == 17 and scout.kind == "llm-moe"
    # KV per token of the 235B MoE: 2 x 94 layers x 4 KV heads x 128 x 2 B = 188 KiB
    qwen = get_model("Qwen3 235B-A22B")
    assert qwen is not None and qwen.kv_values_per_token(4096) * 2 == 192_512
