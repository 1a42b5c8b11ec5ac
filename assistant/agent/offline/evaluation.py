"""Answer-quality evaluation over a question set (the golden set, the held-out set).

A case lists the question (and history), its language, the tools its answer must rest on, and
facts: regular expressions (case-insensitive) the answer must contain and must not contain.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from assistant.answer import Answer

# Facts about the corpus answer every factual case needs: a tool result or a citation.
NON_FACTUAL = {"off_topic", "injection", "greeting"}


class Case(BaseModel):
    id: str
    category: str
    language: str
    question: str
    history: list[dict[str, str]] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list, description="Tools that must be called")
    must_contain: list[str] = Field(default_factory=list)
    must_not_contain: list[str] = Field(default_factory=list)


class CaseResult(BaseModel):
    id: str
    category: str
    language: str
    passed: bool
    failures: list[str]
    tools_called: list[str]
    elapsed_ms: float
    answer: str


def load_cases(path: Path) -> list[Case]:
    """The cases of a YAML file (a list of mappings)."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cases = [Case.model_validate(item) for item in data]
    ids = [c.id for c in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"duplicate case ids in {path}: {sorted(duplicates)}")
    return cases


def check_answer(case: Case, answer: Answer) -> list[str]:
    """Every way the answer fails the case (empty when it passes)."""
    failures = []
    text = answer.text
    for pattern in case.must_contain:
        if not re.search(pattern, text, re.IGNORECASE):
            failures.append(f"missing /{pattern}/")
    for pattern in case.must_not_contain:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            failures.append(f"forbidden /{pattern}/ found: {match.group(0)!r}")
    called = [call.name for call in answer.tool_calls]
    for tool in case.tools:
        if tool not in called:
            failures.append(f"tool {tool} not called (called: {called})")
    if answer.language != case.language:
        failures.append(f"language {answer.language} instead of {case.language}")
    factual = case.category not in NON_FACTUAL
    has_evidence = any(
        c.error is None and c.name != "search_corpus" for c in answer.tool_calls
    ) or bool(answer.citations)
    if factual and not has_evidence:
        failures.append("factual answer without a tool result or a citation")
    return failures


def run_cases(cases: list[Case], ask: Callable[..., Answer]) -> list[CaseResult]:
    """Ask each case's question and check its answer: one result per case, in order."""
    results = []
    for case in cases:
        answer = ask(case.question, history=case.history or None)
        failures = check_answer(case, answer)
        results.append(
            CaseResult(
                id=case.id,
                category=case.category,
                language=case.language,
                passed=not failures,
                failures=failures,
                tools_called=[c.name for c in answer.tool_calls],
                elapsed_ms=answer.elapsed_ms,
                answer=answer.text,
            )
        )
    return results


def summarize(results: list[CaseResult]) -> dict[str, Any]:
    """Score overall, per category and per language."""

    def score(items: list[CaseResult]) -> dict[str, Any]:
        """Passed, total and their ratio for these results."""
        passed = sum(r.passed for r in items)
        return {
            "passed": passed,
            "total": len(items),
            "score": round(passed / len(items), 4) if items else 0.0,
        }

    by_category: dict[str, list[CaseResult]] = defaultdict(list)
    by_language: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_category[r.category].append(r)
        by_language[r.language].append(r)
    latencies = sorted(r.elapsed_ms for r in results)
    return {
        "overall": score(results),
        "by_category": {k: score(v) for k, v in sorted(by_category.items())},
        "by_language": {k: score(v) for k, v in sorted(by_language.items())},
        "latency_ms": {
            "p50": latencies[len(latencies) // 2] if latencies else None,
            "p95": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
            if latencies
            else None,
        },
        "failures": [{"id": r.id, "failures": r.failures} for r in results if not r.passed],
    }


def format_failures(results: list[CaseResult], limit: int = 600) -> str:
    """A readable report of the failing cases, with their answers."""
    blocks = []
    for r in results:
        if r.passed:
            continue
        answer = r.answer if len(r.answer) <= limit else r.answer[:limit] + "…"
        blocks.append(
            f"[{r.id}] ({r.category}, {r.language}) tools={r.tools_called}\n  - "
            + "\n  - ".join(r.failures)
            + f"\n  answer: {answer}"
        )
    return "\n\n".join(blocks)
