"""What a new user gets: the committed tree, built and installed the way the README says.

Once per session: clone HEAD (what is committed is what is tested), build the sdist and the wheel,
and make a fresh virtual environment shaped like Colab's (a recent pip, the CPU torch and a
Jupyter kernel already there), in which the README's Colab cell installs the project from the
clone, from a directory outside the checkout. pip reuses its cache across runs.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT

TORCH_PIN = "torch==2.13.0"
# The interpreter of the fresh environment (tools/check_install_py312.sh sets it to a 3.12).
PYTHON = os.environ.get("GPU_ADVISOR_INSTALL_PYTHON") or sys.executable
COLAB_MARKER = "<!-- colab-cell"
README_URL = "git+https://github.com/OWNER/gpu-advisor"
INSTALL_TIMEOUT_S = 900


def run(
    cmd: list[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = INSTALL_TIMEOUT_S,
) -> subprocess.CompletedProcess[str]:
    """Run a command; fail the test with its output when it fails."""
    done = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(cmd)} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done


def readme_colab_cell(readme: Path) -> str:
    """The README's Colab cell: the ```python block after the `<!-- colab-cell` marker."""
    text = readme.read_text(encoding="utf-8")
    start = text.find(COLAB_MARKER)
    assert start >= 0, f"README.md has no {COLAB_MARKER!r} marker before its Colab cell"
    match = re.compile(r"```python\n(.*?)```", re.DOTALL).search(text, start)
    assert match, "no ```python block after the Colab marker in README.md"
    return match.group(1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_env(home: Path, venv: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of a user's process: no checkout on the path, offline, an empty home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPU_ADVISOR_", "PYTHON"))}
    # Empty, not absent: a kernel's environment is merged over the test process's own, and Python
    # ignores an empty PYTHONPATH (a checkout on it would be imported instead of the install).
    env.update({k: "" for k in os.environ if k.startswith("PYTHON")})
    env.pop("VIRTUAL_ENV", None)
    env.update(
        {
            "GPU_ADVISOR_HOME": str(home),
            "GPU_ADVISOR_LLM": "offline",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "GRADIO_ANALYTICS_ENABLED": "False",
            "ANONYMIZED_TELEMETRY": "False",
            "TOKENIZERS_PARALLELISM": "false",
            "PYTHONNOUSERSITE": "1",
        }
    )
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(venv)
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def install_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("install")


@pytest.fixture(scope="session")
def clone(install_root: Path) -> Path:
    """A clone of the repository at HEAD: the committed tree, as CI and a user get it."""
    target = install_root / "clone"
    head = run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT).stdout.strip()
    run(["git", "clone", "--quiet", "--no-checkout", str(REPO_ROOT), str(target)])
    run(["git", "checkout", "--quiet", head], cwd=target)
    return target


@pytest.fixture(scope="session")
def dists(clone: Path, install_root: Path) -> dict[str, Path]:
    """The sdist and the wheel built from the clone."""
    out = install_root / "dist"
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(clone)])
    wheel = next(out.glob("*.whl"))
    sdist = next(out.glob("*.tar.gz"))
    return {"wheel": wheel, "sdist": sdist}


@dataclass
class Colab:
    """The fresh environment after the README's Colab cell ran in its kernel."""

    venv: Path
    home: Path
    outside: Path
    torch_before: str
    torch_record_mtime: float
    cell_outputs: list[dict[str, Any]]
    chat_url: str
    install_s: float
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self, **extra: str) -> dict[str, str]:
        return clean_env(self.home, self.venv, **extra)

    def cli(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """`gpu-advisor ARGS` of the fresh environment, run from outside the checkout."""
        return subprocess.run(
            [str(self.venv / "bin" / "gpu-advisor"), *args],
            cwd=self.outside,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def _torch_state(python: Path, env: dict[str, str]) -> tuple[str, float]:
    code = (
        "import importlib.metadata as m, os, json;"
        "d = m.distribution('torch');"
        "record = next(f for f in d.files if f.name == 'RECORD');"
        "print(json.dumps([d.version, os.path.getmtime(d.locate_file(record))]))"
    )
    done = run([str(python), "-c", code], env=env)
    version, mtime = json.loads(done.stdout)
    return str(version), float(mtime)


def write_kernelspec(where: Path, python: Path, env: dict[str, str]) -> str:
    """A kernelspec running `python`'s ipykernel with `env`; returns its name."""
    spec = where / "kernels" / "fresh-install"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "fresh install",
                "language": "python",
                "env": env,
            }
        )
    )
    return "fresh-install"


@pytest.fixture(scope="session")
def colab(clone: Path, install_root: Path) -> Iterator[Colab]:
    """A fresh venv like Colab's, then the README's Colab cell run in its kernel. The kernel (and
    the chat the cell launched) stays up for the session."""
    import nbformat
    from nbclient import NotebookClient

    # Outside pytest's temporary folders, which pytest deletes (slowly, 1.5 GB) in later sessions.
    venv = Path(tempfile.mkdtemp(prefix="gpu-advisor-install-venv-"))
    home = install_root / "home"
    outside = install_root / "outside"
    outside.mkdir()
    base_env = clean_env(home)
    started = time.perf_counter()
    run([PYTHON, "-m", "venv", str(venv)], env=base_env)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    # What Colab has before the user's first cell: a recent pip, the CPU torch, a Jupyter kernel.
    run([*pip, "install", "--quiet", "--upgrade", "pip"], env=base_env)
    run([*pip, "install", "--quiet", TORCH_PIN, "ipykernel"], env=base_env)
    env = clean_env(home, venv, GPU_ADVISOR_CHAT_PORT=str(free_port()))
    torch_before, record_mtime = _torch_state(venv / "bin" / "python", env)

    cell = readme_colab_cell(clone / "README.md")
    assert cell.count(README_URL) == 1, f"the Colab cell should install from {README_URL}"
    cell = cell.replace(README_URL, f"git+file://{clone}")
    jupyter = install_root / "jupyter"
    kernel = write_kernelspec(jupyter, venv / "bin" / "python", env)
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "JUPYTER_RUNTIME_DIR")}
    os.environ["JUPYTER_PATH"] = str(jupyter)
    os.environ["JUPYTER_RUNTIME_DIR"] = str(install_root / "runtime")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    client = NotebookClient(
        nb,
        kernel_name=kernel,
        timeout=INSTALL_TIMEOUT_S,
        resources={"metadata": {"path": str(outside)}},
    )
    try:
        with client.setup_kernel():
            cell_started = time.perf_counter()
            client.execute_cell(nb.cells[0], 0)
            install_s = time.perf_counter() - cell_started
            outputs = list(nb.cells[0].outputs)
            printed = "\n".join(o.get("text", "") for o in outputs)
            assert "ERROR:" not in printed, f"pip failed in the Colab cell:\n{printed[-3000:]}"
            where = nbformat.v4.new_code_cell("import assistant; print(assistant.__file__)")
            nb.cells.append(where)
            client.execute_cell(where, 1)
            imported = "".join(o.get("text", "") for o in where.outputs).strip()
            assert Path(imported).is_relative_to(venv), f"the kernel imported {imported}"
            url = re.search(r"running at (http://\S+)", printed)
            assert url, f"the Colab cell launched no chat:\n{printed[-3000:]}"
            yield Colab(
                venv=venv,
                home=home,
                outside=outside,
                torch_before=torch_before,
                torch_record_mtime=record_mtime,
                cell_outputs=outputs,
                chat_url=url.group(1),
                install_s=install_s,
                timings={"setup_s": cell_started - started},
            )
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        # Deleting a venv of torch and gradio takes minutes on some disks: not the test's time.
        subprocess.run(["sh", "-c", 'rm -rf "$1" >/dev/null 2>&1 &', "sh", str(venv)], check=False)
