"""Report how questions relate to the knowledge entries, and which ones lead with an entry.

    python tools/calibrate_knowledge_lead.py            # similarity statistics + golden leads
    python tools/calibrate_knowledge_lead.py --graded   # also: graded questions' expected leads

Prints, with the search's embedding model (query vectors, cosine):
- same question: an entry's English title against its French title (a reworded question);
- different questions: each title or "asked" phrasing against the nearest one of another entry;
- the golden set's questions against their nearest title or phrasing, split into questions a tool
  answers and questions only the documents answer;
and the share of each group at or above a reference cosine (REPORT_AT, for reading only: the
choice itself is fitted, tools/fit_lead.py); then which golden questions
open with an entry (answered through `ask`, so every guard applies). With `--graded`, each question
of tests/golden/knowledge_leads.yaml (graded questions an existing entry answers) is answered
and its lead compared with the expected entries: right, wrong entry, or no lead.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for _path in (REPO, REPO / "tools"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

EXPECTED = REPO / "tests" / "golden" / "knowledge_leads.yaml"
from answer_batch import history_of  # noqa: E402  (a set item's earlier turns)
from fit_lead import labelled_set  # noqa: E402  (the labelled sets, shared with the fit)

REPORT_AT = 0.92
# The note under an entry that opens an answer (a knowledge lead, or an entry chosen when every
# tool was called on a guess).
_NOTE = re.compile(
    r"<sub>(?:Knowledge base ?:|Base de connaissances ?:|From the knowledge entry|D'après la fiche)"
    r" \*(?P<title>[^*]+)\*"
)


def _summary(name: str, values: list[float], threshold: float) -> str:
    import numpy as np

    if not values:
        return f"{name}: none"
    p = np.percentile(values, [5, 25, 50, 75, 95])
    above = sum(v >= threshold for v in values) / len(values)
    return (
        f"{name} (n={len(values)}): p5 {p[0]:.3f} · p25 {p[1]:.3f} · median {p[2]:.3f} · "
        f"p75 {p[3]:.3f} · p95 {p[4]:.3f} · at/above it {above:.0%}"
    )


def lead_of(text: str) -> str | None:
    """The id of the entry an answer opens with (from its knowledge-base note), or None."""
    from assistant.knowledge.entries import load_entries

    found = _NOTE.search("\n\n".join(text.split("\n\n")[:3]))
    if not found:
        return None
    title = found.group("title")
    return next((e.id for e in load_entries() if e.title == title), None)


def similarity_report(threshold: float) -> None:
    import numpy as np
    import yaml

    from assistant.agent.offline.lead_match import entry_vectors, title_scores
    from assistant.knowledge.entries import load_entries
    from assistant.retrieval.embeddings import model_key

    entries = load_entries()
    ids, matrix = entry_vectors(model_key())
    rows: dict[str, dict[str, int]] = {}
    for i, entry in enumerate(entries):  # the titles come first, one row per entry
        rows.setdefault(entry.id, {})[entry.language] = i
    same = [float(matrix[r["en"]] @ matrix[r["fr"]]) for r in rows.values() if len(r) == 2]
    sims = matrix @ matrix.T
    id_array = np.array(ids)
    other = [float(sims[i][id_array != ids[i]].max()) for i in range(len(ids))]
    cases = yaml.safe_load((REPO / "tests" / "golden" / "golden.yaml").read_text("utf-8"))
    tool, documents = [], []
    for case in cases:
        ranked = title_scores(case["question"])
        if ranked:
            (tool if case.get("tools") else documents).append(ranked[0][1])
    print(f"model {model_key()} · reference cosine {threshold} · {len(ids)} titles and phrasings")
    print(_summary("same question, other language", same, threshold))
    print(_summary("nearest other entry's title or phrasing", other, threshold))
    print(_summary("golden questions a tool answers", tool, threshold))
    print(_summary("golden questions the documents answer", documents, threshold))


def golden_leads() -> list[str]:
    import yaml

    from assistant import ask

    cases = yaml.safe_load((REPO / "tests" / "golden" / "golden.yaml").read_text("utf-8"))
    fired = []
    for case in cases:
        lead = lead_of(ask(case["question"], history=history_of(case)).text)
        if lead is not None:
            fired.append(f"  {case['id']} -> {lead}")
    print(f"golden questions that lead with an entry: {len(fired)}/{len(cases)}")
    return fired


def graded_leads() -> dict[str, int]:
    """Answer each graded question that has an expected entry; print and count the outcomes."""
    import yaml

    from assistant import ask
    from assistant.agent.offline.lead_match import title_scores

    expected: dict[str, dict[str, list[str]]] = yaml.safe_load(EXPECTED.read_text("utf-8"))
    counts = {"right": 0, "wrong": 0, "none": 0}
    for set_name, wanted in expected.items():
        for item in (i for i in labelled_set(set_name) if i["id"] in wanted):
            answer = ask(item["question"], history=history_of(item))
            lead = lead_of(answer.text)
            expected = wanted[item["id"]]
            if not expected:  # no entry should lead
                outcome = "right" if lead is None else "wrong"
            else:
                outcome = "right" if lead in expected else "none" if lead is None else "wrong"
            counts[outcome] += 1
            scores = dict(title_scores(item["question"]))
            best = max((scores.get(e, 0.0) for e in expected), default=0.0)
            print(f"  {outcome:5} {item['id']:7} lead={lead} · expected best {best:.3f}")
    total = sum(counts.values())
    print(
        f"graded questions with the right entry as lead: {counts['right']}/{total} " + str(counts)
    )
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graded", action="store_true", help="also the graded questions")
    args = parser.parse_args(argv)
    similarity_report(REPORT_AT)
    print("\n".join(golden_leads()))
    if args.graded:
        graded_leads()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
