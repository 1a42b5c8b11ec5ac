"""The Colab path, end to end, on an installed package (see conftest.py: a fresh venv with torch,
then the README's Colab cell). Everything runs from a directory outside the checkout."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from assistant.retrieval.corpus import guess_language
from tests.install.conftest import TORCH_PIN, Colab, clean_env, free_port

pytestmark = [pytest.mark.install, pytest.mark.slow, pytest.mark.timeout(1800)]

MEGAKERNELS = "Can my RTX 4090 do megakernels?"
FAILED = ("Sorry — I could not", "Désolé — je n'ai pas pu", "Traceback")


def _markdown(output: dict[str, Any]) -> str:
    return str(output.get("data", {}).get("text/markdown", ""))


def _json_line(stdout: str) -> Any:
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert lines, "no output"
    return json.loads(lines[-1])


def test_pip_left_the_installed_torch_alone(colab: Colab) -> None:
    from tests.install.conftest import _torch_state

    version, mtime = _torch_state(colab.python, colab.env())
    assert version == colab.torch_before
    assert version.split("+")[0] == TORCH_PIN.split("==")[1]
    assert mtime == colab.torch_record_mtime  # not reinstalled either


def test_the_installed_package_is_the_one_imported(colab: Colab) -> None:
    done = subprocess.run(
        [str(colab.python), "-c", "import assistant; print(assistant.__file__)"],
        cwd=colab.outside,
        env=colab.env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()).is_relative_to(colab.venv)


def test_the_readme_cell_answers_in_english_and_french(colab: Colab) -> None:
    shown = [_markdown(o) for o in colab.cell_outputs if o.get("output_type") == "display_data"]
    answers = [s for s in shown if "backend" in s]
    assert len(answers) >= 2, f"expected two answers, got {shown!r:.2000}"
    english, french = answers[0], answers[1]
    assert "RTX 4090" in english and "partly" in english.lower()
    assert not any(f in english or f in french for f in FAILED)
    assert guess_language(english) == "en" and guess_language(french) == "fr"
    assert any("GPU probe" in s for s in shown)
    errors = [o for o in colab.cell_outputs if o.get("output_type") == "error"]
    assert not errors


@pytest.mark.parametrize(
    ("question", "language"),
    [(MEGAKERNELS, "en"), ("J'ai 200 €, je loue ou j'achète ?", "fr")],
)
def test_ask_answers_in_the_question_language(colab: Colab, question: str, language: str) -> None:
    done = colab.cli("ask", "--json", question)
    assert done.returncode == 0, done.stderr[-2000:]
    record = _json_line(done.stdout)
    assert record["language"] == language
    assert record["backend"] == "offline"
    assert record["tool_calls"] and record["citations"]
    assert not any(f in record["answer"] for f in FAILED)


def test_search_finds_passages(colab: Colab) -> None:
    done = colab.cli("search", "--json", "--k", "3", "combien coûte une H100 à l'heure")
    assert done.returncode == 0, done.stderr[-2000:]
    hits = _json_line(done.stdout)
    hits = hits.get("hits", hits) if isinstance(hits, dict) else hits
    assert 1 <= len(hits) <= 3
    assert all(hit["text"] for hit in hits)


def _commands(colab: Colab) -> list[dict[str, Any]]:
    """Every leaf command of the installed CLI, with its help's examples."""
    code = (
        "import argparse, json\n"
        "from assistant.cli import build_parser\n"
        "def leaves(p, path):\n"
        "    subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]\n"
        "    if not subs:\n"
        "        yield {'path': path, 'epilog': p.epilog or ''}\n"
        "    for a in subs:\n"
        "        for name, sp in a.choices.items():\n"
        "            yield from leaves(sp, path + [name])\n"
        "print(json.dumps(list(leaves(build_parser(), []))))\n"
    )
    done = subprocess.run(
        [str(colab.python), "-c", code],
        cwd=colab.outside,
        env=colab.env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(done.stdout))


def first_example(path: list[str], epilog: str) -> list[str]:
    """The first example of a command's help that runs on its own (no stdin, no token, no
    network), with --json; the bare command when the help gives none."""
    prefix = ["gpu-advisor", *path]
    for line in re.split(r"\n| \| ", epilog):
        line = re.sub(r"^\s*examples?:", "", line.split("  #")[0]).strip()
        if not line.startswith(" ".join(prefix)) or any(c in line for c in "<>=…"):
            continue
        words = shlex.split(line)
        if words[: len(prefix)] != prefix or "-" in words or "--backend" in words:
            continue
        if "--share" in words:
            continue
        args = words[1:]
        return args if "--json" in args else [*args, "--json"]
    return [*path, "--json"]


def test_examples_are_read_from_the_help() -> None:
    epilog = (
        "examples:\n  gpu-advisor cost rent H100 --hours 20\n"
        '  gpu-advisor cost rent --rate "2,50 $/h" --hours 12 --json'
    )
    assert first_example(["cost", "rent"], epilog) == [
        "cost",
        "rent",
        "H100",
        "--hours",
        "20",
        "--json",
    ]
    assert first_example(["x"], "examples: gpu-advisor x --json - < q.txt | gpu-advisor x 5") == [
        "x",
        "5",
        "--json",
    ]
    assert first_example(["probe"], "") == ["probe", "--json"]
    assert first_example(["can"], 'example: gpu-advisor can "RTX 4090" megakernels --json') == [
        "can",
        "RTX 4090",
        "megakernels",
        "--json",
    ]


# Long-running servers: the chat and Discord are tested below; each of them answers --help.
SERVERS = {("chat",), ("discord",), ("mcp",)}


def test_every_cli_command_answers_with_json(colab: Colab) -> None:
    commands = _commands(colab)
    names = {tuple(c["path"]) for c in commands}
    assert {("ask",), ("search",), ("gpu",), ("chat",)} <= names
    failures = []
    for command in commands:
        if tuple(command["path"]) in SERVERS:
            continue
        args = first_example(command["path"], command["epilog"])
        done = colab.cli(*args)
        try:
            assert done.returncode == 0, f"exit {done.returncode}"
            assert "Traceback" not in done.stderr
            _json_line(done.stdout)
        except (AssertionError, ValueError) as exc:
            failures.append(f"gpu-advisor {shlex.join(args)}: {exc}\n{done.stderr[-800:]}")
    assert not failures, "\n".join(failures)


def test_every_server_command_has_a_help(colab: Colab) -> None:
    for path in SERVERS:
        done = colab.cli(*path, "--help")
        assert done.returncode == 0 and "usage:" in done.stdout, path
        assert "Traceback" not in done.stderr


def test_discord_without_a_token_says_so(colab: Colab) -> None:
    done = colab.cli("discord", "--json")
    assert done.returncode == 2
    assert "token" in _json_line(done.stdout)["error"].lower()
    assert "Traceback" not in done.stderr


def test_the_chat_answers_through_its_api(colab: Colab) -> None:
    """The chat the README cell launched (in the notebook kernel), through gradio_client."""
    from gradio_client import Client

    client = Client(colab.chat_url, verbose=False)
    text = client.predict(MEGAKERNELS, api_name="/chat")
    assert isinstance(text, str) and "RTX 4090" in text
    assert not any(f in text for f in FAILED)


def test_the_chat_command_serves_the_api(colab: Colab) -> None:
    from gradio_client import Client

    port = free_port()
    with subprocess.Popen(
        [str(colab.venv / "bin" / "gpu-advisor"), "chat", "--json", "--port", str(port)],
        cwd=colab.outside,
        env=colab.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as server:
        try:
            assert server.stdout is not None
            url = json.loads(server.stdout.readline())["url"]
            client = Client(url, verbose=False)
            text = client.predict("J'ai 200 €, je loue ou j'achète ?", api_name="/chat")
            assert isinstance(text, str) and not any(f in text for f in FAILED)
            assert guess_language(text) == "fr"
        finally:
            server.terminate()


def test_the_example_notebook_runs_on_the_installed_package(colab: Colab, clone: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    notebook = clone / "examples" / "colab_quickstart.ipynb"
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(
        nb,
        kernel_name="fresh-install",
        timeout=600,
        resources={"metadata": {"path": str(colab.outside)}},
    ).execute()
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    outputs = [o for cell in code for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    shown = [_markdown(o) for o in outputs if o.get("output_type") == "execute_result"]
    assert any("RTX 4090" in s for s in shown)
    assert not any(f in s for s in shown for f in FAILED)


def test_an_editable_checkout_is_not_what_was_tested(colab: Colab, clone: Path) -> None:
    """The install came from the clone as a normal wheel: no link back to a source tree."""
    done = subprocess.run(
        [str(colab.python), "-m", "pip", "show", "-f", "gpu-advisor"],
        env=clean_env(colab.home, colab.venv),
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Editable project location" not in done.stdout
    assert "assistant/corpus_data/" in done.stdout
    assert not any(p.suffix == ".pth" and "gpu" in p.name for p in colab.venv.rglob("*.pth"))
