def test_a_mac_gets_the_share_of_unified_memory_macos_gives_its_gpu() -> None:
    from assistant.tools.fit import FitQuery, estimate_fit

    big = estimate_fit(FitQuery(model="100B", gpu="M2 Ultra", precision="bf16"))
    assert big.vram_gb == 192 and big.capacity_gb == 144  # 75 % above 36 GB
    assert big.verdict == "does_not_fit"  # 189 GB in bf16 is more than the GPU may wire
    assert any("iogpu.wired_limit_mb" in a for a in big.assumptions)
    small = estimate_fit(FitQuery(model="Mistral 7B", gpu="M2", vram_gb=16))
    assert small.capacity_gb == 10.7  # two-thirds at 36 GB or less


def test_a_discrete_card_keeps_its_whole_memory() -> None:
    from assistant.tools.fit import FitQuery, estimate_fit

    assert estimate_fit(FitQuery(model="Llama 3.1 8B", gpu="RTX 4090")).capacity_gb == 24
