"""`gpu-advisor speed`: JSON, human text, and bad input as a message with exit 2."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "speed", "llama", "3.1", "8b", "--gpu", "4090", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["found"] and data["decode_tokens_per_s"] > 50 and data["formula"]
    assert data["inputs"]["bandwidth_gbs"] == 1008


def test_human_output_shows_formula_inputs_and_sources(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "speed", "70B", "--gpu", "3090", "--gpus", "2", "--split", "tensor")
    assert code == 0
    assert "tokens/s" in out and "Formula:" in out and "Inputs:" in out and "Sources:" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (("speed", "8B", "--gpu", "RTX 4099"), "not in the GPU catalog"),
        (("speed", "8B", "--gpu", "4090", "--offload", "2"), "offload_fraction"),
        (("speed", "8B"), "bandwidth"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_requests_served_together(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "speed", "llama", "3.1", "8b", "--gpu", "4090", "--concurrent", "16",
                       "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["concurrent_requests"] == 16
    assert (
        data["total_tokens_per_s"] > data["decode_tokens_per_s"] > data["per_request_tokens_per_s"]
    )
