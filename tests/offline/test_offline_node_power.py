"""Servers as people name them: 'an 8-GPU H200 node', 'we plan 4 nodes', and what each draws."""

from __future__ import annotations

from assistant import ask
from assistant.agent.offline.entities import extract_entities
from assistant.agent.offline.planner import plan_tool_calls
from assistant.agent.offline.reading import Conversation

NODES = (
    "Rack/power budget: what does an 8-GPU H200 node draw vs an 8x MI300X node, and yearly "
    "electricity at 0,12 EUR/kWh with PUE 1.4? we plan 4 nodes"
)


def test_a_count_joined_to_gpu_by_a_hyphen_counts_the_card() -> None:
    ent = extract_entities("what does an 8-GPU H200 node draw?")
    assert ent.gpu_counts == {"H200 SXM 141GB": 8}
    assert extract_entities("an 8-way H100 box").gpu_counts == {"H100 SXM5 80GB": 8}
    assert extract_entities("8 GPUs in the lab").gpu_counts == {}


def test_a_card_named_with_one_node_is_counted_per_node() -> None:
    ent = extract_entities(NODES)
    assert ent.machines == 4 and ent.counts_per_machine
    # a machine count with the cards named elsewhere is not per machine
    other = extract_entities("We have 4 nodes. The cards are 8x H100 in total.")
    assert not other.counts_per_machine


def test_draws_compared_lead_with_the_electricity_of_every_node() -> None:
    calls = plan_tool_calls(Conversation(NODES), set())
    power = [c for c in calls if c.name == "power_cost"]
    assert calls[0].name == "power_cost" and len(power) == 2
    assert {c.args["gpu_count"] for c in power} == {32}
    first = ask(NODES).text.split("\n\n")[0]
    assert "32 × H200 SXM 141GB (40,800 W)" in first and "a year" in first
    # specs asked of the same two cards still lead with the comparison
    specs = plan_tool_calls(Conversation("H200 vs MI300X: which has more memory?"), set())
    assert specs[0].name == "gpu_compare"
