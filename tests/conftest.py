"""Test-wide guards: offline, no telemetry, an isolated home, and no traffic beyond loopback."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest

os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ["ANONYMIZED_TELEMETRY"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"
os.environ["GPU_ADVISOR_LLM"] = "offline"
for _name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OLLAMA_HOST", "GPU_ADVISOR_DISCORD_TOKEN"):
    os.environ.pop(_name, None)

REPO_ROOT = Path(__file__).resolve().parent.parent

_real_connect = socket.socket.connect


def _loopback_only_connect(self: socket.socket, address: object) -> object:
    """Tests may talk to servers they start on this machine, never to the outside world."""
    if isinstance(address, tuple) and address and isinstance(address[0], str):
        host = address[0]
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            ip = None if host != "localhost" else ipaddress.ip_address("127.0.0.1")
        if ip is None or not ip.is_loopback:
            raise OSError(f"test tried to reach {host}: only loopback is allowed in tests")
    return _real_connect(self, address)  # type: ignore[arg-type]


socket.socket.connect = _loopback_only_connect  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def session_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A gpu-advisor home (index, locks) shared by the whole session."""
    home = tmp_path_factory.mktemp("gpu-advisor-home")
    os.environ["GPU_ADVISOR_HOME"] = str(home)
    from assistant.settings import reset_settings

    reset_settings()
    return home


@pytest.fixture(autouse=True)
def _fresh_settings(session_home: Path):
    """Each test sees settings read from its (possibly monkeypatched) environment."""
    from assistant.settings import reset_settings

    reset_settings()
    yield
    reset_settings()


@pytest.fixture(scope="session")
def built_index(session_home: Path) -> Path:
    """The corpus index (default embedding model) built once per session in `session_home`."""
    from assistant.retrieval import build_index, reset_retriever
    from assistant.settings import reset_settings

    reset_settings()
    reset_retriever()
    build_index(progress=False)
    return session_home / "index"
