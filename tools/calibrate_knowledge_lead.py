"""Measure where the knowledge-lead threshold should sit (assistant/agent/offline/knowledge_lead.toml).

    python tools/calibrate_knowledge_lead.py

Prints, with the search's embedding model (query vectors, cosine):
- same question: an entry's English title against its French title (a reworded question);
- different questions: each title against the nearest title of another entry;
- the golden set's questions against their nearest title, split into questions a tool answers
  and questions only the documents answer;
and the share of each group at or above the configured threshold.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def _summary(name: str, values: list[float], threshold: float) -> str:
    import numpy as np

    if not values:
        return f"{name}: none"
    p = np.percentile(values, [5, 25, 50, 75, 95])
    above = sum(v >= threshold for v in values) / len(values)
    return (
        f"{name} (n={len(values)}): p5 {p[0]:.3f} · p25 {p[1]:.3f} · median {p[2]:.3f} · "
        f"p75 {p[3]:.3f} · p95 {p[4]:.3f} · at/above threshold {above:.0%}"
    )


def main() -> int:
    import numpy as np
    import yaml

    from assistant.agent.offline.knowledge_lead import _titles, settings, title_scores
    from assistant.knowledge.entries import load_entries
    from assistant.retrieval.embeddings import model_key

    threshold = settings().min_similarity
    entries = load_entries()
    ids, matrix = _titles(model_key())
    rows: dict[str, dict[str, int]] = {}
    for i, entry in enumerate(entries):
        rows.setdefault(entry.id, {})[entry.language] = i
    same = [float(matrix[r["en"]] @ matrix[r["fr"]]) for r in rows.values() if len(r) == 2]
    sims = matrix @ matrix.T
    other = []
    for i in range(len(ids)):
        mask = np.array([ids[j] != ids[i] for j in range(len(ids))])
        other.append(float(sims[i][mask].max()))
    cases = yaml.safe_load((REPO / "tests" / "golden" / "golden.yaml").read_text("utf-8"))
    tool, documents = [], []
    for case in cases:
        ranked = title_scores(case["question"])
        if ranked:
            (tool if case.get("tools") else documents).append(ranked[0][1])
    from assistant.agent.corpus_tool import CorpusQuery, search_corpus
    from assistant.agent.offline.knowledge_lead import find_lead
    from assistant.agent.offline.planner import plan_tool_calls
    from assistant.agent.offline.reading import Conversation, read_turn

    fired = []
    for case in cases:
        conversation = Conversation(case["question"])
        reading = read_turn(conversation)
        found: list[str | None] = []
        for call in plan_tool_calls(conversation, set()):
            if call.name == "search_corpus":
                result = search_corpus(CorpusQuery(**call.args))
                found += [
                    p.chunk_id.split(":")[1] if p.chunk_id.startswith("knowledge-") else None
                    for p in result.passages
                ]
        lead = find_lead(reading, found)
        if lead is not None:
            fired.append(f"  {case['id']} -> {lead.entry.id} ({lead.score:.3f})")
    print(f"model {model_key()} · threshold {threshold}")
    print(_summary("same question, other language", same, threshold))
    print(_summary("nearest other entry's title", other, threshold))
    print(_summary("golden questions a tool answers", tool, threshold))
    print(_summary("golden questions the documents answer", documents, threshold))
    print(f"golden questions that lead with an entry (guards included): {len(fired)}/{len(cases)}")
    print("\n".join(fired))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
