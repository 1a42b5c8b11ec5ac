"""Two entries people need when deploying: a TensorRT engine is rebuilt on its target, and a
Tesla P40/M40 that the driver cannot map needs Above 4G Decoding."""

from __future__ import annotations

from assistant import ask


def test_copying_an_engine_to_a_jetson_is_answered_by_its_entry() -> None:
    answer = ask(
        "I train YOLO on my desktop RTX 3060 and deploy on a Jetson Orin. Can I build the TensorRT "
        ".engine file on the desktop and copy it over?"
    )
    assert answer.text.startswith("Rebuild it on the target")
    assert any("tensorrt-engine-portability" in (c.chunk_id or "") for c in answer.citations)


def test_a_pasted_bar1_error_opens_with_above_4g_decoding() -> None:
    answer = ask(
        "P40 in an old Z170 board, nvidia-smi says No devices were found. dmesg: NVRM: This PCI "
        "I/O region assigned to your NVIDIA device is invalid: NVRM: BAR1 is 0M @ 0x0"
    )
    first = answer.text.split("\n\n")[0]
    assert "Above 4G" in answer.text and "4 GB" in first
    french = ask("Ma Tesla M40 affiche le code 12 dans Windows, faut-il l'Above 4G Decoding ?")
    assert "Above 4G Decoding" in french.text.split("\n\n")[0] or "4 Go" in french.text
