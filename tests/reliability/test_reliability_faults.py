"""Issue 6 §2 at the outer edges: the index breaks under a running process, two processes index at
once, a corpus file goes away, the GPU tools misbehave — and the answers keep coming, with the
same tool figures, and nothing in the corpus is lost."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import assistant
from tests.reliability.conftest import COST_QUESTION, TmpHome, run_cli, subprocess_env, tree_digest

pytestmark = pytest.mark.slow  # the real embedding model, Chroma on disk and the offline backend

EXTRA_DOC = """---
title: "Fiche H100"
language: fr
---

# Fiche H100 louée

La H100 louée à l'heure chez un hébergeur coûte environ trois dollars de l'heure en 2026.
Le zeppelin-quartz est le nom de code de cette fiche de test.
"""


def _calls(answer: Any) -> dict[str, Any]:
    return {c.name: c for c in answer.tool_calls}


def _disk_count(home: TmpHome) -> int:
    """How many chunks the on-disk index holds, read by a client that shares nothing with ours."""
    code = (
        "import sys, chromadb\n"
        "from chromadb.config import Settings\n"
        "c = chromadb.PersistentClient(path=sys.argv[1], settings=Settings(anonymized_telemetry=False))\n"
        "print(c.get_collection('gpu-advisor').count())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(home.chroma)],
        capture_output=True,
        text=True,
        timeout=120,
        env=subprocess_env(),
        check=True,
    )
    return int(out.stdout.strip())


def _expected_chunks() -> int:
    from assistant.retrieval.chunking import chunk_corpus
    from assistant.retrieval.corpus import load_corpus
    from assistant.settings import get_settings

    return len(chunk_corpus(load_corpus(get_settings().resolved_corpus_dir())))


def _assert_same_cost_answer(answer: Any, reference: Any) -> None:
    """The tool figures did not move, whatever happened to the index."""
    assert _calls(answer)["rent_cost"].result == _calls(reference)["rent_cost"].result
    assert answer.backend == "offline"
    assert "H100" in answer.text


def _make_read_only(folder: Path) -> bool:
    """Make `folder` unwritable, even for root (immutable bit); False when that is not possible."""
    subprocess.run(["chmod", "-R", "a-w", str(folder)], check=True)
    if os.geteuid() == 0 and shutil.which("chattr"):
        subprocess.run(["chattr", "-R", "+i", str(folder)], capture_output=True, check=False)
    try:
        (folder / "probe-write").write_text("x")
    except OSError:
        return True
    (folder / "probe-write").unlink()
    return False


def _make_writable(folder: Path) -> None:
    if os.geteuid() == 0 and shutil.which("chattr"):
        subprocess.run(["chattr", "-R", "-i", str(folder)], capture_output=True, check=False)
    subprocess.run(["chmod", "-R", "u+w", str(folder)], check=True)


def test_index_deleted_mid_run_answers_continue_and_a_rebuild_restores_it(
    guide_home: TmpHome,
) -> None:
    from assistant.retrieval import build_index

    corpus = tree_digest(guide_home.corpus)
    first = assistant.ask(COST_QUESTION)
    assert _calls(first)["search_corpus"].result["passages"]
    chunks = _expected_chunks()

    shutil.rmtree(guide_home.chroma)
    during = assistant.ask(COST_QUESTION)
    _assert_same_cost_answer(during, first)
    assert _calls(during)["search_corpus"].error is None

    report = build_index(progress=False)
    assert report.chunks == chunks
    assert _disk_count(guide_home) == chunks
    after = assistant.ask(COST_QUESTION)
    assert after.text == first.text
    assert tree_digest(guide_home.corpus) == corpus


def test_index_corrupted_mid_run_is_set_aside_and_rebuilt(guide_home: TmpHome) -> None:
    from assistant.retrieval import build_index

    corpus = tree_digest(guide_home.corpus)
    first = assistant.ask(COST_QUESTION)
    chunks = _expected_chunks()

    for path in guide_home.chroma.rglob("*"):
        if path.is_file():
            path.write_bytes(b"\x00garbage, not a database\xff" * 64)
    during = assistant.ask(COST_QUESTION)
    _assert_same_cost_answer(during, first)

    report = build_index(progress=False)
    assert report.chunks == chunks
    assert _disk_count(guide_home) == chunks
    assert assistant.ask(COST_QUESTION).text == first.text
    assert tree_digest(guide_home.corpus) == corpus


def test_index_made_read_only_mid_run_gives_a_clear_error_then_recovers(
    guide_home: TmpHome,
) -> None:
    corpus_before = tree_digest(guide_home.corpus)
    first = assistant.ask(COST_QUESTION)
    chunks = _expected_chunks()
    try:
        if not _make_read_only(guide_home.chroma):
            pytest.skip("this user can write to a read-only folder and cannot set it immutable")
        reading = assistant.ask(COST_QUESTION)  # reading a read-only index still works
        _assert_same_cost_answer(reading, first)
        assert _calls(reading)["search_corpus"].result["passages"]

        # a new corpus file now needs a write the index cannot take
        (guide_home.corpus / "fiche-h100.md").write_text(EXTRA_DOC, encoding="utf-8")
        blocked = assistant.ask(COST_QUESTION)
        _assert_same_cost_answer(blocked, first)
        search = _calls(blocked)["search_corpus"]
        if search.error is not None:  # a clear error, not a traceback
            assert search.error.startswith("search_corpus failed (IndexUnavailable): the index at ")
            assert "Traceback" not in search.error
    finally:
        _make_writable(guide_home.chroma)

    recovered = assistant.ask(COST_QUESTION)
    _assert_same_cost_answer(recovered, first)
    assert _calls(recovered)["search_corpus"].error is None
    from assistant.retrieval import search as search_corpus

    assert search_corpus("zeppelin-quartz fiche H100", k=3)[0].document == "fiche-h100"
    assert _disk_count(guide_home) > chunks
    corpus_after = tree_digest(guide_home.corpus)
    del corpus_after["fiche-h100.md"]
    assert corpus_after == corpus_before


def test_two_processes_indexing_at_once_leave_one_consistent_index(guide_home: TmpHome) -> None:
    chunks = _expected_chunks()
    command = [*_cli(), "index", "--json"]
    env = subprocess_env(**guide_home.env())
    procs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for _ in range(2)
    ]
    results = [p.communicate(timeout=280) for p in procs]
    for proc, (_, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err.decode()[-2000:]
        assert b"Traceback" not in err
    reports = [json.loads(out) for out, _ in results]
    assert [r["chunks"] for r in reports] == [chunks, chunks]
    # the lock serialises them: one embeds everything, the other finds it done
    assert sorted(r["embedded"] for r in reports) == [0, chunks]
    assert sorted(r["skipped"] for r in reports) == [0, chunks]
    assert _disk_count(guide_home) == chunks


def _cli() -> list[str]:
    from tests.reliability.conftest import cli_command

    return cli_command()


def test_a_removed_corpus_file_loses_its_chunks_after_reindex(guide_home: TmpHome) -> None:
    from assistant.retrieval import search

    extra = guide_home.corpus / "fiche-h100.md"
    extra.write_text(EXTRA_DOC, encoding="utf-8")
    assert search("zeppelin-quartz fiche H100", k=3)[0].document == "fiche-h100"
    with_extra = _disk_count(guide_home)

    extra.unlink()
    # the running process notices on its next search, without a restart
    assert all(h.document != "fiche-h100" for h in search("zeppelin-quartz fiche H100", k=10))
    answer = assistant.ask("Combien coûte une H100 louée à l'heure ? zeppelin-quartz")
    for call in answer.tool_calls:
        if call.name == "search_corpus":
            assert all(p["document"] != "fiche-h100" for p in call.result["passages"])
    assert all(c.document != "Fiche H100" for c in answer.citations)
    assert _disk_count(guide_home) == _expected_chunks() < with_extra

    # and the index command agrees there is nothing left to remove
    done = run_cli(["index", "--json"], **guide_home.env())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    report = json.loads(done.stdout)
    assert report["removed"] == 0 and report["embedded"] == 0
    assert report["documents"] == 1 and report["chunks"] == _expected_chunks()


FAKE_SMI = {
    "missing": None,
    "hanging": "sleep 60\n",
    "garbage": "printf '\\377\\376 NVIDIA-SMI has failed %%s ¯\\\\_(ツ)_/¯\\n,,,;;;\\n'; exit 0\n",
}
SMI_DETAIL = {
    "missing": "nvidia-smi not found on PATH",
    "hanging": "nvidia-smi gave no answer within 1 s; stopped it",
}


@pytest.mark.parametrize("fault", list(FAKE_SMI))
def test_a_broken_nvidia_smi_still_gets_an_answer_about_this_machine(
    fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.probe.probe_fakes import make_fake_nvml

    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        pytest.skip("a real GPU answers through torch here")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    body = FAKE_SMI[fault]
    if body is not None:
        script = bin_dir / "nvidia-smi"
        script.write_text("#!/bin/sh\n" + body)
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("GPU_ADVISOR_PROBE_TIMEOUT_S", "1")
    monkeypatch.setitem(sys.modules, "pynvml", make_fake_nvml([], init_error="Driver Not Loaded"))
    from assistant.tools.probe import nvidia

    monkeypatch.setattr(nvidia, "_nvml_wedged", False)

    answer = assistant.ask("What GPU do I have?")  # a hang would trip the test timeout

    probe = _calls(answer)["probe_gpus"]
    assert probe.error is None
    assert probe.result["available"] is False and probe.result["gpus"] == []
    attempts = {a["method"]: a for a in probe.result["attempts"]}
    assert attempts["nvidia-smi"]["ok"] is False
    if fault in SMI_DETAIL:
        assert attempts["nvidia-smi"]["detail"] == SMI_DETAIL[fault]
    else:
        assert attempts["nvidia-smi"]["detail"]
    assert answer.text.startswith("**No GPU found** on this machine")
    # and the process keeps serving
    assert _calls(assistant.ask(COST_QUESTION))["rent_cost"].error is None
