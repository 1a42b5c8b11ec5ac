"""The probe report as Markdown (it lives with the probe; the chat and the notebook show it)."""

from __future__ import annotations

from assistant.tools.probe import ProbeReport
from assistant.tools.probe.markdown import probe_markdown


def test_probe_markdown_without_and_with_a_gpu():
    none = ProbeReport(
        available=False,
        method=None,
        platform="linux x86_64",
        summary="no GPU found",
        hint="Install the NVIDIA driver.",
        attempts=[{"method": "nvidia-smi", "ok": False, "detail": "nvidia-smi not found on PATH"}],
    )
    text = probe_markdown(none)
    assert text.splitlines()[0] == "**GPU probe** — no GPU found"
    assert "Tried: nvidia-smi (nvidia-smi not found on PATH)." in text
    assert "Install the NVIDIA driver." in text
    one = ProbeReport(
        available=True,
        method="nvml",
        platform="linux x86_64",
        summary="1 GPU: NVIDIA H100 80GB HBM3",
        gpus=[
            {
                "index": 0,
                "name": "NVIDIA H100 80GB HBM3",
                "vendor": "nvidia",
                "memory_total_gb": 79.6,
                "compute_capability": "9.0",
                "driver_version": "550.54",
                "catalog_match": {"name": "H100 SXM"},
            }
        ],
    )
    assert "| 0 | NVIDIA H100 80GB HBM3 | 79.6 GB | 9.0 | 550.54 | H100 SXM |" in probe_markdown(
        one
    )
    assert probe_markdown(one).endswith("<sub>linux x86_64 · via nvml</sub>")
    assert one._repr_markdown_() == probe_markdown(one)  # the notebook shows the same
