"""Every row of features.toml and topics.toml parses, is sourced, and names nothing twice."""

from __future__ import annotations

import re

from assistant.knowledge.features import known_ccs, load_features
from assistant.knowledge.topics import fold, load_topics

NVIDIA_DOC = re.compile(r"^https://(docs|developer)\.nvidia\.com/|^https://github\.com/NVIDIA/")


def test_feature_rows_parse_and_are_sourced() -> None:
    matrix = load_features()
    assert len(matrix.features) == 20
    assert len(matrix.limits) == 20  # 3.7 to 12.1, with the Jetsons TX2 (6.2) and Xavier (7.2)
    for row in [*matrix.features, *matrix.limits, *matrix.claims, *matrix.exceptions]:
        assert row.sources, row
        assert all(len(s.title) >= 3 for s in row.sources)


def test_every_feature_cites_an_nvidia_document() -> None:
    for feat in load_features().features:
        assert any(s.url and NVIDIA_DOC.match(s.url) for s in feat.sources), feat.key


def test_per_sm_limits_cite_nvidia() -> None:
    for lim in load_features().limits:
        assert any(s.url and NVIDIA_DOC.match(s.url) for s in lim.sources), lim.cc


def test_no_duplicate_keys() -> None:
    matrix = load_features()
    feature_keys = [f.key for f in matrix.features]
    assert len(feature_keys) == len(set(feature_keys))
    ccs = [lim.cc for lim in matrix.limits]
    assert len(ccs) == len(set(ccs))
    topic_keys = [t.key for t in load_topics()]
    assert len(topic_keys) == len(set(topic_keys))  # also: no topic reuses a feature key


def test_no_alias_names_two_things() -> None:
    owner: dict[str, str] = {}
    for topic in load_topics():
        for alias in {fold(a) for a in [topic.key.replace("_", " "), topic.name, *topic.aliases]}:
            assert owner.setdefault(alias, topic.key) == topic.key, (alias, owner[alias], topic.key)


def test_availability_names_only_known_ccs_once() -> None:
    known = set(known_ccs())
    for feat in load_features().features:
        assert set(feat.ccs) <= known, feat.key
        assert len(feat.ccs) == len(set(feat.ccs)), feat.key
        for entry in feat.availability:
            if entry.target:
                assert entry.target.startswith("sm_" + entry.cc.replace(".", "")), feat.key


def test_topics_and_claims_name_real_features() -> None:
    features = {f.key for f in load_features().features}
    for topic in load_topics():
        assert set(topic.feature_keys()) <= features, topic.key
    for claim in load_features().claims:
        assert set(claim.features) <= features, claim.key
        assert set(claim.applies_to_ccs) <= set(known_ccs()), claim.key
    for exc in load_features().exceptions:
        assert set(exc.absent) <= features, exc.key


def test_every_guide_part_has_a_topic() -> None:
    parts = sorted(t.part for t in load_topics() if t.part is not None)
    assert parts == list(range(1, 10))


def test_topics_cite_the_corpus_or_a_vendor() -> None:
    for topic in load_topics():
        titles = " ".join(s.title for s in topic.sources)
        assert "corpus" in titles or any(s.url for s in topic.sources), topic.key


def test_corpus_claims_record_the_5090_tcgen05_mistake() -> None:
    claims = {c.key: c for c in load_features().claims}
    rec = claims["rtx5090_tcgen05_tmem_recommendation"]
    assert rec.features == ["tcgen05", "tmem"]
    assert "Tensor Memory" in rec.claim
    assert rec.section == "1.4 L'achat — La recommandation"
    assert rec.applies_to_ccs == ["12.0", "12.1"]
