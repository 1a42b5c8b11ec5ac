"""Topics and features named in free English and French sentences."""

from __future__ import annotations

import pytest

from assistant.knowledge.topics import find_topic_mentions, match_topic

MENTIONS = [
    ("can my 4090 do megakernels?", ["megakernels"]),
    ("ma carte a-t-elle le TMA ?", ["tma"]),
    ("does the 5090 support tcgen05", ["tcgen05"]),
    ("partie 4 du guide", ["part4_modern_cuda"]),
    ("parties 4 et 8", ["part4_modern_cuda", "megakernels"]),
    ("les parties 1 à 3", ["part1_foundations", "part2_programming_model", "part3_performance"]),
    ("I want to write tcgen05 kernels on a B200", ["tcgen05_kernels"]),
    ("la RTX 5090 a-t-elle la mémoire tensorielle ?", ["tmem"]),
    ("la memoire tensorielle", ["tmem"]),
    ("FP8 training on an L4 or FP4 inference on a 5090", ["fp8_training", "fp4_inference"]),
    ("profilage avec Nsight Compute sur Colab", ["nsight_profiling"]),
    ("cp.async and wgmma on Hopper", ["cp_async", "wgmma"]),
    ("copies asynchrones et sparsité 2:4", ["cp_async", "sparsity_2_4"]),
    ("les mégakernels sur une 4090", ["megakernels"]),
    ("can my mac run cuda?", ["cuda_programming"]),
    ("CUDA kernels with TMA", ["tma"]),
    ("Is a used 3090 good for LoRA?", []),
    ("which GPU for the best performance per euro?", []),
]


@pytest.mark.parametrize(("text", "keys"), MENTIONS)
def test_find_topic_mentions(text: str, keys: list[str]) -> None:
    assert [m.key for m in find_topic_mentions(text)] == keys


def test_mention_offsets_point_at_the_words() -> None:
    text = "Et la mémoire tensorielle ?"
    (m,) = find_topic_mentions(text)
    assert text[m.start : m.start + len(m.text)] == "mémoire tensorielle"
    assert m.kind == "feature"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("megakernels", "megakernels"),
        ("Megakernels", "megakernels"),
        ("FP8", "fp8"),
        ("TMEM", "tmem"),
        ("Tensor Memory", "tmem"),
        ("tma_wgmma_gemm", "tma_wgmma_gemm"),
        ("wgmma.mma_async", "wgmma"),
        ("partie 8", "megakernels"),
        ("part 3", "part3_performance"),
        ("thread block clusters", "clusters"),
        ("distributed shared memory", "dsmem"),
        ("ROCm", "rocm_hip"),
    ],
)
def test_match_topic(text: str, key: str) -> None:
    topic = match_topic(text)
    assert topic is not None and topic.key == key


def test_match_topic_unknown_is_none() -> None:
    assert match_topic("quantum annealing") is None
