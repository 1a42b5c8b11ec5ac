"""Language detection on short and long questions, English and French."""

from __future__ import annotations

import pytest

from assistant.language import detect_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("et en location ?", "fr"),
        ("and the 3090?", "en"),
        ("Can my RTX 4090 do megakernels?", "en"),
        ("Ma RTX 4090 peut-elle faire des megakernels ?", "fr"),
        ("combien coûte une H100 pendant 100 heures", "fr"),
        ("spot ou dédiée ?", "fr"),
        ("what about renting?", "en"),
        ("J'ai 200 € pour apprendre", "fr"),
        ("I have 200 € to learn", "en"),
        ("Bonjour", "fr"),
        ("hello", "en"),
        ("la 3090 ?", "fr"),
        ("Quelle carte pour la partie 4 ?", "fr"),
        ("Is the 5090 a good learning card", "en"),
        (
            "Le lancement prend 5 µs par noyau, et 14 noyaux dans un créneau de 500 µs : trop ?",
            "fr",
        ),
        ("Each launch costs 5 µs, and 14 of them fit a 500 µs slot: too many?", "en"),
    ],
)
def test_detect_language(text: str, expected: str) -> None:
    assert detect_language(text) == expected


def test_no_cue_falls_back_to_the_default() -> None:
    assert detect_language("RTX 4090?") == "en"
    assert detect_language("RTX 4090?", default="fr") == "fr"


def test_words_shared_by_both_languages_are_not_french_cues() -> None:
    assert detect_language("Is wgmma usable on an H100?") == "en"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "LoRA sur un 7B avec ma RTX 3090 et j'ai : torch.OutOfMemoryError: CUDA out of memory. "
            "Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 17.06 "
            "MiB is free.",
            "fr",
        ),
        ("Mon entraînement plante avec RuntimeError: CUDA error: device-side assert", "fr"),
        ("I get RuntimeError: CUDA error: device-side assert triggered, what now?", "en"),
        ("RuntimeError: CUDA error: no kernel image is available for execution", "en"),
    ],
)
def test_a_pasted_error_does_not_decide_the_language(text: str, lang: str) -> None:
    from assistant.language import detect_language

    assert detect_language(text) == lang


@pytest.mark.parametrize(
    "text",
    [
        "VGA thế nào thì chạy dc chế độ CUDA. Máy mình dùng 3060ti mà ko thấy nhận.",
        "为什么mac mps 加速比cpu 慢",
        "получаю сообщение и программа закрывается",
    ],
)
def test_another_language_is_answered_in_english_not_french(text: str) -> None:
    # Vietnamese accents are not French ones: neither language is served, English is the fallback
    assert detect_language(text) == "en"


def test_french_accents_alone_stay_french() -> None:
    assert (
        detect_language("Ça marche sur une RTX 4090 ? Ma carte graphique est-elle compatible ?")
        == "fr"
    )


def test_latin_words_inside_cjk_text_are_read() -> None:
    from assistant.agent.offline.entities import extract_entities
    from assistant.language import separate_scripts

    text = separate_scripts("我的RTX 3060 12GB能跑Qwen2.5 14B吗？")
    assert text == "我的 RTX 3060 12GB 能跑 Qwen2.5 14B 吗?"
    ent = extract_entities(text)
    assert ent.gpus == ["GeForce RTX 3060 12GB"] and ent.models == ["Qwen2.5 14B"]
    assert separate_scripts("Une RTX 4090 à 1 800 € ?") == "Une RTX 4090 à 1 800 € ?"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "A 3.5 GB model at $1.20/h. Then the 4090? ok",
            ["A 3.5 GB model at $1.20/h", "Then the 4090", "ok"],
        ),
        ("2080ti，那个更快？一个显存16g", ["2080ti，那个更快", "一个显存16g"]),
        ("first; second\nthird", ["first", "second", "third"]),
        ("ends with a point.", ["ends with a point"]),
        ("I have 3.", ["I have 3"]),  # a text cut inside '3.5 GB'
    ],
)
def test_one_sentence_splitter_knows_points_in_numbers_and_cjk_marks(
    text: str, expected: list[str]
) -> None:
    from assistant.language import sentence_after, sentence_before, sentences

    marks = ".?;？。"
    assert [s.rstrip(marks) for s in sentences(text)] == expected
    assert sentence_after(text).rstrip(marks) == expected[0]
    assert sentence_before(text).rstrip(marks) == expected[-1]


def test_a_pasted_log_between_the_askers_own_lines_does_not_set_the_language() -> None:
    # the log's lines are English and not all named as an error; the asker's first and last
    # lines are French
    text = (
        "ComfyUI portable me sort ça :\n"
        "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current "
        "PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_80 sm_90.\n"
        "puis RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "j'ai fait une bêtise ?"
    )
    assert detect_language(text) == "fr"
    english = "I get this when I start it:\nRuntimeError: CUDA error: no kernel image\nany idea?"
    assert detect_language(english) == "en"
