"""The offline backend on the golden set: every question answered right, in its language."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant import ask
from assistant.agent.offline.evaluation import format_failures, load_cases, run_cases, summarize

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "golden.yaml"
HELDOUT = Path(__file__).resolve().parents[1] / "golden" / "heldout.yaml"


def test_golden_set_is_large_bilingual_and_covers_every_kind() -> None:
    cases = load_cases(GOLDEN)
    assert len(cases) >= 70
    languages = {c.language for c in cases}
    assert languages == {"en", "fr"}
    assert sum(c.language == "fr" for c in cases) >= 25
    kinds = {c.category for c in cases}
    assert kinds >= {
        "capability", "costs", "budget", "fit", "probe", "recommend", "unknown", "off_topic",
        "injection", "follow_up", "corpus", "lookup", "compare",
    }  # fmt: skip
    assert all(c.must_contain for c in cases)


def test_heldout_questions_are_not_in_the_golden_set() -> None:
    golden = {c.question.lower() for c in load_cases(GOLDEN)}
    heldout = load_cases(HELDOUT)
    assert len(heldout) >= 25
    assert not golden & {c.question.lower() for c in heldout}


@pytest.mark.timeout(900)
def test_offline_backend_answers_the_whole_golden_set() -> None:
    results = run_cases(
        load_cases(GOLDEN), lambda q, history=None: ask(q, history=history, backend="offline")
    )
    report = summarize(results)
    assert report["overall"]["passed"] == report["overall"]["total"], (
        f"{report['overall']['passed']}/{report['overall']['total']} golden answers right:\n\n"
        + format_failures(results)
    )
