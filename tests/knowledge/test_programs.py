"""Which GPUs a program runs on: the data's integrity and the software tool's verdicts."""

from __future__ import annotations

from assistant.knowledge.names import fold
from assistant.knowledge.programs import find_program, load_programs
from assistant.tools.software import SoftwareSupportQuery, software_support


def test_every_program_has_sources_a_date_and_names_no_other_program_has() -> None:
    seen: dict[str, str] = {}
    for program in load_programs():
        assert program.sources and all(s.url for s in program.sources), program.key
        for name in program.names:
            assert fold(name) not in seen, (name, seen.get(fold(name)), program.key)
            seen[fold(name)] = program.key
        for platform in (program.amd, program.apple, program.intel):
            assert platform.supported in ("yes", "partial", "no", "unknown")
            if platform.note:
                assert platform.note_fr, (program.key, platform.note)


def test_programs_are_found_by_name_at_word_boundaries() -> None:
    found = find_program("Does Ollama support the Tesla M60?")
    assert found is not None and found.key == "ollama"
    found = find_program("can I use flash-attn on a T4")
    assert found is not None and found.key == "flash_attention_2"
    assert find_program("I use torchvision transforms on my images") is None
    assert find_program("Which GPU should I buy for 500 euros?") is None


def _check(gpu: str, software: str) -> tuple[str, str]:
    result = software_support(SoftwareSupportQuery(gpu=gpu, software=software))
    return result.supported, result.reason


def test_a_card_below_the_programs_compute_capability_is_a_no_with_both_figures() -> None:
    supported, reason = _check("GTX 1080 Ti", "Can I run vLLM on it?")
    assert supported == "no"
    assert "6.1" in reason and "7.5" in reason


def test_a_card_at_or_above_it_is_a_yes() -> None:
    supported, reason = _check("RTX 4090", "does vllm run here")
    assert supported == "yes" and "8.9" in reason


def test_an_architecture_only_program_is_no_on_other_architectures() -> None:
    assert _check("H100 SXM", "FlashAttention-3")[0] == "yes"
    assert _check("RTX 4090", "FlashAttention-3")[0] == "no"


def test_another_vendors_card_gets_the_programs_way_of_running_there() -> None:
    supported, reason = _check("Arc A770", "PyTorch for stable diffusion")
    assert supported == "partial" and "XPU" in reason
    supported, _ = _check("M2 Max", "flash-attn")
    assert supported == "no"


def test_pytorch_on_an_nvidia_card_is_still_checked_wheel_by_wheel() -> None:
    result = software_support(SoftwareSupportQuery(gpu="GTX 1060", software="latest PyTorch"))
    assert result.kind == "pytorch" and result.wheels


def test_a_program_on_an_integrated_gpu_is_at_most_partly_supported_and_says_why() -> None:
    result = software_support(SoftwareSupportQuery(gpu="Intel UHD Graphic 630", software="Fooocus"))
    assert result.gpu == "UHD Graphics 630"  # "Graphic", singular, is the same filler word
    assert result.supported in ("partial", "no") and "integrated GPU" in result.reason


def test_a_model_is_not_sized_against_the_ram_an_integrated_gpu_borrows() -> None:
    from assistant.tools.fit import FitQuery, estimate_fit

    result = estimate_fit(FitQuery(model="Stable Diffusion 1.5", gpu="UHD 620", vram_gb=8))
    assert result.verdict == "unknown" and "integrated GPU" in result.message


def test_the_programs_verdict_opens_the_answer_before_any_card_comparison() -> None:
    from assistant import ask

    text = ask("Does DeepFaceLab work with an Intel Arc A770 or an RTX 3060?").text
    assert text.split("\n\n")[0].startswith("**"), text[:300]
    assert "DeepFaceLab" in text.split("\n\n")[0]


def test_rocm_support_on_the_system_the_asker_names() -> None:
    # AMD's ROCm lists the RX 6800 XT for Windows (HIP SDK), not for Linux
    def check(system: str | None) -> str:
        query = SoftwareSupportQuery(gpu="RX 6800 XT", software="PyTorch", system=system)
        return software_support(query).supported

    assert check("windows") == "yes"
    assert check(None) == "yes"
    result = software_support(
        SoftwareSupportQuery(gpu="RX 6800 XT", software="PyTorch", system="linux")
    )
    assert result.supported == "partial" and "Not officially on Linux" in result.reason
    # a card listed on Linux stays supported there
    assert check_linux("RX 7900 XTX") == "yes"


def check_linux(gpu: str) -> str:
    return software_support(
        SoftwareSupportQuery(gpu=gpu, software="PyTorch", system="linux")
    ).supported
