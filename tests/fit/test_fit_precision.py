"""The precision is checked against the card (from memory_rules.toml and features.toml), and with
no precision named the common ones are compared side by side, the best that fits leading."""

from __future__ import annotations

from assistant.tools.fit import FitQuery, estimate_fit
from assistant.tools.probe.models import CatalogMatch, ProbedGpu, ProbeReport


def test_fp8_on_an_a100_fits_but_is_weight_only_with_bf16_or_int8_instead() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="A100 40GB SXM4", precision="fp8"))
    assert result.verdict == "fits"
    (check,) = result.precision_support
    assert check.runs == "weight_only" and check.compute_capability == "8.0"
    assert check.use_instead == ["bf16", "int8"]
    assert "It fits, but" in result.message and "bf16 or int8" in result.message
    assert "bf16 ou int8" in result.message_fr
    assert any("vLLM" in s.title for s in check.sources)


def test_fp8_runs_natively_from_ada() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="RTX 4090", precision="fp8"))
    assert [c.runs for c in result.precision_support] == ["yes"]
    assert "It fits, but" not in result.message


def test_bf16_needs_ampere_and_awq_needs_turing() -> None:
    v100 = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="V100", precision="bf16"))
    assert v100.precision_support[0].runs == "no" and v100.precision_support[0].use_instead == [
        "fp16"
    ]
    p100 = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="P100", precision="int4"))
    assert p100.precision_support[0].runs == "no" and "7.5" in p100.precision_support[0].reason
    t4 = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="T4", precision="int4"))
    assert t4.precision_support[0].runs == "yes"


def test_gguf_has_no_hardware_requirement_and_other_vendors_are_not_guessed() -> None:
    gguf = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="P100", precision="q4_k_m"))
    assert gguf.precision_support[0].runs == "yes"
    mac = estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="M3 Max", precision="fp8"))
    assert mac.precision_support[0].runs == "unknown"


def test_no_precision_compares_side_by_side_and_leads_with_the_best_that_fits() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.1 70B", gpu="RTX 4090"))
    rows = {r.precision: r for r in result.by_precision}
    assert list(rows) == ["bf16", "fp8", "q8_0", "q4_k_m"]
    assert rows["bf16"].verdict == "does_not_fit" and rows["q8_0"].verdict == "does_not_fit"
    # 70B at 4-bit is about 40 GB: nothing fits a 24 GB card, so the default is kept
    assert result.precision == "bf16" and result.verdict == "does_not_fit"
    small = estimate_fit(FitQuery(model="Qwen3 14B", gpu="RTX 4090"))
    rows = {r.precision: r for r in small.by_precision}
    assert rows["bf16"].verdict == "does_not_fit" and rows["fp8"].verdict == "fits"
    assert small.precision == "fp8" and small.verdict == "fits"
    assert "Side by side" in small.message and "Côte à côte" in small.message_fr


def test_side_by_side_prefers_a_native_format_over_weight_only() -> None:
    # on an A10G (CC 8.6) fp8 only loads weight-only: q8_0, native, leads
    result = estimate_fit(FitQuery(model="Qwen3 14B", gpu="A10G"))
    rows = {r.precision: r for r in result.by_precision}
    assert rows["fp8"].runs == "weight_only" and rows["fp8"].verdict == "fits"
    assert result.precision == "q8_0"


def test_bf16_becomes_fp16_side_by_side_on_a_t4() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.2 3B", gpu="T4"))
    names = [r.precision for r in result.by_precision]
    assert names[0] == "fp16" and "bf16" not in names
    assert result.precision == "fp16" and result.verdict == "fits"


def test_named_precision_is_never_replaced() -> None:
    result = estimate_fit(FitQuery(model="Llama 3.1 70B", gpu="RTX 4090", precision="bf16"))
    assert result.by_precision == [] and result.precision == "bf16"


def _probe(free_mib: int, total_mib: int, name: str = "NVIDIA GeForce RTX 4090") -> ProbeReport:
    gpu = ProbedGpu(
        index=0,
        name=name,
        vendor="nvidia",
        compute_capability="8.9",
        memory_total_mib=total_mib,
        memory_free_mib=free_mib,
        memory_total_gb=round(total_mib / 1024, 1),
        memory_free_gb=round(free_mib / 1024, 1),
        catalog_match=CatalogMatch(name="GeForce RTX 4090", vram_gb=24, compute_capability="8.9"),
    )
    return ProbeReport(
        available=True, method="nvml", gpus=[gpu], platform="linux x86_64", summary="1 GPU"
    )


def test_the_probed_machine_uses_free_memory_not_total() -> None:
    busy = estimate_fit(
        FitQuery(model="Llama 3.1 8B", precision="bf16", machine=_probe(12 * 1024, 24 * 1024))
    )
    idle = estimate_fit(
        FitQuery(model="Llama 3.1 8B", precision="bf16", machine=_probe(23 * 1024, 24 * 1024))
    )
    assert busy.capacity_gb == 12 and busy.verdict == "does_not_fit"
    assert idle.capacity_gb == 23 and idle.verdict == "fits"
    assert any("free memory" in a for a in busy.assumptions)


def test_a_mig_slice_is_the_memory_a_process_sees() -> None:
    report = _probe(80 * 1024, 80 * 1024, name="NVIDIA A100-SXM4-80GB MIG 3g.40gb")
    result = estimate_fit(FitQuery(model="Llama 3.1 8B", precision="bf16", machine=report))
    assert result.capacity_gb == 40
