"""The graded question sets and their grades are well formed, and the scripts read them."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"


def _tool(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


GRADED_SETS = sorted(GOLDEN.glob("blind_*.yaml")) + sorted(GOLDEN.glob("real_questions*.yaml"))


def test_there_are_graded_sets() -> None:
    assert any(p.name.startswith("blind_") for p in GRADED_SETS)
    assert any(p.name.startswith("real_questions") for p in GRADED_SETS)


@pytest.mark.parametrize("path", GRADED_SETS, ids=lambda p: p.name)
def test_graded_set_items_have_what_a_grader_needs(path: Path) -> None:
    items = _tool("answer_batch").load_items(path)
    assert len(items) >= 40
    for item in items:
        # a blind batch is written in the two languages served; a real question is as it was asked
        language = str(item.get("language"))
        if path.name.startswith("blind_"):
            assert language in {"en", "fr"}, item["id"]
        else:
            assert re.fullmatch(r"[a-z]{2}", language), f"{item['id']}: {language!r} is no ISO code"
        assert item.get("key_facts"), f"{item['id']} has no key facts"
        if path.name.startswith("real_questions"):
            assert str(item.get("source", "")).startswith("http"), f"{item['id']} has no source"
    french = sum(1 for i in items if i["language"] == "fr")
    if path.name.startswith("blind_"):
        assert french >= len(items) * 0.4, "a blind batch is about half French"


def test_summary_counts_each_grade() -> None:
    summary = _tool("grade_summary").summarize(
        [
            {"id": "a", "grade": "good", "language": "en"},
            {"id": "b", "grade": "bad", "language": "fr", "cause": "x"},
            {"id": "c", "grade": "partial", "language": "fr", "cause": "y"},
            {"id": "d", "grade": "good", "language": "fr"},
        ]
    )
    assert (summary["good"], summary["partial"], summary["bad"]) == (2, 1, 1)
    assert summary["good_share"] == 50.0
    assert summary["by_language"] == {"en": {"good": 1}, "fr": {"bad": 1, "partial": 1, "good": 1}}


def test_a_record_carries_the_answer_and_its_evidence() -> None:
    from assistant.answer import Answer, Citation, ToolCall

    answer = Answer(
        question="q",
        text="Yes.",
        tool_calls=[ToolCall(name="gpu_lookup", arguments={"gpu": "T4"})],
        citations=[Citation(document="Doc", section="Sec", snippet="s")],
        elapsed_ms=12.345,
    )
    record = _tool("answer_batch").answer_record(
        {"id": "x", "question": "q", "language": "en", "key_facts": ["f"]}, answer
    )
    assert record["answer"] == "Yes."
    assert record["tools"] == [{"name": "gpu_lookup", "arguments": {"gpu": "T4"}}]
    assert record["citations"] == ["Doc · Sec"]
    assert record["key_facts"] == ["f"]
    assert record["elapsed_ms"] == 12.3


GRADE_FILES = sorted((GOLDEN / "grades").glob("*.yaml"))


def test_first_runs_are_graded() -> None:
    names = {p.name for p in GRADE_FILES}
    assert "real_questions-first-run.yaml" in names
    assert "blind_batch_4-first-run.yaml" in names


@pytest.mark.parametrize("path", GRADE_FILES, ids=lambda p: p.name)
def test_grade_files_cover_their_set(path: Path) -> None:
    summary_tool = _tool("grade_summary")
    grades = summary_tool.load_grades(path)
    set_name = path.stem.split("-")[0]
    items = _tool("answer_batch").load_items(GOLDEN / f"{set_name}.yaml")
    assert [g["id"] for g in grades] == [str(i["id"]) for i in items]
    for g in grades:
        if g["grade"] != "good":
            assert g.get("cause"), f"{g['id']}: a partial or bad grade says why"
    summary = summary_tool.summarize(grades)
    assert summary["good"] + summary["partial"] + summary["bad"] == len(items)


@pytest.mark.parametrize("path", GRADE_FILES, ids=lambda p: p.name)
def test_each_grade_has_the_answer_it_graded(path: Path) -> None:
    import json

    run = GOLDEN / "runs" / f"{path.stem}.jsonl"
    records = [json.loads(line) for line in run.read_text(encoding="utf-8").splitlines()]
    grades = _tool("grade_summary").load_grades(path)
    assert [r["id"] for r in records] == [g["id"] for g in grades]
    assert all(r["answer"] is not None for r in records)
