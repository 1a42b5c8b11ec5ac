"""Cards today's CUDA left behind (Fermi, Kepler) and drivers older than a toolkit: the releases
that still build for the card and the driver each release needs, from NVIDIA's tables; a failure
report on such a card is answered with them first."""

from __future__ import annotations

from assistant.agent.offline.concepts import concepts_in
from assistant.agent.offline.planner import tool_calls_for
from assistant.agent.offline.reading import Conversation, read_turn
from assistant.knowledge.cuda_support import get_toolkit
from assistant.tools.software import SoftwareSupportQuery, software_support


def check(gpu: str, software: str):
    return software_support(SoftwareSupportQuery(gpu=gpu, software=software))


def test_cuda_without_a_version_means_todays_toolkits() -> None:
    kepler = check("GeForce GTX 760", "does it still support CUDA")
    assert kepler.supported == "no" and kepler.last == "CUDA 10.2"
    assert "R470" in kepler.reason
    assert check("GeForce RTX 4090", "CUDA").supported == "yes"


def test_fermi_cards_stop_at_cuda_8() -> None:
    fermi = check("Quadro 2000", "CUDA")
    assert fermi.compute_capability == "2.1" and fermi.supported == "no"
    assert fermi.last == "CUDA 8.0" and "R390" in fermi.reason


def test_drivers_before_cuda_11_have_no_minor_version_compatibility() -> None:
    assert get_toolkit("10.1").driver_linux == "418.39"  # type: ignore[union-attr]
    assert get_toolkit("10.1").minor_compat_linux is None  # type: ignore[union-attr]
    # any 11.x program starts on a 450.80.02+ driver
    assert check("GeForce RTX 3060", "CUDA 11.6 with driver 460.32").supported == "yes"
    old = check("GeForce RTX 2080 Ti", "CUDA 10.1 with driver 410.48")
    assert old.supported == "no" and old.driver_linux == "418.39"
    assert "minor-version" not in old.reason


def test_a_failure_on_a_retired_card_asks_which_releases_still_build_for_it() -> None:
    reading = read_turn(
        Conversation(
            "I'm trying to run Rigel on 2 SLI GTX 760 and I'm getting the error "
            "'GPU#0 error: CUDA error: architecture (30) is not supported'"
        )
    )
    calls = tool_calls_for(reading)
    assert calls and calls[0].name == "software_support"
    assert not any(c.name == "gpu_lookup" for c in calls)


def test_chinese_reports_are_read_without_spaces() -> None:
    assert "not_detected" in concepts_in("我的显卡是gtx660，现在无法使用GPU加速。")
    assert "support" in concepts_in("是否考虑新增其他显卡支持？")


def test_a_feature_or_a_recent_card_keeps_its_own_check() -> None:
    feature = tool_calls_for(read_turn(Conversation("Does flash attention support my Tesla M40?")))
    assert feature and feature[0].name in ("gpu_capability", "software_support")
    if feature[0].name == "software_support":  # the program's own check, not the toolkit range
        program = check("Tesla M40", str(feature[0].args["software"]))
        assert program.kind == "program" and program.supported == "no"
    # a Pascal card still runs current frameworks' CUDA 12 builds: no "too old" answer first
    pascal = tool_calls_for(read_turn(Conversation("My Tesla P40 is not detected by PyTorch")))
    assert not pascal or pascal[0].name != "software_support"


def test_which_cuda_for_a_retired_card_is_its_range_of_toolkits() -> None:
    for question in (
        "which CUDA version for a GT 650M?",
        "Quelle version de CUDA pour ma GT 650M ?",
    ):
        kepler = check("GeForce GT 650M", question)
        assert kepler.supported == "unknown", question
        assert (kepler.minimum, kepler.last) == ("CUDA 4.1", "CUDA 10.2")


def test_pytorch_on_a_card_no_buildable_toolkit_reaches_says_so() -> None:
    # Fermi's last toolkit (CUDA 8.0) is older than any toolkit PyTorch 2.x builds with: no
    # source build helps; a Kepler 3.5 card can still be built for with CUDA 11.x
    fermi = check("GeForce GTX 480", "PyTorch")
    assert fermi.supported == "no"
    assert "from source" in (fermi.fix or "") and "No PyTorch 2.x build" in (fermi.fix or "")
    kepler = check("GeForce GTX 780", "PyTorch")
    assert kepler.supported == "no" and "TORCH_CUDA_ARCH_LIST=3.5" in (kepler.fix or "")


def test_no_toolkit_range_when_no_software_is_named() -> None:
    from assistant.tools.software import names_software

    assert names_software("does CUDA 12.4 support it?")
    assert names_software("will PyTorch run on it")
    assert names_software("is it compatible with Ollama?")
    assert not names_software("GPU is not used, nvidia-smi shows 1.3 GB used, is it a bug?")
    reading = read_turn(
        Conversation(
            "GeForce GT 630M with 2 GB: processing takes 90 minutes and the GPU is not busy"
        )
    )
    assert not any(c.name == "software_support" for c in tool_calls_for(reading))
