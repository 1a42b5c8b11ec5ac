"""The `fit` command: flags, free questions, JSON, exit codes, and no heavy imports."""

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


def test_fit_with_gpu_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "llama 3.1 8b", "--gpu", "4090", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["model"], data["gpu"], data["verdict"], data["total_gb"]) == (
        "Llama 3.1 8B",
        "GeForce RTX 4090",
        "fits",
        16.72,
    )
    assert {line["item"] for line in data["breakdown"]} == {
        "weights",
        "kv_cache",
        "activations",
        "overhead",
    }


def test_free_question_70b_in_24gb(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "fit", "will", "a", "70B", "model", "fit", "in", "24", "GB", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert (data["params_b"], data["vram_gb"], data["verdict"]) == (70.0, 24.0, "does_not_fit")


def test_free_question_in_french_with_task_and_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "QLoRA de Llama 3 8B sur ma RTX 3060 12 Go", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["model"], data["task"], data["gpu"], data["verdict"]) == (
        "Llama 3.1 8B",
        "qlora",
        "GeForce RTX 3060 12GB",
        "fits",
    )


def test_human_output_has_breakdown_and_assumptions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "flux", "dev", "--vram", "24", "--precision", "bf16")
    assert code == 0
    assert "does not fit" in out and "What would change it:" in out
    assert "precision nf4" in out and "Assumptions:" in out and "Nearest measured:" in out


def test_flags_override_the_question(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "fit",
        "llama 3 70b on a 4090",
        "--vram",
        "80",
        "--precision",
        "fp8",
        "--context",
        "8192",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["gpu"] is None and data["vram_gb"] == 80.0
    assert (data["precision"], data["context_tokens"]) == ("fp8", 8192)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("fit", "llama 9 colossus", "--gpu", "4090"), "Unknown model"),
        (("fit", "llama 3 8b", "--gpu", "RTX 9999"), "Unknown GPU"),
        (("fit", "70B", "--vram", "-3"), "vram_gb"),
        (("fit", "sdxl", "--precision", "fp7"), "unknown precision"),
        (("fit", "llama 3 8b", "--task", "image_generation"), "diffusion"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], needle: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert needle in err and "Traceback" not in err


def test_unknown_model_json_still_prints_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "llama 9 colossus", "--json")
    assert code == 2
    data = json.loads(out.splitlines()[0])
    assert data["verdict"] == "unknown" and data["suggestions"]


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["fit", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--gpu" in out and "--vram" in out and "--precision" in out and "--json" in out


def test_fit_command_imports_nothing_heavy() -> None:
    code = (
        "import sys; from assistant.cli import main; "
        "rc = main(['fit', 'sdxl', '--vram', '12', '--json']); "
        "heavy = [m for m in ('torch', 'langchain', 'langchain_core', 'chromadb', 'gradio', 'sentence_transformers') if m in sys.modules]; "
        "print(heavy); sys.exit(rc or (1 if heavy else 0))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("[]")


def test_gpu_count_in_a_question_but_not_in_a_model_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "fit", "llama 3 70b on 2x RTX 3090 in int4", "--json")
    data = json.loads(out)
    assert (data["query"]["num_gpus"], data["gpu"], data["verdict"]) == (
        2,
        "GeForce RTX 3090",
        "fits",
    )
    _, out, _ = run(capsys, "fit", "mixtral 8x7b on a 4090", "--json")
    data = json.loads(out)
    assert (data["model"], data["query"]["num_gpus"]) == ("Mixtral 8x7B", 1)


def test_several_cards_flag_and_question(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "fit", "Llama 2 70B", "--cards", "4x A10G", "--precision", "fp16", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "does_not_fit"
    assert data["multi_gpu"]["cards"] == 4 and data["multi_gpu"]["total_vram_gb"] == 96
    code, out, _ = run(capsys, "fit", "llama 3 70b on a 3090 + a 4090 in int4", "--json")
    data = json.loads(out)
    assert data["query"]["gpus"] == ["GeForce RTX 3090", "GeForce RTX 4090"]
    assert [c["gpu"] for c in data["cards"]] == ["GeForce RTX 3090", "GeForce RTX 4090"]
    code, out, _ = run(capsys, "fit", "Llama 3.1 8B", "--cards", "2x RTX 3060", "--replicate")
    assert code == 0 and "One copy per card" in out and "Cards:" in out


def test_equal_shares_are_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["fit", "14B", "--precision", "bf16", "--cards", "RTX 4090", "RTX 3060 12GB", "--json"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and json.loads(out)["verdict"] != "does_not_fit"
    code, out, _ = run(capsys, *args, "--equal")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "does_not_fit"
    assert data["multi_gpu"]["mode"] == "equal"


def test_human_output_shows_the_side_by_side_and_the_precision_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "fit", "qwen3 14b", "--gpu", "A10G")
    assert code == 0 and "Side by side" in out and "Formula:" in out
    code, out, _ = run(capsys, "fit", "llama 3.1 8b", "--gpu", "A100 40GB", "--precision", "fp8")
    assert code == 0 and "Precision on A100 40GB" in out and "bf16 or int8" in out


def test_fit_beside_other_programs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "fit", "Llama 3.2 3B", "--vram", "8", "--in-use", "5.5", "--precision", "q4_k_m",
        "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert data["capacity_gb"] == 2.5 and data["vram_gb"] == 8
    assert data["verdict"] == "does_not_fit"
    alone = json.loads(run(capsys, "fit", "Llama 3.2 3B", "--vram", "8", "--precision", "q4_k_m",
                           "--json")[1])  # fmt: skip
    assert alone["verdict"] == "fits"
