"""The example notebook runs top to bottom in a kernel on this environment's Python, so it
cannot rot. The launch cell is tagged `skip-execution`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

NOTEBOOK = REPO_ROOT / "examples" / "colab_quickstart.ipynb"

pytestmark = pytest.mark.slow


@pytest.fixture
def kernel_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernelspec pointing at this interpreter, visible only to this test."""
    spec = tmp_path / "jupyter" / "kernels" / "gpu-advisor-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "gpu-advisor (tests)",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    return "gpu-advisor-test"


def _outputs(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        for value in output.get("data", {}).values():
            parts.append(value if isinstance(value, str) else json.dumps(value))
    return "\n".join(parts)


def test_notebook_executes_and_shows_the_answer(kernel_name: str, session_home: Path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name=kernel_name,
        timeout=300,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    by_source = {cell.source.splitlines()[-1]: cell for cell in code}

    shown = next(o for o in by_source["answer"]["outputs"] if o["output_type"] == "execute_result")
    shown = shown["data"]
    assert "text/markdown" in shown  # Answer._repr_markdown_ renders in the notebook
    assert shown["text/markdown"].startswith("**Partly** — GeForce RTX 4090")
    printed = _outputs(
        by_source["print([call.name for call in answer.tool_calls], answer.backend)"]
    )
    assert "Partly" in printed
    assert "['gpu_capability', 'search_corpus'] offline" in printed
    french = _outputs(by_source['ask("J\'ai 200 €, louer ou acheter ?")'])
    assert "louer" in french.lower() or "achat" in french.lower()
    probe = next(
        o for o in by_source["assistant.probe()"]["outputs"] if o["output_type"] == "execute_result"
    )
    assert probe["data"]["text/markdown"].startswith("**GPU probe** — ")  # ProbeReport renders
    launch = by_source["assistant.launch(share=True)"]
    assert "skip-execution" in launch.metadata["tags"] and launch.get("outputs") == []
    assert not any(o.get("output_type") == "error" for c in code for o in c.get("outputs", []))
