"""A program that finds no GPU on a card of another maker: the answer says what the card runs
(CUDA never runs on an Intel UHD; ROCm's tables decide for a Radeon); a laptop-only chip is named
without the word "laptop"; system RAM is not VRAM."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.entities import extract_entities
from assistant.knowledge.matching import find_gpu_mentions, match_gpu


def test_a_laptop_only_chip_is_named_without_the_word_laptop() -> None:
    assert match_gpu("Intel UHD Graphics 620").gpu is not None
    mentioned = [
        c.name for c in find_gpu_mentions("lspci lists an Intel UHD Graphics 620 (rev 07)")
    ]
    assert mentioned and "620" in mentioned[0] and mentioned[0].startswith("UHD")
    # a desktop card of the same name still wins over its laptop chip
    assert match_gpu("RTX 4060").gpu.segment != "laptop"  # type: ignore[union-attr]


def test_reports_of_no_gpu_found_are_told_from_other_failures() -> None:
    assert "not_detected" in concepts_in("WARNING:root:No GPU found. Conversion on CPU is slow")
    assert "not_detected" in concepts_in("ComfyUI doesn't detect my Radeon RX 6600")
    assert "not_detected" in concepts_in("PyTorch ne détecte pas mon GPU")
    assert "not_detected" not in concepts_in("CUDA out of memory on my RTX 3060")


def test_no_gpu_found_on_an_intel_igpu_says_cuda_never_runs_there() -> None:
    answer = ask(
        "The app says 'No GPU found' and runs on the CPU, but lspci shows my "
        "Intel UHD Graphics 620. Why is the GPU not detected?"
    )
    capability = [c for c in answer.tool_calls if c.name == "gpu_capability"]
    assert capability and capability[0].arguments["topic"] == "cuda_programming"
    head = answer.text.split("\n\n")[0]
    assert head.startswith("**No**") and "CUDA runs only on NVIDIA GPUs" in head


def test_no_gpu_found_on_a_radeon_checks_rocm_and_on_a_mac_not_cuda() -> None:
    radeon = extract_entities("ComfyUI doesn't detect my Radeon RX 6600")
    assert radeon.topics == ["rocm_hip"]
    mac = ask("Ollama ne détecte pas mon GPU, j'ai un Mac M2")
    assert not any(c.arguments.get("topic") == "cuda_programming" for c in mac.tool_calls)
    nvidia = extract_entities("PyTorch does not detect my RTX 3060")
    assert "cuda_programming" not in nvidia.topics


def test_system_ram_is_not_counted_as_vram() -> None:
    text = ask(
        "My laptop has an RTX 3050 with 4GB but 32GB of RAM; Task Manager shows shared GPU "
        "memory, so I effectively have 36GB of VRAM, right?"
    ).text
    head = text.split("\n\n")[0]
    assert head.startswith("No") and "dedicated VRAM" in head
