"""`gpu-advisor chat` and `gpu-advisor discord` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

import pytest

from assistant.cli import main
from tests.ui.conftest import free_port

CLI = "import sys; from assistant.cli import main; sys.exit(main(sys.argv[1:]))"


def test_help_explains_both_commands(capsys):
    for command in ("chat", "discord"):
        with pytest.raises(SystemExit) as exit_info:
            main([command, "--help"])
        assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--share" in out and "api_name='/chat'" in out
    assert "GPU_ADVISOR_DISCORD_TOKEN" in out and "continues the conversation" in out


def test_bad_port_and_missing_token_exit_2_with_a_message(capsys, monkeypatch):
    assert main(["chat", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535, not 70000" in capsys.readouterr().err
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["discord", "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"].startswith(
        "no Discord bot token: set GPU_ADVISOR_DISCORD_TOKEN"
    )
    assert main(["chat", "--backend", "nonsense:x"]) == 2


@pytest.mark.slow
def test_chat_json_prints_the_url_once_the_page_is_up():
    port = free_port()
    with subprocess.Popen(
        [sys.executable, "-c", CLI, "chat", "--port", str(port), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            record = json.loads(line)
            assert record["url"] == f"http://127.0.0.1:{port}/"
            assert record["share_url"] is None
            with urllib.request.urlopen(record["url"], timeout=30) as response:
                assert response.status == 200
                assert b"<!doctype html>" in response.read(200).lower()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
