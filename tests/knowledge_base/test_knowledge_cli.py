"""`gpu-advisor support` and `gpu-advisor explain`: human text, --json, bad input exits 2."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main


def test_support_prints_the_verdict_and_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["support", "RTX 5090", "cu124"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("GeForce RTX 5090 (CC 12.0) + PyTorch (cu124): no")
    assert "cu128" in out and "Sources:" in out


def test_support_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["support", "sm_61", "CUDA 13", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["supported"], result["last"]) == ("no", "CUDA 12.9")


def test_support_unknown_card_exits_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["support", "Voodoo 3", "CUDA 12.4"]) == 2
    err = capsys.readouterr().err
    assert "Unknown GPU" in err and "Traceback" not in err


def test_explain_compares_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "sm_90", "--vs", "sm_90a", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## Quelle est la différence entre sm_90 et sm_90a ?")
    assert "Base de connaissances" in out and "https://" in out


def test_explain_json_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "DSMEM", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"][0]["id"] == "dsmem"
    assert main(["explain", "zzz"]) == 2
    assert "No knowledge entry explains 'zzz'" in capsys.readouterr().err
