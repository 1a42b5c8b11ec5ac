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
