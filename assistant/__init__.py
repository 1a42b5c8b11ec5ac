"""gpu-advisor: which GPU? Answers with evidence.

    import assistant
    answer = assistant.ask("Can an RTX 3060 run FP8?")
    print(answer.text)

The names below are loaded on first use, so `import assistant` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.agent.api import ask, ask_stream
    from assistant.answer import Answer, StreamEvent
    from assistant.tools.probe import ProbeReport

__all__ = ["Answer", "StreamEvent", "ask", "ask_stream", "launch", "probe"]

_LAZY = {
    "ask": ("assistant.agent.api", "ask"),
    "ask_stream": ("assistant.agent.api", "ask_stream"),
    "Answer": ("assistant.answer", "Answer"),
    "StreamEvent": ("assistant.answer", "StreamEvent"),
}


def probe() -> ProbeReport:
    """Look at this machine's GPUs (NVML, then nvidia-smi); never raises when there are none."""
    from assistant.tools.probe import probe_local_gpus

    return probe_local_gpus(None)


def launch(**kwargs: Any) -> Any:
    """Start the chat page (Gradio); in a notebook it shows inline."""
    from assistant.ui.gradio_app import launch as launch_chat

    return launch_chat(**kwargs)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'assistant' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
