"""`gpu-advisor can`: exit codes, JSON and the human rendering."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main


def test_can_json_4090_megakernels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "RTX 4090", "megakernels", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "partial"
    assert out["gpu"] == "GeForce RTX 4090"
    assert any("227 KB" in r for r in out["reasons"])
    assert out["sources"]


def test_can_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "RTX 5090", "tcgen05"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("NO: GeForce RTX 5090 (CC 12.0, sm_120a) × tcgen05")
    assert "corpus differs:" in out
    assert "sources:" in out


def test_can_multiword_topic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "L4", "FP8", "training", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["topic"] == "fp8_training"


def test_can_unknown_gpu_exits_2_with_suggestions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "RTX 9090", "megakernels", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "unknown"
    assert "GeForce RTX 4090" in out["suggestions"]


def test_can_unknown_topic_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "RTX 4090", "basket weaving"]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("UNKNOWN:")
    assert "did you mean:" in captured.out
    assert "not a known topic" in captured.err


def test_can_missing_arguments_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "RTX 4090"]) == 2
    assert "give a GPU and a topic" in capsys.readouterr().err


def test_can_list_topics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["can", "--list-topics", "--json"]) == 0
    keys = [t["key"] for t in json.loads(capsys.readouterr().out)]
    assert "megakernels" in keys and "tcgen05" in keys


def test_can_help_mentions_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["can", "--help"])
    assert exc.value.code == 0
    assert "megakernels" in capsys.readouterr().out
