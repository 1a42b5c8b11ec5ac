"""Property tests: bad numbers are validation errors, good ones always give a finite estimate."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.tools.fit import FitQuery, estimate_fit

BAD_FLOATS = st.one_of(
    st.floats(max_value=0.0),  # zero and negative
    st.just(math.nan),
    st.just(math.inf),
    st.just(-math.inf),
    st.floats(min_value=1e6, allow_infinity=False),  # huge
)
BAD_INTS = st.one_of(st.integers(max_value=0), st.integers(min_value=10**8))


@given(value=BAD_FLOATS)
def test_bad_vram_is_a_validation_error(value: float) -> None:
    with pytest.raises(ValidationError):
        FitQuery(model="llama 3 8b", vram_gb=value)


@given(value=BAD_FLOATS)
def test_bad_params_is_a_validation_error(value: float) -> None:
    with pytest.raises(ValidationError):
        FitQuery(model="my model", params_b=value)


@given(value=BAD_INTS)
def test_bad_context_and_batch_are_validation_errors(value: int) -> None:
    with pytest.raises(ValidationError):
        FitQuery(model="llama 3 8b", context_tokens=value)
    with pytest.raises(ValidationError):
        FitQuery(model="llama 3 8b", batch_size=value)


@given(text=st.text(max_size=20).filter(lambda t: t.strip().lower() != "mixed"))
def test_unknown_precision_is_a_validation_error_or_a_known_format(text: str) -> None:
    try:
        query = FitQuery(model="llama 3 8b", precision=text)
    except ValidationError:
        return
    assert query.precision is not None


def test_empty_model_and_unknown_fields_are_rejected() -> None:
    with pytest.raises(ValidationError):
        FitQuery(model="")
    with pytest.raises(ValidationError):
        FitQuery.model_validate({"model": "sdxl", "vram": 12})


@settings(max_examples=60, deadline=None)
@given(
    model=st.sampled_from(
        ["llama 3 8b", "70B", "mixtral", "gemma 2 9b", "flux dev", "sdxl", "wan 1.3b", "qwen3 30b"]
    ),
    task=st.sampled_from(["inference", "lora", "qlora", "full_finetune", "image_generation"]),
    precision=st.sampled_from([None, "bf16", "fp8", "int4", "nf4", "q4_k_m", "fp32"]),
    context=st.integers(min_value=1, max_value=1_000_000),
    batch=st.integers(min_value=1, max_value=512),
    vram=st.floats(min_value=0.5, max_value=2000),
)
def test_valid_queries_never_crash(
    model: str, task: str, precision: str | None, context: int, batch: int, vram: float
) -> None:
    result = estimate_fit(
        FitQuery(
            model=model,
            task=task,
            precision=precision,
            context_tokens=context,
            batch_size=batch,
            vram_gb=vram,
        )  # type: ignore[arg-type]
    )
    if result.total_gb is None:
        assert result.verdict == "unknown" and result.message
        return
    assert math.isfinite(result.total_gb) and result.total_gb > 0
    assert result.total_gb == pytest.approx(sum(line.gb for line in result.breakdown), abs=0.01)
    assert result.verdict in ("fits", "tight", "does_not_fit", "unknown")
    assert result.assumptions and result.sources


RANK = {"does_not_fit": 0, "unknown": 1, "tight": 2, "fits": 3}


@settings(max_examples=40, deadline=None)
@given(
    model=st.sampled_from(["llama 3 8b", "70B", "qwen3 14b", "mixtral", "flux dev", "gemma 3 4b"]),
    precision=st.sampled_from([None, "bf16", "fp8", "q4_k_m", "nf4"]),
    vram=st.floats(min_value=2, max_value=200),
    extra=st.floats(min_value=0.5, max_value=200),
)
def test_more_vram_never_turns_fit_into_no_fit(
    model: str, precision: str | None, vram: float, extra: float
) -> None:
    small = estimate_fit(FitQuery(model=model, precision=precision, vram_gb=vram))
    big = estimate_fit(FitQuery(model=model, precision=precision, vram_gb=vram + extra))
    if small.verdict == "fits":
        assert big.verdict == "fits"
    if small.verdict != "unknown" and big.verdict != "unknown":
        assert RANK[big.verdict] >= RANK[small.verdict]


@settings(max_examples=30, deadline=None)
@given(
    model=st.sampled_from(["Llama 3.1 70B", "Llama 2 70B", "Qwen3 235B-A22B", "Mixtral 8x22B"]),
    precision=st.sampled_from(["bf16", "int8", "q4_k_m"]),
    card=st.sampled_from(["A10G", "RTX 3090", "L40S", "A100 80GB SXM4"]),
    n=st.integers(min_value=1, max_value=7),
)
def test_more_cards_never_hold_less(model: str, precision: str, card: str, n: int) -> None:
    fewer = estimate_fit(FitQuery(model=model, precision=precision, gpu=card, num_gpus=n))
    more = estimate_fit(FitQuery(model=model, precision=precision, gpu=card, num_gpus=n + 1))
    assert fewer.total_gb is not None and more.total_gb is not None
    assert more.total_gb <= fewer.total_gb  # the fullest card holds less
    if n > 1:
        assert more.multi_gpu is not None and fewer.multi_gpu is not None
        assert more.multi_gpu.total_vram_gb > fewer.multi_gpu.total_vram_gb
    assert RANK[more.verdict] >= RANK[fewer.verdict]


def test_the_longest_context_grows_with_the_memory_and_stops_at_the_models_maximum() -> None:
    from assistant.tools.fit.api import estimate_fit
    from assistant.tools.fit.models import FitQuery

    def longest(vram: float) -> int | None:
        return estimate_fit(
            FitQuery(model="Qwen2.5 32B", precision="q4_k_m", vram_gb=vram, longest_context=True)
        ).max_context_tokens

    small, big, huge = longest(24), longest(32), longest(200)
    assert small is not None and big is not None and 1000 < small < big
    assert huge == 131072  # the table's maximum, not more
    assert longest(16) is None  # the weights alone do not fit
    # only computed when asked: a plain fit check does not pay for the bisection
    plain = estimate_fit(FitQuery(model="Qwen2.5 32B", precision="q4_k_m", vram_gb=24))
    assert plain.max_context_tokens is None
