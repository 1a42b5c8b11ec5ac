"""A local OpenAI-compatible server for tests: canned `/v1/chat/completions` replies over real HTTP.

Each request takes the next scripted reply: a completion message (sent as JSON, or as server-sent
events when the client asks to stream), an HTTP error status, or a hang.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HANG = "hang"


def reply_text(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def reply_tool_call(
    name: str, arguments: dict[str, Any] | str, call_id: str = "call_1"
) -> dict[str, Any]:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}
        ],
    }


@dataclass
class StubOpenAI:
    """Scripted replies: a message dict, an int HTTP status, or HANG."""

    script: list[Any]
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> StubOpenAI:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(
                    self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}"
                )
                stub.requests.append(body)
                stub.headers.append({k.lower(): v for k, v in self.headers.items()})
                step = stub.script.pop(0) if stub.script else 500
                if step == HANG:
                    stub.release.wait(30)
                    return
                if isinstance(step, int):
                    self._send(step, {"error": {"message": "stub failure", "type": "server_error"}})
                elif body.get("stream"):
                    self._stream(step, body.get("model", "stub"))
                else:
                    self._send(200, _completion(step, body.get("model", "stub")))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, message: dict[str, Any], model: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in _chunks(message, model):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.release.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def _finish(message: dict[str, Any]) -> str:
    return "tool_calls" if message.get("tool_calls") else "stop"


def _completion(message: dict[str, Any], model: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish(message)}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunks(message: dict[str, Any], model: str) -> list[dict[str, Any]]:
    """The message as streamed deltas: text in two-word pieces, each tool call whole."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-stub",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    out = [chunk({"role": "assistant", "content": ""})]
    words = (message.get("content") or "").split(" ")
    if message.get("content"):
        for i in range(0, len(words), 2):
            piece = " ".join(words[i : i + 2]) + (" " if i + 2 < len(words) else "")
            out.append(chunk({"content": piece}))
    for index, call in enumerate(message.get("tool_calls") or []):
        out.append(chunk({"tool_calls": [{"index": index, **call}]}))
    out.append(chunk({}, _finish(message)))
    return out
