"""Property tests: more bandwidth never means fewer tokens/s; more to read never means more."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.tools.speed import SpeedQuery, estimate_speed

BANDWIDTH = st.floats(min_value=10, max_value=20_000, allow_nan=False)
BACKEND = st.sampled_from(["llama.cpp", "exllamav2", "mlc", "vllm"])


@settings(max_examples=40, deadline=None)
@given(low=BANDWIDTH, high=BANDWIDTH, backend=BACKEND, count=st.integers(1, 8))
def test_more_bandwidth_never_fewer_tokens(
    low: float, high: float, backend: str, count: int
) -> None:
    low, high = sorted((low, high))
    args = dict(model="13B", backend=backend, gpu_count=count, context_tokens=1000)
    a = estimate_speed(SpeedQuery(bandwidth_gbs=low, **args))  # type: ignore[arg-type]
    b = estimate_speed(SpeedQuery(bandwidth_gbs=high, **args))  # type: ignore[arg-type]
    assert a.decode_tokens_per_s is not None and b.decode_tokens_per_s is not None
    assert b.decode_tokens_per_s >= a.decode_tokens_per_s


@settings(max_examples=40, deadline=None)
@given(c1=st.integers(0, 200_000), c2=st.integers(0, 200_000),
       f1=st.floats(0, 1), f2=st.floats(0, 1), bits=st.floats(2, 16))  # fmt: skip
def test_more_context_or_offload_never_faster(
    c1: int, c2: int, f1: float, f2: float, bits: float
) -> None:
    (c1, c2), (f1, f2) = sorted((c1, c2)), sorted((f1, f2))
    base = dict(model="Llama 3.1 8B", gpu="RTX 3090", bits_per_param=bits)
    a = estimate_speed(SpeedQuery(context_tokens=c1, offload_fraction=f1, **base))  # type: ignore[arg-type]
    b = estimate_speed(SpeedQuery(context_tokens=c2, offload_fraction=f2, **base))  # type: ignore[arg-type]
    assert (b.decode_tokens_per_s or 0) <= (a.decode_tokens_per_s or 0) * (1 + 1e-12)
    assert a.decode_tokens_per_s is not None and math.isfinite(a.decode_tokens_per_s)


@pytest.mark.parametrize(
    "field, value",
    [("bandwidth_gbs", -1), ("bandwidth_gbs", math.inf), ("gpu_count", 0), ("offload_fraction", 1.5),
     ("context_tokens", -3), ("bits_per_param", 0), ("params_b", math.nan)],
)  # fmt: skip
def test_bad_numbers_are_validation_errors(field: str, value: float) -> None:
    with pytest.raises(ValidationError):
        SpeedQuery(model="8B", **{field: value})
