"""The `recommend` command: JSON, human output, exit codes, help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_top_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "recommend", "--budget", "800", "--currency", "EUR", "--mode", "buy",
        "--workload", "lora", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0
    assert data["currency"] == "EUR" and data["budget"] == 800
    assert [(o["kind"], o["gpu"], o["condition"]) for o in data["options"]] == [
        ("buy", "GeForce RTX 3090", "used")
    ]


def test_rent_parts_4_and_8(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "recommend", "--budget", "200", "--currency", "EUR", "--mode", "rent", "--part",
        "8", "--json",
    )  # fmt: skip
    assert code == 0
    assert [o["gpu"] for o in json.loads(out)["options"][:2]] == ["H100 PCIe 80GB", "B200"]


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "recommend", "--budget", "350", "--currency", "EUR", "--mode", "buy")
    assert code == 0
    assert out.splitlines()[0].startswith(
        "Best option for the guide, parts 1–9: buy GeForce RTX 3060 12GB (used, €300.00–€600.00)."
    )
    assert "1. buy GeForce RTX 3060 12GB (used, €300.00–€600.00)" in out


def test_free_text_goal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "recommend", "learn", "tcgen05", "--json")
    assert code == 0
    assert [o["gpu"] for o in json.loads(out)["options"]] == ["B200"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--budget", "-5"], "budget"),
        (["--budget", "nan"], "budget"),
        (["--part", "12"], "guide_part"),
        (["--currency", "doubloons"], "currency"),
        (["--mode", "buy", "--form", "cloud"], "contradicts"),
        (["--feature", "wgmmaa"], "Did you mean: wgmma"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "recommend", *argv, "--json")
    assert code == 2
    assert message in json.loads(out)["error"]
    assert err.startswith("gpu-advisor: ")


def test_bad_choice_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["recommend", "--mode", "lease"])
    assert exc.value.code == 2


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["recommend", "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "examples: gpu-advisor recommend --budget 2500 --mode buy" in out
    assert "--max-power W" in out


def test_recommend_does_not_import_heavy_modules() -> None:
    code = (
        "import sys; from assistant.cli import main; "
        "main(['recommend', '--budget', '300', '--json']); "
        "print([m for m in ('torch', 'langchain_core', 'chromadb', 'gradio') if m in sys.modules])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
